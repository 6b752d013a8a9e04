package emd

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// randomProblem draws costs in [0, 1) (some tied when ties is set) and random marginals of
// mass 1.
func randomProblem(rng *rand.Rand, ns, nt int, ties bool) (c, a, b []float64) {
	c = make([]float64, ns*nt)
	for k := range c {
		c[k] = rng.Float64()
		if ties {
			c[k] = float64(rng.IntN(3))
		}
	}
	return c, simplexPoint(rng, ns), simplexPoint(rng, nt)
}

func simplexPoint(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	s := 0.0
	for i := range v {
		v[i] = 0.1 + rng.Float64()
		s += v[i]
	}
	for i := range v {
		v[i] /= s
	}
	return v
}

// lpOptimum solves the same problem with gonum's dense simplex: equality constraints for
// every row and every column but the last (the last is implied by equal masses).
func lpOptimum(t *testing.T, c, a, b []float64) float64 {
	ns, nt := len(a), len(b)
	rows := ns + nt - 1
	A := mat.NewDense(rows, ns*nt, nil)
	rhs := make([]float64, rows)
	for i := 0; i < ns; i++ {
		for j := 0; j < nt; j++ {
			A.Set(i, i*nt+j, 1)
		}
		rhs[i] = a[i]
	}
	for j := 0; j < nt-1; j++ {
		for i := 0; i < ns; i++ {
			A.Set(ns+j, i*nt+j, 1)
		}
		rhs[ns+j] = b[j]
	}
	opt, _, err := lp.Simplex(c, A, rhs, 1e-12, nil)
	if err != nil {
		t.Fatalf("lp.Simplex: %v", err)
	}
	return opt
}

func checkFeasible(t *testing.T, x, a, b []float64, tol float64) {
	t.Helper()
	nt := len(b)
	cols := make([]float64, nt)
	for i, ai := range a {
		s := 0.0
		for j, v := range x[i*nt : (i+1)*nt] {
			if v < 0 {
				t.Fatalf("x[%d][%d] = %v < 0", i, j, v)
			}
			s += v
			cols[j] += v
		}
		if math.Abs(s-ai) > tol {
			t.Fatalf("row %d sums to %v, want %v", i, s, ai)
		}
	}
	for j, bj := range b {
		if math.Abs(cols[j]-bj) > tol {
			t.Fatalf("column %d sums to %v, want %v", j, cols[j], bj)
		}
	}
}

func TestMatchesLP(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var w Workspace
	for trial := 0; trial < 60; trial++ {
		ns, nt := 1+rng.IntN(7), 1+rng.IntN(7)
		c, a, b := randomProblem(rng, ns, nt, trial%3 == 0)
		x := make([]float64, ns*nt)
		got, err := w.Solve(context.Background(), x, c, a, b)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		checkFeasible(t, x, a, b, 1e-12)
		want := lpOptimum(t, c, a, b)
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("trial %d (%d×%d): network simplex %v, LP %v", trial, ns, nt, got, want)
		}
	}
}

// TestPermutation: with uniform marginals on n nodes and the cost |π(i) − j|, the unique
// optimum is the permutation π with cost 0; with a random cost matrix it is the assignment
// found by brute force.
func TestPermutation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var w Workspace
	for _, n := range []int{2, 5, 30, 120} {
		perm := rng.Perm(n)
		c := make([]float64, n*n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				c[i*n+j] = math.Abs(float64(perm[i] - j))
			}
		}
		u := make([]float64, n)
		for i := range u {
			u[i] = 1 / float64(n)
		}
		x := make([]float64, n*n)
		obj, err := w.Solve(context.Background(), x, c, u, u)
		if err != nil || obj > 1e-15 {
			t.Fatalf("n = %d: objective %v, err %v", n, obj, err)
		}
		for i := 0; i < n; i++ {
			if math.Abs(x[i*n+perm[i]]-u[i]) > 1e-15 {
				t.Fatalf("n = %d: row %d does not follow the permutation", n, i)
			}
		}
	}
	for trial := 0; trial < 20; trial++ {
		n := 2 + rng.IntN(5)
		c, _, _ := randomProblem(rng, n, n, false)
		u := make([]float64, n)
		for i := range u {
			u[i] = 1 / float64(n)
		}
		best := math.Inf(1)
		permutations(n, func(p []int) {
			s := 0.0
			for i, j := range p {
				s += c[i*n+j] / float64(n)
			}
			best = math.Min(best, s)
		})
		x := make([]float64, n*n)
		got, err := w.Solve(context.Background(), x, c, u, u)
		if err != nil || math.Abs(got-best) > 1e-12 {
			t.Errorf("n = %d: %v (err %v), brute force %v", n, got, err, best)
		}
	}
}

func permutations(n int, f func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(p)
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}

