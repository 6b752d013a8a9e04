package semisup

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
	"github.com/gwf-graphs/gwf/training"
)

// permute returns g with its nodes in the order perm (node i of the result is perm[i] of g).
func permute(g *graphs.Graph, perm []int) *graphs.Graph {
	n := g.N()
	c := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			c.Set(i, j, g.A.At(perm[i], perm[j]))
		}
	}
	out, err := graphs.New(g.Name+"-perm", c, nil, nil)
	if err != nil {
		panic(err)
	}
	if g.F != nil {
		_, d := g.F.Dims()
		out.F = mat.NewDense(n, d, nil)
		for i := 0; i < n; i++ {
			out.F.SetRow(i, g.F.RawRowView(perm[i]))
		}
	}
	return out
}

// TestGNNPermutationInvariant: both encoders embed a graph and any relabelling of its nodes
// identically, with and without node features.
func TestGNNPermutationInvariant(t *testing.T) {
	data, _ := semisuptest.TwoStructures(t, 4, 3)
	rng := rand.New(rand.NewPCG(4, 5))
	withF := permute(data[1], rng.Perm(data[1].N()))
	withF.F = mat.NewDense(withF.N(), 2, nil)
	withF.F.Apply(func(i, j int, _ float64) float64 { return float64(i*j%3) - 1 }, withF.F)
	for _, kind := range []EncoderKind{EncoderGCN, EncoderGIN} {
		for _, g := range []*graphs.Graph{data[0], withF} {
			e, err := NewGNN(kind, InputDim(g.Dim()), []int{5, 4}, 3, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			p := permute(g, rng.Perm(g.N()))
			z, err := e.Embed([]*graphs.Graph{g, p})
			if err != nil {
				t.Fatal(err)
			}
			if !mat.EqualApprox(z.RowView(0), z.RowView(1), 1e-12) {
				t.Errorf("%s, %d features: %v vs permuted %v", kind, g.Dim(), mat.Formatted(z.RowView(0).T()), mat.Formatted(z.RowView(1).T()))
			}
		}
	}
}

// TestEncoderGradientsByFiniteDifferences: without the GWF term the objective is β·CE of the
// head on the encoder's embeddings, and its backward pass gives the encoder's gradients.
func TestEncoderGradientsByFiniteDifferences(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 6, 7)
	labels[2] = Unlabeled
	for _, kind := range []EncoderKind{EncoderGCN, EncoderGIN} {
		m, err := NewModel(data, 2, semisuptest.SmallGWF(), Config{Beta: 0.5, Hidden: []int{4}, Activation: Tanh, Input: InputZ, Encoder: kind, EncoderHidden: []int{5}, NoGWF: true})
		if err != nil {
			t.Fatal(err)
		}
		enc, err := m.Encoder.Bind(data)
		if err != nil {
			t.Fatal(err)
		}
		batch := []int{0, 1, 2, 3, 4, 5}
		opt := training.Options{Encoder: enc, WithoutGWF: true, Terms: []training.Term{&headTerm{m: m, labels: labels}}}
		gr, err := training.BatchGradients(m.GWF, data, batch, opt)
		if err != nil {
			t.Fatal(err)
		}
		total := func() float64 {
			g, err := training.BatchGradients(m.GWF, data, batch, opt)
			if err != nil {
				t.Fatal(err)
			}
			return g.Terms[0]
		}
		const h = 1e-6
		params := append(rawOf(m.Encoder.W), m.Encoder.B...)
		for j, p := range params {
			for _, e := range []int{0, len(p) / 2, len(p) - 1} {
				old := p[e]
				p[e] = old + h
				up := total()
				p[e] = old - h
				down := total()
				p[e] = old
				fd := (up - down) / (2 * h)
				if got := gr.Encoder[j][e]; math.Abs(fd-got) > 1e-6*(1+math.Abs(fd)) {
					t.Errorf("%s: encoder parameter %d[%d]: backward %v, finite differences %v", kind, j, e, got, fd)
				}
			}
		}
	}
}

// TestEncoderClassifiesUnseenGraphs: a GCN encoder trained with the GWF term and the labels
// classifies graphs it has never seen with one forward pass, and the GWF term moves the atoms.
func TestEncoderClassifiesUnseenGraphs(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 40, 21)
	m, err := NewModel(data, 2, semisuptest.SmallGWF(), Config{Beta: 0.1, Hidden: []int{8}, Activation: ReLU, Input: InputCentered, Encoder: EncoderGCN, Head: DefaultHeadTraining()})
	if err != nil {
		t.Fatal(err)
	}
	v0 := mat.DenseCopyOf(m.GWF.V[0])
	if err := Fit(context.Background(), m, data, labels, Options{}); err != nil {
		t.Fatal(err)
	}
	if mat.Equal(v0, m.GWF.V[0]) {
		t.Error("the atoms did not move")
	}
	fresh, truth := semisuptest.TwoStructures(t, 20, 22)
	pred, err := m.PredictNew(context.Background(), fresh, 0, training.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if acc := accuracy(truth, pred); acc < 0.8 {
		t.Errorf("accuracy on unseen graphs %.2f", acc)
	}
}

