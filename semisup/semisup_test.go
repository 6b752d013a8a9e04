package semisup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
	"github.com/gwf-graphs/gwf/training"
)

// TestJointTrainingClassifies: on two structures with 30% of the labels, the joint loss goes
// down and the head labels the unlabelled graphs far better than chance.
func TestJointTrainingClassifies(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 60, 3)
	train := append([]int(nil), labels...)
	for i := range train {
		if i%10 >= 3 {
			train[i] = Unlabeled
		}
	}
	m, err := NewModel(data, 2, semisuptest.SmallGWF(), Config{Beta: 0.1, Hidden: []int{8}, Activation: ReLU})
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, data, train, Options{}); err != nil {
		t.Fatal(err)
	}
	h := m.History
	if !(h[len(h)-1].CE < h[0].CE) || !(h[len(h)-1].GWF < h[0].GWF) {
		t.Errorf("losses did not decrease: %+v", h)
	}
	pred := m.Predict()
	ok, n := 0, 0
	for i, l := range train {
		if l == Unlabeled {
			n++
			if pred[i] == labels[i] {
				ok++
			}
		}
	}
	if acc := float64(ok) / float64(n); acc < 0.85 {
		t.Errorf("accuracy on the unlabelled graphs %.2f, want ≥ 0.85 (chance 0.5)", acc)
	}
}

// TestGradientsByFiniteDifferences: the backward pass gives the head's gradients exactly
// (central differences of the batch loss, in which the GWF term does not depend on the head),
// and for z the envelope gradient of the GWF term plus β times the cross-entropy's.
func TestGradientsByFiniteDifferences(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 6, 5)
	labels[1] = Unlabeled
	for _, c := range []Config{{Beta: 0.7, Hidden: []int{5}, Activation: ReLU}, {Beta: 0.7, Hidden: []int{5}, Activation: Tanh, Input: InputLambda},
		{Beta: 0.7, Hidden: []int{5}, Activation: ReLU, Input: InputCentered}} {
		act := string(c.Activation) + "/" + string(c.Input)
		m, err := NewModel(data, 2, semisuptest.SmallGWF(), c)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(9, 9))
		m.GWF.Z.Apply(func(_, _ int, _ float64) float64 { return rng.NormFloat64() }, m.GWF.Z)
		fwd, err := m.GWF.Config.Forward()
		if err != nil {
			t.Fatal(err)
		}
		batch := []int{0, 1, 2, 3, 4, 5}
		gr, err := m.gradients(fwd, data, labels, batch, 2)
		if err != nil {
			t.Fatal(err)
		}
		// The head: total loss differences.
		total := func() float64 {
			g, err := m.gradients(fwd, data, labels, batch, 2)
			if err != nil {
				t.Fatal(err)
			}
			return g.gwf + m.Config.Beta*g.ce
		}
		const h = 1e-6
		params := append(append([][]float64{}, rawOf(m.Head.W)...), m.Head.B...)
		for j, p := range params {
			for _, e := range []int{0, len(p) - 1} {
				old := p[e]
				p[e] = old + h
				up := total()
				p[e] = old - h
				down := total()
				p[e] = old
				fd := (up - down) / (2 * h)
				if math.Abs(fd-gr.head[j][e]) > 1e-6*(1+math.Abs(fd)) {
					t.Errorf("%s: head parameter %d[%d]: backward %v, finite differences %v", act, j, e, gr.head[j][e], fd)
				}
			}
		}
		// z: subtract the GWF part (β = 0 run), compare with the cross-entropy's differences.
		beta := m.Config.Beta
		m.Config.Beta = 0
		gwfOnly, err := m.gradients(fwd, data, labels, batch, 2)
		if err != nil {
			t.Fatal(err)
		}
		m.Config.Beta = beta
		ce := func() float64 { return crossEntropy(m, labels) }
		K := m.GWF.K()
		for _, i := range []int{0, 2, 5} {
			for k := 0; k < K; k += 3 {
				old := m.GWF.Z.At(i, k)
				m.GWF.Z.Set(i, k, old+h)
				up := ce()
				m.GWF.Z.Set(i, k, old-h)
				down := ce()
				m.GWF.Z.Set(i, k, old)
				fd := beta * (up - down) / (2 * h)
				got := gr.z[i*K+k] - gwfOnly.z[i*K+k]
				if math.Abs(fd-got) > 1e-6*(1+math.Abs(fd)) {
					t.Errorf("%s: z[%d][%d]: backward %v, finite differences %v", act, i, k, got, fd)
				}
			}
		}
	}
}

