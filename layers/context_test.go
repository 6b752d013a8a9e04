package layers

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSolveStopsOnContext: a done context stops Solve before its next layer, with the
// context's error, for every solver and through Forward.Run.
func TestSolveStopsOnContext(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	a := randomSpace(rng, 9, 0.4, 1, false, 0)
	b := randomSpace(rng, 7, 0.4, 1, false, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range SolverNames() {
		opt, err := DefaultSolverOptions(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSolver(opt)
		if err != nil {
			t.Fatal(err)
		}
		st := &State{}
		if err := Solve(ctx, s, st, a, b); !errors.Is(err, context.Canceled) || st.Layer != 0 {
			t.Errorf("%s: err %v after %d layers, want context.Canceled before the first", name, err, st.Layer)
		}
		if err := Solve(context.Background(), s, st, a, b); err != nil || st.Layer == 0 {
			t.Errorf("%s with a live context: err %v after %d layers", name, err, st.Layer)
		}
	}
	f := Forward{GWB: GWB{Solver: DefaultPPA(), Layers: 2}}
	atoms := []Atom{{U: a.C, Mu: a.Mu}, {U: b.C, Mu: b.Mu}}
	fs := &ForwardState{}
	if err := f.Run(ctx, fs, atoms, []float64{0.5, 0.5}, b); !errors.Is(err, context.Canceled) {
		t.Errorf("Forward.Run with a done context: %v", err)
	}
	if err := f.Run(context.Background(), fs, atoms, []float64{0.5, 0.5}, b); err != nil {
		t.Errorf("Forward.Run with a live context: %v", err)
	}
}

// startedContext calls started at its first Err call: Solve's check before the first layer,
// so that a cancel scheduled there lands inside a layer.
type startedContext struct {
	context.Context
	once    sync.Once
	started func()
}

func (c *startedContext) Err() error {
	c.once.Do(c.started)
	return c.Context.Err()
}

// TestSolveStopsInsideALayer: a context cancelled while a layer runs stops the solve within
// that layer, well within 2 s, in the loops that run for seconds on large graphs: CG's network
// simplex (a 1,200-node pair, whose first iteration takes seconds), PPA's converged-mode sweeps
// and BADMM's final projection (10,000 sweeps each, their tolerance out of reach).
func TestSolveStopsInsideALayer(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a 1,200-node pair")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	bigA, bigB := randomSpace(rng, 1200, 0.3, 1, false, 0), randomSpace(rng, 1200, 0.3, 1, false, 0)
	a, b := randomSpace(rng, 300, 0.3, 1, false, 0), randomSpace(rng, 300, 0.3, 1, false, 0)
	ppa := DefaultPPA()
	ppa.Tol = 1e-300
	badmm := BADMM{Gamma: 1, Layers: 1, Weight: 1, Tol: 1e-300}
	for _, c := range []struct {
		name   string
		s      Solver
		a, b   Space
		layers int    // the layers done when the cancel lands
		where  string // what the error names
	}{
		{"cg", DefaultCG(), bigA, bigB, 0, "emd: stopped after"},
		{"ppa", ppa, a, b, 0, "sweeps"},
		{"badmm", badmm, a, b, 1, "projection"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		var cancelled atomic.Int64
		started := &startedContext{Context: ctx, started: func() {
			time.AfterFunc(100*time.Millisecond, func() {
				cancelled.Store(time.Now().UnixNano())
				cancel()
			})
		}}
		st := &State{}
		err := Solve(started, c.s, st, c.a, c.b)
		late := time.Duration(time.Now().UnixNano() - cancelled.Load())
		cancel()
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), c.where) || st.Layer != c.layers {
			t.Errorf("%s: err %v after %d layers, want context.Canceled naming %q after %d", c.name, err, st.Layer, c.where, c.layers)
		} else if late > 2*time.Second {
			t.Errorf("%s: returned %v after the cancel", c.name, late.Round(time.Millisecond))
		}
	}
}

// TestAnchoredStartStops: a done context stops the greedy matching of an anchored start (seconds
// on 1,500-node graphs) with the context's error.
func TestAnchoredStartStops(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	a, b := randomSpace(rng, 200, 0.1, 1, false, 0), randomSpace(rng, 200, 0.1, 1, false, 0)
	ctx, cancel := context.WithCancel(context.Background())
	st := &State{}
	if err := DefaultCG().Init(st, a, b); err != nil {
		t.Fatal(err)
	}
	for k := range 2 {
		if err := anchoredCoupling(ctx, st, k); err != nil {
			t.Fatalf("start %d with a live context: %v", k, err)
		}
	}
	cancel()
	for k := range 2 {
		if err := anchoredCoupling(ctx, st, k); !errors.Is(err, context.Canceled) {
			t.Errorf("start %d with a done context: %v", k, err)
		}
	}
}

// TestEnvelopeStopsOnContext: once its context is done, Envelope stops before the next atom's
// gradients (a minute on a 1,500-node graph with 30 atoms of its size) with a NaN loss, and
// Stopped says why; with a live context it runs to the end.
func TestEnvelopeStopsOnContext(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	v, _, mus, z := randomModel(rng, []int{4, 6, 5}, 0)
	atoms := atomsOf(v, nil, mus)
	obs := randomSpace(rng, 7, 0.4, 1, false, 0)
	lambda := make([]float64, len(z))
	Softmax(lambda, z)
	f := Forward{GWB: GWB{Solver: DefaultPPA(), Layers: 2}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var st ForwardState
	if err := f.Run(ctx, &st, atoms, lambda, obs); err != nil {
		t.Fatal(err)
	}
	gLambda := make([]float64, len(atoms))
	if loss := st.Envelope(ctx, atoms, lambda, obs, 1, nil, nil, gLambda); math.IsNaN(loss) || st.Stopped() != nil {
		t.Fatalf("live context: loss %v, stopped: %v", loss, st.Stopped())
	}
	cancel()
	if loss := st.Envelope(ctx, atoms, lambda, obs, 1, nil, nil, gLambda); !math.IsNaN(loss) || !errors.Is(st.Stopped(), context.Canceled) {
		t.Fatalf("done context: loss %v, stopped: %v; want NaN and context.Canceled", loss, st.Stopped())
	}
	if loss := st.Envelope(context.Background(), atoms, lambda, obs, 1, nil, nil, gLambda); math.IsNaN(loss) || st.Stopped() != nil {
		t.Fatalf("live context again: loss %v, stopped: %v", loss, st.Stopped())
	}
}
