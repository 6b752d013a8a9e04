package gwops

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/layers"
)

func denseNode(g *gorgonia.ExprGraph, name string, m *mat.Dense) *gorgonia.Node {
	r, c := m.Dims()
	v := tensor.New(tensor.WithShape(r, c), tensor.WithBacking(append([]float64(nil), m.RawMatrix().Data...)))
	return gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(r, c), gorgonia.WithName(name), gorgonia.WithValue(v))
}

// TestOuterModelGradients: z = W·x comes from an outer network; the gradient Gorgonia
// propagates into W through the GWF loss equals the chain rule applied to the analytic envelope
// gradient (dW = dz·xᵀ), and the atom gradients equal the analytic ones — with and without
// features, on random inputs.
func TestOuterModelGradients(t *testing.T) {
	for _, d := range []int{0, 2} {
		rng := rand.New(rand.NewPCG(31, uint64(d)))
		sizes := []int{5, 3, 6, 4}
		v, h, mus, _ := randomModel(rng, sizes, d)
		obs := randomSpace(rng, 6, 0.5, 2, true, d)
		x := []float64{0.3, -1.2, 0.8}
		wm := mat.NewDense(len(sizes), len(x), nil)
		for i := 0; i < len(sizes); i++ {
			for j := range x {
				wm.Set(i, j, rng.NormFloat64())
			}
		}
		fwd := layers.Forward{GWB: layers.GWB{Solver: layers.DefaultBADMM(), Layers: 2}}

		g := gorgonia.NewGraph()
		wn := denseNode(g, "W", wm)
		xn := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(len(x)), gorgonia.WithName("x"),
			gorgonia.WithValue(tensor.New(tensor.WithShape(len(x)), tensor.WithBacking(append([]float64(nil), x...)))))
		z := gorgonia.Must(gorgonia.Mul(wn, xn))
		atoms := make([]AtomNodes, len(sizes))
		params := gorgonia.Nodes{wn}
		for k := range sizes {
			atoms[k] = AtomNodes{V: denseNode(g, fmt.Sprintf("V%d", k), v[k]), Mu: mus[k]}
			params = append(params, atoms[k].V)
			if d > 0 {
				atoms[k].H = denseNode(g, fmt.Sprintf("H%d", k), h[k])
				params = append(params, atoms[k].H)
			}
		}
		loss, err := Loss{Forward: fwd}.Build(g, atoms, z, obs)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := gorgonia.Grad(loss, params...); err != nil {
			t.Fatal(err)
		}
		m := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(params...))
		if err := m.RunAll(); err != nil {
			t.Fatal(err)
		}

		// The analytic path on the same values.
		zv := make([]float64, len(sizes))
		for k := range zv {
			zv[k] = mat.Dot(wm.RowView(k), mat.NewVecDense(len(x), x))
		}
		lambda := make([]float64, len(sizes))
		layers.Softmax(lambda, zv)
		at := atomsOf(v, h, mus)
		var st layers.ForwardState
		if err := fwd.Run(context.Background(), &st, at, lambda, obs); err != nil {
			t.Fatal(err)
		}
		gU := make([]*mat.Dense, len(sizes))
		var gH []*mat.Dense
		for k, nk := range sizes {
			gU[k] = mat.NewDense(nk, nk, nil)
			if d > 0 {
				gH = append(gH, mat.NewDense(nk, d, nil))
			}
		}
		gl := make([]float64, len(sizes))
		want := st.Envelope(context.Background(), at, lambda, obs, fwd.GWB.Solver.FeatureWeight(), gU, gH, gl)
		gz := make([]float64, len(sizes))
		layers.SoftmaxBackward(gz, lambda, gl)

		close := func(what string, got, want []float64) {
			t.Helper()
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-9*math.Max(1, math.Abs(want[i])) {
					t.Fatalf("d=%d %s[%d]: graph %v, analytic %v", d, what, i, got[i], want[i])
				}
			}
		}
		close("loss", []float64{loss.Value().Data().(float64)}, []float64{want})
		gw, _ := wn.Grad()
		dW := make([]float64, 0, len(sizes)*len(x))
		for k := range sizes {
			for _, xv := range x {
				dW = append(dW, gz[k]*xv)
			}
		}
		close("dW", gw.Data().([]float64), dW)
		for k, a := range atoms {
			layers.ReLUBackward(gU[k], at[k].U)
			gv, _ := a.V.Grad()
			close("dV", gv.Data().([]float64), gU[k].RawMatrix().Data)
			if d > 0 {
				gh, _ := a.H.Grad()
				close("dH", gh.Data().([]float64), gH[k].RawMatrix().Data)
			}
		}
		m.Close()
	}
}

// TestOuterModelTrains: an outer linear model trained only through the GWF loss lowers it.
func TestOuterModelTrains(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	sizes := []int{6, 6, 6}
	v, _, mus, _ := randomModel(rng, sizes, 0)
	obs := layers.Space{C: mat.DenseCopyOf(v[1]), Mu: mus[1]}
	layers.ReLU(obs.C, obs.C) // the observed graph is atom 1 itself
	g := gorgonia.NewGraph()
	wn := denseNode(g, "W", mat.NewDense(3, 2, nil))
	xn := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(2), gorgonia.WithName("x"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{1, -1}))))
	z := gorgonia.Must(gorgonia.Mul(wn, xn))
	atoms := make([]AtomNodes, len(sizes))
	for k := range sizes {
		atoms[k] = AtomNodes{V: denseNode(g, fmt.Sprintf("V%d", k), v[k]), Mu: mus[k]}
	}
	loss, err := Loss{Forward: layers.Forward{GWB: layers.GWB{Solver: layers.DefaultPPA(), Layers: 2}}}.Build(g, atoms, z, obs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gorgonia.Grad(loss, wn); err != nil {
		t.Fatal(err)
	}
	m := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(wn))
	defer m.Close()
	adam := gorgonia.NewAdamSolver(gorgonia.WithLearnRate(0.05))
	var losses []float64
	for step := 0; step < 60; step++ {
		m.Reset()
		if err := m.RunAll(); err != nil {
			t.Fatal(err)
		}
		losses = append(losses, loss.Value().Data().(float64))
		if err := adam.Step(gorgonia.NodesToValueGrads(gorgonia.Nodes{wn})); err != nil {
			t.Fatal(err)
		}
	}
	lambda := make([]float64, 3)
	layers.Softmax(lambda, z.Value().Data().([]float64))
	if !(losses[len(losses)-1] < 0.5*losses[0]) || !(lambda[1] > lambda[0] && lambda[1] > lambda[2]) {
		t.Errorf("loss %v → %v, lambda %v: the outer model did not learn to pick atom 1", losses[0], losses[len(losses)-1], lambda)
	}
}
