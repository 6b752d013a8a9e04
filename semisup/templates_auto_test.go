package semisup

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
	"github.com/gwf-graphs/gwf/training"
)

// Encoder auto returns, of the ensembles trained without an encoder and with the GIN encoder on
// the same seeds, the one whose members score better on their validation splits (the first on
// a tie): the same members, predicting the same.
func TestTemplatesEncoderAuto(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 16, 1)
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.Validation, cfg.Members = 2, 0.5, 2
	trained := map[EncoderKind]*TemplateEnsemble{}
	for _, enc := range []EncoderKind{EncoderNone, EncoderGIN, EncoderAuto} {
		c := cfg
		c.Encoder = enc
		e, err := TrainTemplates(context.Background(), data, labels, 2, c, TemplateOptions{Workers: 2})
		if err != nil {
			t.Fatalf("encoder %s: %v", enc, err)
		}
		trained[enc] = e
	}
	none, gin := trained[EncoderNone].ValidationAccuracy(), trained[EncoderGIN].ValidationAccuracy()
	if none == gin {
		t.Fatalf("both encoders score %v on validation: the test needs settings where they differ", none)
	}
	want := EncoderNone
	if gin > none {
		want = EncoderGIN
	}
	auto := trained[EncoderAuto]
	for k, m := range auto.Members {
		if m.Config.Encoder != want {
			t.Fatalf("member %d has encoder %q; validation accuracies none %v, gin %v", k+1, m.Config.Encoder,
				trained[EncoderNone].ValidationAccuracy(), trained[EncoderGIN].ValidationAccuracy())
		}
	}
	got, err := auto.Probabilities(context.Background(), data, 2)
	if err != nil {
		t.Fatal(err)
	}
	same, err := trained[want].Probabilities(context.Background(), data, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, same) {
		t.Error("encoder auto predicts other than the ensemble it chose")
	}
	if v := auto.ValidationAccuracy(); !(v >= 0 && v <= 1) {
		t.Errorf("validation accuracy %v", v)
	}

	// Auto chooses on the validation split: without one it is refused, and a single model
	// (which has one encoder) never takes it.
	c := cfg
	c.Encoder, c.Validation = EncoderAuto, 0
	if _, err := TrainTemplates(context.Background(), data, labels, 2, c, TemplateOptions{}); err == nil {
		t.Error("encoder auto without a validation split accepted")
	}
	c.Validation = 0.25
	if _, err := NewTemplateModel(data, labels, 2, c); err == nil {
		t.Error("a single model with encoder auto accepted")
	}
}

// withNoise returns copies of data whose nodes carry width features drawn at random, which
// say nothing of the class.
func withNoise(data []*graphs.Graph, width int, seed uint64) []*graphs.Graph {
	rng := rand.New(rand.NewPCG(seed, 3))
	out := make([]*graphs.Graph, len(data))
	for i, g := range data {
		c := *g
		c.F = mat.NewDense(g.N(), width, nil)
		for r := 0; r < g.N(); r++ {
			for j := 0; j < width; j++ {
				c.F.Set(r, j, 3*rng.NormFloat64())
			}
		}
		out[i] = &c
	}
	return out
}

// withClassFeatures returns copies of data whose every node carries its graph's class one-hot:
// features that give the class away.
func withClassFeatures(data []*graphs.Graph, labels []int) []*graphs.Graph {
	out := make([]*graphs.Graph, len(data))
	for i, g := range data {
		c := *g
		c.F = mat.NewDense(g.N(), 2, nil)
		for r := 0; r < g.N(); r++ {
			c.F.Set(r, labels[i], 1)
		}
		out[i] = &c
	}
	return out
}

