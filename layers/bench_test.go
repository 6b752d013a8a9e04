package layers

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// baSpace is a preferential-attachment-like random graph (sparse, like the benchmarks) with
// uniform mu; the layers package cannot import the graphs generators (data flows one way).
func baSpace(rng *rand.Rand, n int) Space {
	s := randomSpace(rng, n, 3/float64(n), 1, false, 0)
	for i := range s.Mu {
		s.Mu[i] = 1 / float64(n)
	}
	return s
}

// BenchmarkGWD: the three solvers at the paper's settings, and PPA's converged mode (--tol
// 1e-6), where the Sinkhorn sweeps, hundreds per layer, are the time.
func BenchmarkGWD(b *testing.B) {
	converged := DefaultPPA()
	converged.Tol = 1e-6
	for _, c := range []struct {
		name string
		s    Solver
	}{{"ppa", DefaultPPA()}, {"badmm", DefaultBADMM()}, {"cg", DefaultCG()}, {"ppa-tol", converged}} {
		s := c.s
		for _, n := range []int{20, 40, 100, 200} {
			b.Run(fmt.Sprintf("%s/N=%d", c.name, n), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, uint64(n)))
				src, dst := baSpace(rng, n), baSpace(rng, n)
				var st State
				b.ReportAllocs()
				for b.Loop() {
					if err := Solve(context.Background(), s, &st, src, dst); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEnvelopeLarge: the envelope loss and gradients of a sparse 2000-node graph (like
// REDDIT-BINARY's largest) with two 20-node atoms; the forward pass runs once, outside the loop.
func BenchmarkEnvelopeLarge(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := baSpace(rng, 2000)
	a, err := csr.FromDense(g.C)
	if err != nil {
		b.Fatal(err)
	}
	obs := Space{A: a, Mu: g.Mu}
	atoms := []Atom{{U: baSpace(rng, 20).C, Mu: baSpace(rng, 20).Mu}, {U: baSpace(rng, 20).C, Mu: baSpace(rng, 20).Mu}}
	lambda := []float64{0.5, 0.5}
	fwd := Forward{GWB: GWB{Solver: PPA{Gamma: 0.01, Layers: 2, Inner: 5, Weight: 1}, Layers: 1}}
	var st ForwardState
	if err := fwd.Run(context.Background(), &st, atoms, lambda, obs); err != nil {
		b.Fatal(err)
	}
	gU := []*mat.Dense{mat.NewDense(20, 20, nil), mat.NewDense(20, 20, nil)}
	gLambda := make([]float64, 2)
	b.ReportAllocs()
	for b.Loop() {
		st.Envelope(context.Background(), atoms, lambda, obs, 1, gU, nil, gLambda)
	}
}

// TestNoAllocationInSteadyState: with a reused state, GWD and the whole forward pass allocate
// nothing per call (only the first call sizes the workspace).
func TestNoAllocationInSteadyState(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	src, dst := baSpace(rng, 15), baSpace(rng, 12)
	tol := PPA{Gamma: 0.01, Layers: 50, Inner: 5, Weight: 1, Tol: 1e-9, MaxSweeps: 100, Round: true}
	badmmTol := BADMM{Gamma: 1, Layers: 50, Weight: 1, Tol: 1e-9, MaxSweeps: 100, Round: true}
	for _, s := range []Solver{DefaultPPA(), DefaultBADMM(), DefaultCG(), tol, badmmTol} {
		var st State
		if n := testing.AllocsPerRun(5, func() { _ = Solve(context.Background(), s, &st, src, dst) }); n > 0 {
			t.Errorf("%s: %v allocations per solve", s.Name(), n)
		}
	}
	atoms := []Atom{{U: baSpace(rng, 9).C, Mu: baSpace(rng, 9).Mu}, {U: baSpace(rng, 7).C, Mu: baSpace(rng, 7).Mu}}
	fwd := Forward{GWB: GWB{Solver: DefaultPPA(), Layers: 2}}
	var st ForwardState
	lambda := []float64{0.3, 0.7}
	if n := testing.AllocsPerRun(5, func() { _ = fwd.Run(context.Background(), &st, atoms, lambda, src) }); n > 0 {
		t.Errorf("forward: %v allocations per run", n)
	}
	// The same graphs stored sparse: written out dense into the states' buffers, not new ones.
	srcA, err := csr.FromDense(src.C)
	if err != nil {
		t.Fatal(err)
	}
	dstA, err := csr.FromDense(dst.C)
	if err != nil {
		t.Fatal(err)
	}
	sparseSrc, sparseDst := Space{A: srcA, Mu: src.Mu}, Space{A: dstA, Mu: dst.Mu}
	var sst State
	ppa := Solver(DefaultPPA())
	if n := testing.AllocsPerRun(5, func() { _ = Solve(context.Background(), ppa, &sst, sparseSrc, sparseDst) }); n > 0 {
		t.Errorf("sparse graphs: %v allocations per solve", n)
	}
	gU := []*mat.Dense{mat.NewDense(9, 9, nil), mat.NewDense(7, 7, nil)}
	gLambda := make([]float64, 2)
	if n := testing.AllocsPerRun(5, func() {
		_ = fwd.Run(context.Background(), &st, atoms, lambda, sparseSrc)
		st.Envelope(context.Background(), atoms, lambda, sparseSrc, 1, gU, nil, gLambda)
	}); n > 0 {
		t.Errorf("forward and envelope of a sparse graph: %v allocations per run", n)
	}
}

// BenchmarkGWDLogDomain: every PPA layer in the log domain (as with large FGW costs and a
// small γ, e.g. PROTEINS_full's attributes), N = 40.
func BenchmarkGWDLogDomain(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 40))
	src, dst := baSpace(rng, 40), baSpace(rng, 40)
	p := DefaultPPA()
	p.forceLog = true
	var st State
	for b.Loop() {
		if err := Solve(context.Background(), p, &st, src, dst); err != nil {
			b.Fatal(err)
		}
	}
}
