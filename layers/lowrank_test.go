package layers

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// TestLowRankSameAsDense: a graph much larger than the atoms (n = 150, three atoms of 6, 8 and
// 10 nodes, not symmetric) takes the factored barycenter products in the GWB's second layer and
// the final GWD, for PPA and BADMM; the barycenter, the transports and the envelope's loss and
// gradients agree with the dense products to rounding. CG keeps the dense products: bit for bit.
func TestLowRankSameAsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 150
	g := baSpace(rng, n)
	a, err := csr.FromDense(g.C)
	if err != nil {
		t.Fatal(err)
	}
	obs := Space{A: a, Mu: g.Mu}
	var atoms []Atom
	for _, nk := range []int{6, 8, 10} {
		s := randomSpace(rng, nk, 1, 1, true, 0) // directed: U_k ≠ U_kᵀ
		atoms = append(atoms, Atom{U: s.C, Mu: s.Mu})
	}
	if !useLowRank(n, 24) {
		t.Fatal("the test's sizes do not take the factored products")
	}
	lambda := []float64{0.2, 0.5, 0.3}
	for _, solver := range []Solver{DefaultPPA(), DefaultBADMM(), DefaultCG()} {
		run := func(dense bool) (float64, [][]float64) {
			var st ForwardState
			st.GWB.dense = dense
			f := Forward{GWB: GWB{Solver: solver, Layers: 2}}
			if err := f.Run(context.Background(), &st, atoms, lambda, obs); err != nil {
				t.Fatal(err)
			}
			if !dense && !st.GWB.lrOK {
				t.Fatal("the factored products were not used")
			}
			gU := []*mat.Dense{mat.NewDense(6, 6, nil), mat.NewDense(8, 8, nil), mat.NewDense(10, 10, nil)}
			gl := make([]float64, 3)
			loss := st.Envelope(context.Background(), atoms, lambda, obs, 1, gU, nil, gl)
			out := [][]float64{st.GWB.Barycenter().RawMatrix().Data, st.RawTransport(), gl}
			for k := range atoms {
				out = append(out, st.GWB.RawTransport(k), gU[k].RawMatrix().Data)
			}
			return loss, out
		}
		var st ForwardState
		f := Forward{GWB: GWB{Solver: solver, Layers: 2}}
		if n := testing.AllocsPerRun(3, func() { _ = f.Run(context.Background(), &st, atoms, lambda, obs) }); n > 0 {
			t.Errorf("%s: %v allocations per forward pass", solver.Name(), n)
		}
		lossD, outD := run(true)
		lossL, outL := run(false)
		tol := 1e-7
		if solver.Name() == "cg" {
			tol = 0
		}
		if math.Abs(lossD-lossL) > tol*math.Abs(lossD) {
			t.Errorf("%s: loss %v factored, %v dense", solver.Name(), lossL, lossD)
		}
		for i := range outD {
			if e := maxRelDiff(outL[i], outD[i]); e > tol {
				t.Errorf("%s: output %d differs by %.3g (relative to its largest entry)", solver.Name(), i, e)
			}
		}
	}
}

// maxRelDiff is max |a−b| over max |b|.
func maxRelDiff(a, b []float64) float64 {
	d, m := 0.0, 0.0
	for i := range b {
		d = math.Max(d, math.Abs(a[i]-b[i]))
		m = math.Max(m, math.Abs(b[i]))
	}
	if m == 0 {
		return d
	}
	return d / m
}

// TestEnvelopeSparseSameAsDense: a sparse graph of envelopeSparseMin nodes or more takes the
// envelope's compressed-row product T·(C·Tᵀ); its loss and gradients agree with the dense
// products' to rounding.
func TestEnvelopeSparseSameAsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	n := envelopeSparseMin + 30
	g := baSpace(rng, n)
	a, err := csr.FromDense(g.C)
	if err != nil {
		t.Fatal(err)
	}
	obs := Space{A: a, Mu: g.Mu}
	var atoms []Atom
	for _, nk := range []int{5, 7} {
		s := randomSpace(rng, nk, 1, 1, true, 0)
		atoms = append(atoms, Atom{U: s.C, Mu: s.Mu})
	}
	lambda := []float64{0.4, 0.6}
	run := func(dense bool) (float64, []float64) {
		var st ForwardState
		st.GWB.dense = dense
		f := Forward{GWB: GWB{Solver: PPA{Gamma: 0.01, Layers: 3, Inner: 5, Weight: 1}, Layers: 1}}
		if err := f.Run(context.Background(), &st, atoms, lambda, obs); err != nil {
			t.Fatal(err)
		}
		if !st.final.ct.sparse {
			t.Fatal("the graph is not multiplied sparse")
		}
		gU := []*mat.Dense{mat.NewDense(5, 5, nil), mat.NewDense(7, 7, nil)}
		gl := make([]float64, 2)
		loss := st.Envelope(context.Background(), atoms, lambda, obs, 1, gU, nil, gl)
		return loss, append(append(gl, gU[0].RawMatrix().Data...), gU[1].RawMatrix().Data...)
	}
	lossD, gD := run(true)
	lossS, gS := run(false)
	scale := 0.0
	for _, v := range gD {
		scale = math.Max(scale, math.Abs(v))
	}
	if math.Abs(lossS-lossD) > 1e-10*math.Abs(lossD) || math.IsNaN(lossS) {
		t.Errorf("loss %v, dense %v", lossS, lossD)
	}
	for i := range gD {
		if math.Abs(gS[i]-gD[i]) > 1e-9*scale {
			t.Fatalf("gradient %d: %v, dense %v", i, gS[i], gD[i])
		}
	}
}