// Node features auto keeps the graphs' features where they carry the class, and reads the
// structure alone where the features are noise that drowns a structure that carries it: the
// structure-alone ensemble it returns is the one trained on the graphs without features, and
// predicts new graphs whatever features they have.
func TestTemplatesNodeFeaturesAuto(t *testing.T) {
	ctx := context.Background()
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.Validation, cfg.Members, cfg.NodeFeatures = 10, 0.5, 2, NodeFeaturesAuto
	structure, labels := semisuptest.TwoStructures(t, 32, 1)

	noisy := withNoise(structure, 8, 1)
	e, err := TrainTemplates(ctx, noisy, labels, 2, cfg, TemplateOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for k, m := range e.Members {
		if m.Config.NodeFeatures != NodeFeaturesNone {
			t.Fatalf("noise features: member %d reads node features %q, want none", k+1, m.Config.NodeFeatures)
		}
	}
	if n := len(e.Members[0].History); n != cfg.Epochs { // the screen that won was not cut at its rung
		t.Errorf("the chosen screen trained %d epochs, want %d", n, cfg.Epochs)
	}
	bare := cfg
	bare.NodeFeatures = NodeFeaturesData
	plain, err := TrainTemplates(ctx, graphs.WithoutFeatures(structure), labels, 2, bare, TemplateOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	fresh, truth := semisuptest.TwoStructures(t, 20, 2)
	got, err := e.Probabilities(ctx, withNoise(fresh, 8, 2), 2)
	if err != nil {
		t.Fatal(err)
	}
	want, err := plain.Probabilities(ctx, fresh, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(got, want, 1e-12) {
		t.Error("the structure-alone ensemble predicts other than the same ensemble trained on the graphs without features")
	}
	if acc := accuracy(truth, ArgMax(got)); acc < 0.8 {
		t.Errorf("the structure alone scores %.2f on unseen graphs, want ≥ 0.8", acc)
	}

	// Features that give the class away on graphs of one kind: kept, at no cost to the
	// ensemble (the same members as reading them outright).
	same, _ := semisuptest.TwoStructures(t, 32, 3)
	for i := range same {
		same[i] = same[i&^1] // every graph of the first kind
	}
	informative := withClassFeatures(same, labels)
	var said []string
	heard := func(e training.Event) {
		if e.Message != "" {
			said = append(said, e.Message)
		}
	}
	e, err = TrainTemplates(ctx, informative, labels, 2, cfg, TemplateOptions{Workers: 2, Observe: heard})
	if err != nil {
		t.Fatal(err)
	}
	// The screen, on graphs of one kind, cannot tell the classes apart: it stops at its rung.
	rung := fmt.Sprintf("by epoch %d, not above", (cfg.Epochs+2)/3)
	if !slices.ContainsFunc(said, func(m string) bool { return strings.HasPrefix(m, "structure alone: ") && strings.Contains(m, rung) }) {
		t.Errorf("the trailing screen was not stopped at its rung (%q); heard %q", rung, said)
	}
	outright, err := TrainTemplates(ctx, informative, labels, 2, bare, TemplateOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for k, m := range e.Members {
		if m.Config.NodeFeatures != NodeFeaturesData {
			t.Fatalf("class features: member %d reads node features %q, want data", k+1, m.Config.NodeFeatures)
		}
	}
	got, _ = e.Probabilities(ctx, informative, 2)
	want, _ = outright.Probabilities(ctx, informative, 2)
	if !mat.Equal(got, want) {
		t.Error("the ensemble that kept the features predicts other than the one that read them outright")
	}

	// Nothing to choose on: without a validation split, or graphs without features, the
	// graphs are read as they are; a single model reads the data's features.
	c := cfg
	c.Validation, c.Members = 0, 1
	e, err = TrainTemplates(ctx, noisy, labels, 2, c, TemplateOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if f := e.Members[0].Config.NodeFeatures; f != NodeFeaturesData {
		t.Errorf("without a validation split: node features %q, want data", f)
	}
	m, err := NewTemplateModel(noisy, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if m.Config.NodeFeatures != NodeFeaturesData || m.Inputs != InputDim(8) {
		t.Errorf("a single model under auto reads %q, %d inputs; want data, %d", m.Config.NodeFeatures, m.Inputs, InputDim(8))
	}
	c = cfg
	c.NodeFeatures = "some"
	if _, err := TrainTemplates(ctx, noisy, labels, 2, c, TemplateOptions{}); err == nil {
		t.Error("node features \"some\" accepted")
	}
}