func rawOf(ms []*mat.Dense) [][]float64 {
	var out [][]float64
	for _, m := range ms {
		out = append(out, m.RawMatrix().Data)
	}
	return out
}

// crossEntropy is Σ_labelled −log softmax(MLP(z_i))_label, in plain Go.
func crossEntropy(m *Model, labels []int) float64 {
	lg := m.Head.Logits(m.Config.HeadInput(m.GWF.Z))
	s := 0.0
	for i, l := range labels {
		if l == Unlabeled {
			continue
		}
		row := lg.RawRowView(i)
		mx := math.Inf(-1)
		for _, v := range row {
			mx = math.Max(mx, v)
		}
		z := 0.0
		for _, v := range row {
			z += math.Exp(v - mx)
		}
		s -= row[l] - mx - math.Log(z)
	}
	return s
}

func TestErrors(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 6, 7)
	if _, err := NewModel(data, 2, semisuptest.SmallGWF(), Config{Beta: -1, Activation: ReLU}); err == nil {
		t.Error("beta < 0: no error")
	}
	if _, err := NewModel(data, 2, semisuptest.SmallGWF(), Config{Beta: 1, Activation: "sigmoid"}); err == nil {
		t.Error("unknown activation: no error")
	}
	m, err := NewModel(data, 2, semisuptest.SmallGWF(), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := Fit(ctx, m, data, labels[:5], Options{}); err == nil {
		t.Error("wrong label count: no error")
	}
	bad := append([]int(nil), labels...)
	bad[2] = 7
	if err := Fit(ctx, m, data, bad, Options{}); err == nil {
		t.Error("unknown class: no error")
	}
	none := make([]int, len(labels))
	for i := range none {
		none[i] = Unlabeled
	}
	if err := Fit(ctx, m, data, none, Options{}); err == nil {
		t.Error("no labelled graph with β > 0: no error")
	}
}

func TestFoldsStratified(t *testing.T) {
	labels := make([]int, 100)
	for i := range labels {
		if i%4 == 0 {
			labels[i] = 1
		}
	}
	fold, err := Folds(labels, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	for f := 0; f < 5; f++ {
		n, ones := 0, 0
		for i := range fold {
			if fold[i] == f {
				n++
				ones += labels[i]
			}
		}
		if n != 20 || ones != 5 {
			t.Errorf("fold %d: %d graphs, %d of class 1; want 20 and 5", f, n, ones)
		}
	}
	if _, err := Folds(labels, 1, 1); err == nil {
		t.Error("1 fold: no error")
	}
}

func TestPredictNew(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 40, 13)
	m, err := NewModel(data, 2, semisuptest.SmallGWF(), Config{Beta: 0.1, Hidden: []int{8}, Activation: ReLU})
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, data, labels, Options{}); err != nil {
		t.Fatal(err)
	}
	fresh, truth := semisuptest.TwoStructures(t, 20, 14)
	pred, err := m.PredictNew(context.Background(), fresh, 0, training.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if acc := accuracy(truth, pred); acc < 0.8 {
		t.Errorf("accuracy on unseen graphs %.2f", acc)
	}
}

