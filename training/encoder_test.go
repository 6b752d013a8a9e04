package training

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"
)

// linearEncoder is z_i = x_i·W with x_i = (1, N_i/10, Σ C_i / 20): a minimal Encoder.
type linearEncoder struct {
	w *mat.Dense
	x *mat.Dense // one row per graph
}

func newLinearEncoder(data []*graphs.Graph, k int) *linearEncoder {
	x := mat.NewDense(len(data), 3, nil)
	for i, g := range data {
		x.SetRow(i, []float64{1, float64(g.N()) / 10, mat.Sum(g.Dense()) / 20})
	}
	w := mat.NewDense(3, k, nil)
	for i := 0; i < 3; i++ {
		for j := 0; j < k; j++ {
			w.Set(i, j, 0.1*float64((i*k+j)%7-3))
		}
	}
	return &linearEncoder{w: w, x: x}
}

func (e *linearEncoder) Params() []*tensor.Dense {
	return []*tensor.Dense{tensor.New(tensor.WithShape(3, e.w.RawMatrix().Cols), tensor.WithBacking(e.w.RawMatrix().Data))}
}

func (e *linearEncoder) Encode(g *gorgonia.ExprGraph, p gorgonia.Nodes, batch []int) (*gorgonia.Node, error) {
	xb := make([]float64, 0, 3*len(batch))
	for _, i := range batch {
		xb = append(xb, e.x.RawRowView(i)...)
	}
	x := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(len(batch), 3), tensor.WithBacking(xb)), gorgonia.WithName(fmt.Sprint("x", len(batch))))
	return gorgonia.Mul(x, p[0])
}

// TestEncoderTrains: with an Encoder the embeddings come from it; the GWF term trains its
// weights, the loss falls, and Z holds the encoder's outputs.
func TestEncoderTrains(t *testing.T) {
	data := mutag(t, 24)
	cfg := smallConfig()
	cfg.Epochs = 4
	m, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	enc := newLinearEncoder(data, cfg.Atoms)
	w0 := mat.DenseCopyOf(enc.w)
	if err := Fit(context.Background(), m, graphs.Slice(data), Options{Encoder: enc}); err != nil {
		t.Fatal(err)
	}
	if mat.EqualApprox(enc.w, w0, 1e-3) {
		t.Error("the encoder's weights did not move")
	}
	if m.Optimizer.Encoder == nil {
		t.Error("no encoder state in the optimizer snapshot")
	}
}

// TestEncoderGradientIsChainRule: the encoder's gradient is Xᵀ·G_z, with G_z the gradient of
// the batch's GWF loss w.r.t. free embeddings equal to the encoder's outputs.
func TestEncoderGradientIsChainRule(t *testing.T) {
	data := mutag(t, 10)
	cfg := smallConfig()
	m, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	enc := newLinearEncoder(data, cfg.Atoms)
	batch := []int{3, 0, 7, 9}
	withEnc, err := BatchGradients(m, data, batch, Options{Encoder: enc})
	if err != nil {
		t.Fatal(err)
	}
	for r, i := range batch { // free embeddings = the encoder's outputs
		m.Z.SetRow(i, withEnc.Embeddings[r*cfg.Atoms:(r+1)*cfg.Atoms])
	}
	free, err := BatchGradients(m, data, batch, Options{})
	if err != nil {
		t.Fatal(err)
	}
	xb := mat.NewDense(len(batch), 3, nil)
	for r, i := range batch {
		xb.SetRow(r, enc.x.RawRowView(i))
	}
	var want mat.Dense
	want.Mul(xb.T(), mat.NewDense(len(batch), cfg.Atoms, free.Z))
	got := mat.NewDense(3, cfg.Atoms, withEnc.Encoder[0])
	if !mat.EqualApprox(got, &want, 1e-12) {
		t.Errorf("encoder gradient\n%v\nwant Xᵀ·G_z\n%v", mat.Formatted(got), mat.Formatted(&want))
	}
	if withEnc.Loss != free.Loss {
		t.Errorf("losses differ: %v with the encoder, %v free", withEnc.Loss, free.Loss)
	}
}

// TestEncoderResumeIsExact: stopping after 2 epochs and resuming (the encoder's Adam state
// restored from Model.Optimizer) ends with the weights of an uninterrupted run.
func TestEncoderResumeIsExact(t *testing.T) {
	data := mutag(t, 20)
	cfg := smallConfig()
	cfg.Epochs = 4
	run := func(stopAt int) *mat.Dense {
		m, err := NewModel(graphs.Slice(data), cfg)
		if err != nil {
			t.Fatal(err)
		}
		enc := newLinearEncoder(data, cfg.Atoms)
		if stopAt > 0 {
			m.Config.Epochs = stopAt
			if err := Fit(context.Background(), m, graphs.Slice(data), Options{Encoder: enc}); err != nil {
				t.Fatal(err)
			}
			m.Config.Epochs = cfg.Epochs
		}
		if err := Fit(context.Background(), m, graphs.Slice(data), Options{Encoder: enc, Workers: 1}); err != nil {
			t.Fatal(err)
		}
		return enc.w
	}
	if a, b := run(0), run(2); !slices.Equal(a.RawMatrix().Data, b.RawMatrix().Data) {
		t.Errorf("resumed encoder weights differ:\n%v\nvs\n%v", mat.Formatted(a), mat.Formatted(b))
	}
}

// TestWithoutGWF: without the GWF term the atoms do not move and only the terms train.
func TestWithoutGWF(t *testing.T) {
	data := mutag(t, 12)
	m, err := NewModel(graphs.Slice(data), smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	v0 := mat.DenseCopyOf(m.V[0])
	z0 := mat.DenseCopyOf(m.Z)
	w := tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{1, 1}))
	if err := Fit(context.Background(), m, graphs.Slice(data), Options{WithoutGWF: true, Terms: []Term{squareTerm{w}}}); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(m.V[0], v0) {
		t.Error("an atom moved without the GWF term")
	}
	if mat.Equal(m.Z, z0) {
		t.Error("the term did not train the embeddings")
	}
	if m.History[0].Loss != 0 || m.History[0].Terms[0] <= 0 {
		t.Errorf("history %+v: want GWF loss 0 and a positive term", m.History[0])
	}
}

// squareTerm is Σ w·(z⊙z): it pulls the embeddings to 0.
type squareTerm struct{ w *tensor.Dense }

func (s squareTerm) Params() []*tensor.Dense { return []*tensor.Dense{s.w} }
func (s squareTerm) Build(g *gorgonia.ExprGraph, z *gorgonia.Node, p gorgonia.Nodes, _ []int) (*gorgonia.Node, error) {
	sq, err := gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(z, z)))
	if err != nil {
		return nil, err
	}
	return gorgonia.Mul(sq, gorgonia.Must(gorgonia.Sum(p[0])))
}