// TestLarge checks feasibility, optimality (no negative reduced cost) and that the dual
// objective equals the primal one on problems too large for the dense LP.
func TestLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var w Workspace
	for _, n := range []int{60, 200} {
		c, a, b := randomProblem(rng, n, n+7, false)
		x := make([]float64, len(c))
		obj, err := w.Solve(context.Background(), x, c, a, b)
		if err != nil {
			t.Fatal(err)
		}
		checkFeasible(t, x, a, b, 1e-12)
		dual := 0.0
		for i := range a {
			dual += w.pot[i] * a[i]
		}
		for j := range b {
			dual += w.pot[n+j] * b[j]
		}
		if math.Abs(dual-obj) > 1e-10 {
			t.Errorf("n = %d: primal %v, dual %v", n, obj, dual)
		}
		for i := range a {
			for j := range b {
				if rc := c[i*(n+7)+j] - w.pot[i] - w.pot[n+j]; rc < -1e-10 {
					t.Fatalf("n = %d: reduced cost %v < 0 at (%d,%d)", n, rc, i, j)
				}
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	var w Workspace
	x := make([]float64, 4)
	for name, p := range map[string][3][]float64{
		"empty":    {nil, nil, nil},
		"size":     {{1, 2, 3}, {0.5, 0.5}, {0.5, 0.5}},
		"nan cost": {{math.NaN(), 0, 0, 0}, {0.5, 0.5}, {0.5, 0.5}},
		"negative": {{0, 0, 0, 0}, {-0.5, 1.5}, {0.5, 0.5}},
		"mass":     {{0, 0, 0, 0}, {0.5, 0.6}, {0.5, 0.5}},
	} {
		if _, err := w.Solve(context.Background(), x, p[0], p[1], p[2]); !errors.Is(err, ErrInput) {
			t.Errorf("%s: err = %v, want ErrInput", name, err)
		}
	}
}

func TestNoAllocation(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	c, a, b := randomProblem(rng, 40, 30, false)
	x := make([]float64, len(c))
	var w Workspace
	if _, err := w.Solve(context.Background(), x, c, a, b); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(5, func() { _, _ = w.Solve(context.Background(), x, c, a, b) }); n != 0 {
		t.Errorf("%v allocations per solve", n)
	}
}

func BenchmarkSolve(b *testing.B) {
	for _, n := range []int{100, 500} {
		rng := rand.New(rand.NewPCG(9, uint64(n)))
		c, ma, mb := randomProblem(rng, n, n, false)
		x := make([]float64, len(c))
		var w Workspace
		b.Run("N="+itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := w.Solve(context.Background(), x, c, ma, mb); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(w.Pivots), "pivots")
		})
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestZeroMass: sources or sinks without mass (degenerate bases) still give the LP optimum,
// also when warm-started from the previous basis with new costs.
func TestZeroMass(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var w Workspace
	for trial := 0; trial < 30; trial++ {
		ns, nt := 2+rng.IntN(6), 2+rng.IntN(6)
		c, a, b := randomProblem(rng, ns, nt, trial%2 == 0)
		a[rng.IntN(ns)] = 0
		b[rng.IntN(nt)] = 0
		sa, sb := 0.0, 0.0
		for _, v := range a {
			sa += v
		}
		for _, v := range b {
			sb += v
		}
		for j := range b {
			b[j] *= sa / sb
		}
		x := make([]float64, ns*nt)
		w.Warm = false
		for round := 0; round < 2; round++ {
			got, err := w.Solve(context.Background(), x, c, a, b)
			if err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			checkFeasible(t, x, a, b, 1e-12)
			if want := lpOptimum(t, c, a, b); math.Abs(got-want) > 1e-9 {
				t.Errorf("trial %d round %d: %v, LP %v", trial, round, got, want)
			}
			w.Warm = true // the next round: same marginals, new costs
			for k := range c {
				c[k] = rng.Float64()
			}
		}
	}
}

// TestSolveStopsOnContext: a done context stops a solve that needs thousands of pivots after
// ctxPivots of them, with an error wrapping the context's and a feasible plan; the next solve
// with a live context is optimal again.
func TestSolveStopsOnContext(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	c, a, b := randomProblem(rng, 300, 300, false)
	x := make([]float64, len(c))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var w Workspace
	_, err := w.Solve(ctx, x, c, a, b)
	if !errors.Is(err, context.Canceled) || w.Pivots != ctxPivots-1 {
		t.Fatalf("done context: err %v after %d pivots, want context.Canceled after %d", err, w.Pivots, ctxPivots-1)
	}
	checkFeasible(t, x, a, b, 1e-12)
	w.Warm = true // the basis of a stopped solve is not reused
	if _, err := w.Solve(context.Background(), x, c, a, b); err != nil || w.Pivots < ctxPivots {
		t.Fatalf("live context: err %v after %d pivots, want the whole solve", err, w.Pivots)
	}
}