// TestEncoderModelSaveLoadResume: an encoder model round-trips through its file (weights,
// optimizer state), resumes exactly, and a damaged encoder layer is refused.
func TestEncoderModelSaveLoadResume(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 16, 31)
	cfg := Config{Beta: 0.1, Hidden: []int{4}, Activation: ReLU, Input: InputCentered, Encoder: EncoderGIN, EncoderHidden: []int{6}}
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 4
	full := func() *Model {
		m, err := NewModel(data, 2, gwf, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	a := full()
	if err := Fit(context.Background(), a, data, labels, Options{}); err != nil {
		t.Fatal(err)
	}
	b := full()
	b.GWF.Config.Epochs = 2
	if err := Fit(context.Background(), b, data, labels, Options{}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := b.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	saved := buf.Bytes()
	c, err := Decode(bytes.NewReader(saved))
	if err != nil {
		t.Fatal(err)
	}
	if c.Encoder == nil || !mat.Equal(c.Encoder.W[0], b.Encoder.W[0]) {
		t.Fatal("the encoder did not round-trip")
	}
	c.GWF.Config.Epochs = 4
	if err := Fit(context.Background(), c, data, labels, Options{}); err != nil {
		t.Fatal(err)
	}
	for l := range a.Encoder.W {
		if !mat.Equal(a.Encoder.W[l], c.Encoder.W[l]) {
			t.Errorf("encoder layer %d differs after resume", l)
		}
	}
	c.Encoder.W[0].Set(0, 0, math.NaN())
	buf.Reset()
	if err := c.Encode(&buf); err == nil {
		if _, err := Decode(&buf); err == nil {
			t.Error("a non-finite encoder weight was accepted")
		}
	}
}

// TestEncoderLearningRate: the encoder's weights move by its own learning rate — one epoch at
// a rate a hundred times smaller moves its first layer about a hundred times less (Adam's
// steps are about the rate each), while the atoms keep the GWF model's rate.
func TestEncoderLearningRate(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 8, 41)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 1
	moved := func(lr float64) (enc, atoms float64) {
		m, err := NewModel(data, 2, gwf, Config{Beta: 0.1, Hidden: []int{4}, Activation: ReLU, Input: InputCentered, Encoder: EncoderGIN, EncoderHidden: []int{6}, EncoderLearningRate: lr})
		if err != nil {
			t.Fatal(err)
		}
		w0, v0 := mat.DenseCopyOf(m.Encoder.W[0]), mat.DenseCopyOf(m.GWF.V[0])
		if err := Fit(context.Background(), m, data, labels, Options{}); err != nil {
			t.Fatal(err)
		}
		w0.Sub(w0, m.Encoder.W[0])
		v0.Sub(v0, m.GWF.V[0])
		return mat.Norm(w0, math.Inf(1)), mat.Norm(v0, math.Inf(1))
	}
	encFast, atomsFast := moved(0) // the GWF model's rate
	encSlow, atomsSlow := moved(gwf.LearningRate / 100)
	if !(encSlow > 0 && encSlow < encFast/20) {
		t.Errorf("encoder moved %g at 1/100 of the rate, %g at the rate", encSlow, encFast)
	}
	if !(atomsSlow > atomsFast/5) {
		t.Errorf("the atoms moved %g with a slow encoder, %g with a fast one: their rate changed", atomsSlow, atomsFast)
	}
	if _, err := NewModel(data, 2, gwf, Config{Beta: 0.1, Activation: ReLU, Encoder: EncoderGIN, EncoderLearningRate: -1}); err == nil {
		t.Error("negative encoder learning rate accepted")
	}
}

// TestEncoderEpochEmbeddings: after every epoch an encoder model's Z is its encoder's forward
// pass with the weights of the end of that epoch (what the epoch's model, once saved, embeds),
// not each graph's embedding from its mini-batch — the nested protocol chooses and scores on it.
func TestEncoderEpochEmbeddings(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 20, 5)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 3
	m, err := NewModel(data, 2, gwf, Config{Beta: 0.1, Hidden: []int{4}, Activation: ReLU, Input: InputCentered, Encoder: EncoderGIN, EncoderHidden: []int{6}})
	if err != nil {
		t.Fatal(err)
	}
	epochs := 0
	err = Fit(context.Background(), m, data, labels, Options{EpochDone: func(m *Model) error {
		epochs++
		want, err := m.Encoder.Embed(data)
		if err != nil {
			return err
		}
		if !mat.Equal(m.GWF.Z, want) {
			t.Errorf("after epoch %d: Z is not the encoder's forward pass", len(m.History))
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if epochs < gwf.Epochs {
		t.Fatalf("%d epochs seen, want %d", epochs, gwf.Epochs)
	}
}
