package layers

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestConvergedMode: with Tol, PPA's and BADMM's transports are feasible to the tolerance
// (PPA: every layer; BADMM: after its extra layers), also in the log domain; with Round they
// are feasible to rounding; at the paper's settings (Tol 0) they are not.
func TestConvergedMode(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 4))
	for trial := 0; trial < 4; trial++ {
		a := randomSpace(rng, 8+rng.IntN(20), 0.3, 1+float64(trial%3)*10, trial%2 == 1, 0)
		b := randomSpace(rng, 8+rng.IntN(20), 0.3, 1, false, 0)
		paper, err := Discrepancy(DefaultPPA(), a, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			s    Solver
			tol  float64
		}{
			{"ppa", PPA{Gamma: 0.01, Layers: 50, Inner: 5, Weight: 1, Tol: 1e-9, MaxSweeps: 3000}, 1e-9},
			{"ppa log", PPA{Gamma: 0.01, Layers: 20, Inner: 5, Weight: 1, Tol: 1e-9, MaxSweeps: 3000, forceLog: true}, 1e-9},
			{"ppa rounded", PPA{Gamma: 0.01, Layers: 50, Inner: 5, Weight: 1, Tol: 1e-6, Round: true}, 1e-15},
			{"ppa paper rounded", PPA{Gamma: 0.01, Layers: 50, Inner: 5, Weight: 1, Round: true}, 1e-15},
			{"badmm", BADMM{Gamma: 1, Layers: 50, Weight: 1, Tol: 1e-9}, 1e-9},
			{"badmm rounded", BADMM{Gamma: 1, Layers: 50, Weight: 1, Round: true}, 1e-15},
		} {
			r, err := Discrepancy(c.s, a, b)
			if err != nil {
				t.Fatalf("trial %d %s: %v", trial, c.name, err)
			}
			if r.SweepCapHits > 0 {
				// Early layers may stop at the cap; the last ones, near a fixed point, do not.
				t.Logf("trial %d %s: %d layers hit the sweep cap; marginal error %v", trial, c.name, r.SweepCapHits, r.MarginalError)
			}
			// Without rounding, a layer that hit the cap may leave the error above tol: it is
			// reported, not hidden.
			capped := r.SweepCapHits > 0 && c.tol > 1e-15
			if (r.MarginalError > c.tol && !capped) || math.IsNaN(r.Objective) || r.Objective < -1e-12 {
				t.Errorf("trial %d %s: marginal error %v (tol %v), objective %v", trial, c.name, r.MarginalError, c.tol, r.Objective)
			}
		}
		if paper.MarginalError < 1e-6 {
			t.Logf("trial %d: the paper's PPA is feasible to %v here", trial, paper.MarginalError)
		}
	}
}

// TestSweepCap: a cap of 1 sweep is reported, not silently ignored.
func TestSweepCap(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 5))
	a, b := randomSpace(rng, 20, 0.3, 1, false, 0), randomSpace(rng, 25, 0.3, 1, false, 0)
	var st State
	if err := Solve(context.Background(), PPA{Gamma: 0.01, Layers: 10, Inner: 1, Weight: 1, Tol: 1e-12, MaxSweeps: 1}, &st, a, b); err != nil {
		t.Fatal(err)
	}
	if st.SweepCapHits == 0 || st.Sweeps != 10 {
		t.Errorf("%d cap hits, %d sweeps in 10 layers capped at 1 sweep", st.SweepCapHits, st.Sweeps)
	}
}

// TestRound: rounding a perturbed transport lands on Π(μs, μt) and moves it by at most twice
// its marginal error in ℓ1.
func TestRound(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 6))
	a, b := randomSpace(rng, 9, 0.3, 1, false, 0), randomSpace(rng, 13, 0.3, 1, false, 0)
	var st State
	if err := Solve(context.Background(), DefaultBADMM(), &st, a, b); err != nil {
		t.Fatal(err)
	}
	for k := range st.t {
		st.t[k] *= 0.5 + rng.Float64()
	}
	before := append([]float64(nil), st.t...)
	st.Round()
	if e := st.MarginalError(); e > 1e-15 {
		t.Errorf("marginal error %v after rounding", e)
	}
	moved := 0.0
	for k, v := range st.t {
		if v < 0 {
			t.Fatalf("negative entry %v", v)
		}
		moved += math.Abs(v - before[k])
	}
	st.t = before
	rowCol := 0.0 // ℓ1 marginal error of the perturbed transport
	ns, nt := st.Dims()
	for i := 0; i < ns; i++ {
		s := 0.0
		for j := 0; j < nt; j++ {
			s += before[i*nt+j]
		}
		rowCol += math.Abs(s - a.Mu[i])
	}
	for j := 0; j < nt; j++ {
		s := 0.0
		for i := 0; i < ns; i++ {
			s += before[i*nt+j]
		}
		rowCol += math.Abs(s - b.Mu[j])
	}
	if moved > 2*rowCol+1e-12 {
		t.Errorf("rounding moved the transport by %v, more than twice its marginal error %v", moved, rowCol)
	}
}

func TestRegistry(t *testing.T) {
	for _, name := range SolverNames() {
		o, err := DefaultSolverOptions(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSolver(o)
		if err != nil || s.Name() != string(name) {
			t.Fatalf("%s: %v, %v", name, s, err)
		}
	}
	if p, _ := DefaultSolverOptions("ppa"); p.Gamma != 0.01 || p.Layers != 50 || p.Inner != 5 {
		t.Errorf("ppa defaults %+v", p)
	}
	if b, _ := DefaultSolverOptions("badmm"); b.Gamma != 1 || b.Layers != 50 {
		t.Errorf("badmm defaults %+v", b)
	}
	s, _ := NewSolver(SolverOptions{Name: "ppa", Gamma: 0.01, Layers: 50, Inner: 5, FeatureWeight: 1})
	if s != DefaultPPA() {
		t.Errorf("registry's ppa %+v differs from DefaultPPA", s)
	}
	bad := func(edit func(*SolverOptions)) SolverOptions {
		o, _ := DefaultSolverOptions("ppa")
		edit(&o)
		return o
	}
	for name, o := range map[string]SolverOptions{
		"unknown":       {Name: "sinkhorn"},
		"huge layers":   bad(func(o *SolverOptions) { o.Layers = 1000000000 }),
		"zero layers":   bad(func(o *SolverOptions) { o.Layers = 0 }),
		"huge inner":    bad(func(o *SolverOptions) { o.Inner = MaxInner + 1 }),
		"gamma":         bad(func(o *SolverOptions) { o.Gamma = math.NaN() }),
		"tol":           bad(func(o *SolverOptions) { o.Tol = -1 }),
		"sweeps":        bad(func(o *SolverOptions) { o.MaxSweeps = MaxSweeps + 1 }),
		"weight":        bad(func(o *SolverOptions) { o.FeatureWeight = math.Inf(1) }),
		"cg iterations": {Name: "cg", Layers: MaxLayers + 1, FeatureWeight: 1},
	} {
		if err := o.Validate(); !errors.Is(err, ErrInput) {
			t.Errorf("%s: err = %v, want ErrInput", name, err)
		}
	}
}
