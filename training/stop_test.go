package training

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// countdown is a context that turns done at its n-th Err call and stays done: a stop at
// every point where the work checks its context, one run each.
type countdown struct {
	context.Context
	mu       sync.Mutex
	calls, n int
}

func newCountdown(n int) *countdown { return &countdown{Context: context.Background(), n: n} }

func (c *countdown) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.calls++; c.calls >= c.n {
		return context.Canceled
	}
	return nil
}

// TestStopAnywhereInFirstBatchAppliesNothing: wherever the context turns done inside the first
// batch (before a graph, inside a solver layer, between the atoms of the envelope's gradients),
// Fit stops with context.Canceled and changes nothing, also when non-finite graphs are skipped:
// the NaN loss of a stopped envelope is not taken for a graph to skip and the rest applied.
func TestStopAnywhereInFirstBatchAppliesNothing(t *testing.T) {
	data := mutag(t, 4)
	cfg := smallConfig()
	cfg.Atoms, cfg.Layers, cfg.GWBLayers, cfg.Epochs, cfg.Batch = 2, 3, 1, 1, 2
	probe := newCountdown(math.MaxInt)
	m, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checks := 0 // the context checks of the first batch
	if err := Fit(probe, m, graphs.Slice(data), Options{Workers: 1, Observe: func(e Event) {
		if checks == 0 {
			checks = probe.calls
		}
	}}); err != nil || checks == 0 {
		t.Fatalf("unstopped run: %v, %d checks in its first batch", err, checks)
	}
	for _, skip := range []bool{false, true} {
		for n := 1; n <= checks; n++ {
			m, err := NewModel(graphs.Slice(data), cfg)
			if err != nil {
				t.Fatal(err)
			}
			v0 := mat.DenseCopyOf(m.V[0])
			err = Fit(newCountdown(n), m, graphs.Slice(data), Options{Workers: 1, SkipNonFinite: skip})
			if !errors.Is(err, context.Canceled) || m.Partial != nil || len(m.History) != 0 || !mat.Equal(m.V[0], v0) {
				t.Fatalf("skip %v, stopped at check %d of %d: err %v, partial %+v, %d epochs, atom 0 changed: %v",
					skip, n, checks, err, m.Partial, len(m.History), !mat.Equal(m.V[0], v0))
			}
		}
	}
}
