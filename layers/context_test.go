package layers

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
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
		st := &State{Context: ctx}
		if err := Solve(s, st, a, b); !errors.Is(err, context.Canceled) || st.Layer != 0 {
			t.Errorf("%s: err %v after %d layers, want context.Canceled before the first", name, err, st.Layer)
		}
		st.Context = context.Background()
		if err := Solve(s, st, a, b); err != nil || st.Layer == 0 {
			t.Errorf("%s with a live context: err %v after %d layers", name, err, st.Layer)
		}
	}
	f := Forward{GWB: GWB{Solver: DefaultPPA(), Layers: 2}}
	atoms := []Atom{{U: a.C, Mu: a.Mu}, {U: b.C, Mu: b.Mu}}
	fs := &ForwardState{}
	fs.SetContext(ctx)
	if err := f.Run(fs, atoms, []float64{0.5, 0.5}, b); !errors.Is(err, context.Canceled) {
		t.Errorf("Forward.Run with a done context: %v", err)
	}
	fs.SetContext(context.Background())
	if err := f.Run(fs, atoms, []float64{0.5, 0.5}, b); err != nil {
		t.Errorf("Forward.Run with a live context: %v", err)
	}
}