func TestKeepLabels(t *testing.T) {
	labels := make([]int, 50)
	for i := range labels {
		labels[i] = i % 5 / 4 // 40 of class 0, 10 of class 1
	}
	kept := KeepLabels(labels, 0.3, 2)
	n := map[int]int{}
	for i, l := range kept {
		if l != Unlabeled {
			if l != labels[i] {
				t.Fatalf("graph %d: kept label %d, true %d", i, l, labels[i])
			}
			n[l]++
		}
	}
	if n[0] != 12 || n[1] != 3 {
		t.Errorf("kept %v, want 12 of class 0 and 3 of class 1", n)
	}
}

// TestSaveLoadResume: a model saved after some epochs, loaded and trained on ends exactly like
// an uninterrupted run; damaged files are refused.
func TestSaveLoadResume(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 20, 17)
	labels[3], labels[8] = Unlabeled, Unlabeled
	cfg := semisuptest.SmallGWF()
	cfg.Epochs = 3
	sc := Config{Beta: 0.1, Hidden: []int{4}, Activation: Tanh}
	whole, err := NewModel(data, 2, cfg, sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), whole, data, labels, Options{}); err != nil {
		t.Fatal(err)
	}
	part := cfg
	part.Epochs = 1
	m, err := NewModel(data, 2, part, sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, data, labels, Options{}); err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/m.json"
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	m, err = Load(path)
	if err != nil {
		t.Fatal(err)
	}
	m.GWF.Config.Epochs = 3
	if err := Fit(context.Background(), m, data, labels, Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(m.GWF.Z, whole.GWF.Z) || !mat.Equal(m.Head.W[0], whole.Head.W[0]) || !mat.Equal(m.GWF.V[0], whole.GWF.V[0]) {
		t.Error("resumed model differs from the uninterrupted one")
	}
	// Damage.
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	for name, bad := range map[string][]byte{
		"truncated": b[:len(b)/2],
		"flipped":   bytes.Replace(b, []byte(`"beta":0.1`), []byte(`"beta":0.2`), 1),
	} {
		if _, err := Decode(bytes.NewReader(bad)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
}

// TestBetaZeroIsGWF: with β = 0 the joint trainer (one Gorgonia graph per batch, the batch op's
// envelope gradients) trains exactly the model that training.Fit (its own fused trainer) does.
func TestBetaZeroIsGWF(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 18, 19)
	cfg := semisuptest.SmallGWF()
	cfg.Epochs, cfg.Batch = 3, 5
	m, err := NewModel(data, 2, cfg, Config{Beta: 0, Activation: ReLU})
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, data, labels, Options{Workers: 3}); err != nil {
		t.Fatal(err)
	}
	ref, err := training.NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := training.Fit(context.Background(), ref, graphs.Slice(data), training.Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(m.GWF.Z, ref.Z, 1e-10) {
		t.Error("embeddings differ from training.Fit's")
	}
	for k := range ref.V {
		if !mat.EqualApprox(m.GWF.V[k], ref.V[k], 1e-10) {
			t.Errorf("atom %d differs from training.Fit's", k)
		}
	}
}

// TestDetach: with Detach the embeddings get only the GWF gradient, and the head the same
// gradient as without.
func TestDetach(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 6, 23)
	m, err := NewModel(data, 2, semisuptest.SmallGWF(), Config{Beta: 0.5, Hidden: []int{4}, Activation: ReLU, Input: InputCentered})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	m.GWF.Z.Apply(func(_, _ int, _ float64) float64 { return rng.NormFloat64() }, m.GWF.Z)
	fwd, err := m.GWF.Config.Forward()
	if err != nil {
		t.Fatal(err)
	}
	batch := []int{0, 1, 2, 3, 4, 5}
	joint, err := m.gradients(fwd, data, labels, batch, 1)
	if err != nil {
		t.Fatal(err)
	}
	m.Config.Detach = true
	detached, err := m.gradients(fwd, data, labels, batch, 1)
	if err != nil {
		t.Fatal(err)
	}
	m.Config.Beta = 0
	gwfOnly, err := m.gradients(fwd, data, labels, batch, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range detached.z {
		if math.Abs(detached.z[i]-gwfOnly.z[i]) > 1e-12 {
			t.Fatalf("detached z gradient %d: %v, GWF only %v", i, detached.z[i], gwfOnly.z[i])
		}
	}
	same := true
	for j := range joint.head {
		for e := range joint.head[j] {
			same = same && math.Abs(joint.head[j][e]-detached.head[j][e]) < 1e-12
		}
	}
	if !same {
		t.Error("detaching changed the head's gradient")
	}
	differs := false
	for i := range joint.z {
		differs = differs || math.Abs(joint.z[i]-detached.z[i]) > 1e-9
	}
	if !differs {
		t.Error("without Detach the cross-entropy should reach z")
	}
}

// TestDefaultDetach: detached by default for free z, not with an encoder; DefaultConfig (free
// z) follows it, and a configuration written without the key (false is not written) reads false.
func TestDefaultDetach(t *testing.T) {
	for enc, want := range map[EncoderKind]bool{"": true, EncoderNone: true, EncoderGCN: false, EncoderGIN: false} {
		if got := DefaultDetach(enc); got != want {
			t.Errorf("DefaultDetach(%q) = %v, want %v", enc, got, want)
		}
	}
	if d := DefaultConfig(); !d.Detach || d.Detach != DefaultDetach(d.Encoder) {
		t.Errorf("DefaultConfig: Detach %v with encoder %q", d.Detach, d.Encoder)
	}
	var c Config
	if err := json.Unmarshal([]byte(`{"beta":0.1,"hidden":[32],"activation":"relu","input":"centered","head_training":{"steps":500}}`), &c); err != nil || c.Detach {
		t.Errorf("a file without detach: %+v, %v", c, err)
	}
	if b, err := json.Marshal(Config{Detach: false}); err != nil || bytes.Contains(b, []byte("detach")) {
		t.Errorf("Detach false is written: %s, %v", b, err)
	}
	// Detaching an encoder's embeddings, or embeddings nothing else trains, is refused by
	// Validate, not left to fail inside the graph's construction.
	for _, c := range []Config{{Encoder: EncoderGIN}, {Encoder: EncoderGCN}, {NoGWF: true}} {
		d := DefaultConfig()
		d.Encoder, d.NoGWF, d.Detach = c.Encoder, c.NoGWF, true
		if err := d.Validate(); err == nil {
			t.Errorf("detach with encoder %q, no_gwf %v accepted", c.Encoder, c.NoGWF)
		}
		d.Detach = false
		if err := d.Validate(); err != nil {
			t.Errorf("encoder %q, no_gwf %v without detach: %v", c.Encoder, c.NoGWF, err)
		}
	}
	// With β = 0 there is no head term: DefaultConfig with an encoder, unsupervised, is valid.
	d := DefaultConfig()
	d.Encoder, d.Beta = EncoderGIN, 0
	if err := d.Validate(); err != nil {
		t.Errorf("detach with an encoder and β = 0: %v", err)
	}
}

// accuracy is the fraction of equal entries (the classes are the labels: no matching).
func accuracy(truth, pred []int) float64 {
	ok := 0
	for i := range truth {
		if truth[i] == pred[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(truth))
}

// TestClassMembers: the graphs of each class in class order, unlabelled graphs in none.
func TestClassMembers(t *testing.T) {
	got := ClassMembers([]int{2, 0, Unlabeled, 2, 0, 1})
	want := [][]int{{1, 4}, {5}, {0, 3}}
	if len(got) != len(want) {
		t.Fatalf("ClassMembers = %v, want %v", got, want)
	}
	for k := range want {
		if !slices.Equal(got[k], want[k]) {
			t.Errorf("class %d: %v, want %v", k, got[k], want[k])
		}
	}
}
