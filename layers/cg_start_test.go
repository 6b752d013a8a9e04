package layers

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestCGOrderStart: the second start never ends higher than the product start alone, ends
// lower on some pairs of random graphs, and leaves a feasible transport.
func TestCGOrderStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 2))
	plain := DefaultCG()
	plain.MaxIter = 200
	both := plain
	both.OrderStart = true
	lower := 0
	for trial := range 40 {
		a := randomSpace(rng, 5+rng.IntN(8), 0.35, 1, false, 0)
		b := randomSpace(rng, 5+rng.IntN(8), 0.35, 1, trial%5 == 0, 0)
		_, f1, err := GWD(plain, a, b)
		if err != nil {
			t.Fatal(err)
		}
		tr, f2, err := GWD(both, a, b)
		if err != nil {
			t.Fatal(err)
		}
		if f2 > f1+1e-12*math.Max(1, f1) {
			t.Fatalf("trial %d: both starts %v, the product start alone %v", trial, f2, f1)
		}
		if f2 < f1*(1-1e-6) {
			lower++
		}
		if colErr := checkTransport(t, tr, a.Mu, b.Mu, 1e-12); colErr > 1e-12 {
			t.Fatalf("trial %d: column marginals off by %v", trial, colErr)
		}
	}
	if lower == 0 {
		t.Fatal("the ordered start never found a lower objective")
	}
	t.Logf("the ordered start is lower on %d of 40 pairs", lower)
}

// TestOrderedCoupling: the ordered start is a coupling of μs and μt that matches nodes of the
// same rank: equal masses and equal row sums in the same order give a permutation.
func TestOrderedCoupling(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for trial := range 20 {
		a := randomSpace(rng, 3+rng.IntN(9), 0.5, 1, false, 0)
		b := randomSpace(rng, 3+rng.IntN(9), 0.5, 1, false, 0)
		st := &State{}
		if err := (CG{MaxIter: 1, Weight: 1, OrderStart: true}).Init(st, a, b); err != nil {
			t.Fatal(err)
		}
		orderedCoupling(st)
		for i := range st.ns {
			s := 0.0
			for j := range st.nt {
				if st.t[i*st.nt+j] < 0 {
					t.Fatalf("trial %d: negative entry", trial)
				}
				s += st.t[i*st.nt+j]
			}
			if math.Abs(s-a.Mu[i]) > 1e-14 {
				t.Fatalf("trial %d: row %d sums to %v, want %v", trial, i, s, a.Mu[i])
			}
		}
		for j := range st.nt {
			s := 0.0
			for i := range st.ns {
				s += st.t[i*st.nt+j]
			}
			if math.Abs(s-b.Mu[j]) > 1e-14 {
				t.Fatalf("trial %d: column %d sums to %v, want %v", trial, j, s, b.Mu[j])
			}
		}
	}
	// A path against a relabelled copy (uniform masses): ends go to ends.
	p := relabelledPath([]int{0, 1, 2, 3})
	q := relabelledPath([]int{2, 0, 3, 1})
	st := &State{}
	if err := (CG{MaxIter: 1, Weight: 1}).Init(st, p, q); err != nil {
		t.Fatal(err)
	}
	orderedCoupling(st)
	// p's ends are 0 and 3, q's are 2 and 1 (degree 1, sorted first, ties in node order).
	if st.t[0*4+1] != 0.25 || st.t[3*4+2] != 0.25 {
		t.Fatalf("ends not matched: %v", st.t)
	}
}

// relabelledPath is the path whose k-th node is node perm[k], with uniform masses.
func relabelledPath(perm []int) Space {
	n := len(perm)
	c := mat.NewDense(n, n, nil)
	for k := 0; k+1 < n; k++ {
		c.Set(perm[k], perm[k+1], 1)
		c.Set(perm[k+1], perm[k], 1)
	}
	mu := make([]float64, n)
	for i := range mu {
		mu[i] = 1 / float64(n)
	}
	return Space{C: c, Mu: mu}
}

// TestCGOrderStartAllocs: with a reused State, the later starts (ordered, anchored) allocate
// nothing more than one start does (the Solver interface value of the call aside).
func TestCGOrderStartAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 5))
	a := randomSpace(rng, 12, 0.4, 1, false, 0)
	b := randomSpace(rng, 10, 0.4, 1, false, 0)
	var plain Solver = CG{MaxIter: 200, Weight: 1, TolRel: 1e-9, TolAbs: 1e-9}
	var both Solver = CG{MaxIter: 200, Weight: 1, TolRel: 1e-9, TolAbs: 1e-9, OrderStart: true}
	var anchored Solver = DefaultCG()
	st := &State{}
	for _, s := range []Solver{plain, both, anchored} {
		if err := Solve(context.Background(), s, st, a, b); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(5, func() { _ = Solve(context.Background(), s, st, a, b) }); n != 0 {
			t.Errorf("%+v: %v allocations per solve", s, n)
		}
	}
}
