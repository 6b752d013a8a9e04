package training

import (
	"errors"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/tape"
)

// collidingTerm adds Σ(a − b) = −9 for a = (1, 2), b = (5, 7) to the loss. Its first collide
// builds name a and b so that their hashes collide — Gorgonia's TapeMachine would compute
// a − b = 0 — and later builds give them distinct names.
type collidingTerm struct{ builds, collide int }

func (c *collidingTerm) Params() []*tensor.Dense { return nil }

func (c *collidingTerm) Build(g *gorgonia.ExprGraph, _ *gorgonia.Node, _ gorgonia.Nodes, _ []int) (*gorgonia.Node, error) {
	c.builds++
	names := [2]string{"a", "b"}
	if c.builds <= c.collide {
		// Two names whose length-2 float64 inputs have the same Gorgonia hash (as in package tape).
		names = [2]string{"x1232789", "x1429192"}
	}
	a := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(2), gorgonia.WithName(names[0]),
		gorgonia.WithValue(tensor.New(tensor.WithBacking([]float64{1, 2}))))
	b := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(2), gorgonia.WithName(names[1]),
		gorgonia.WithValue(tensor.New(tensor.WithBacking([]float64{5, 7}))))
	d, err := gorgonia.Sub(a, b)
	if err != nil {
		return nil, err
	}
	return gorgonia.Sum(d)
}

// The trainer builds a batch graph again when two of its nodes collide, and so computes the
// term right; a collision that every build repeats is an error, not a wrong gradient.
func TestBatchGraphRebuiltOnHashCollision(t *testing.T) {
	data := mutag(t, 6)
	m, err := NewModel(graphs.Slice(data), smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	batch := []int{0, 1, 2}
	once := &collidingTerm{collide: 1}
	gr, err := BatchGradients(m, data, batch, Options{Terms: []Term{once}})
	if err != nil {
		t.Fatal(err)
	}
	if once.builds != 2 || gr.Terms[0] != -9 {
		t.Errorf("after %d builds the term is %v, want -9 after 2", once.builds, gr.Terms[0])
	}
	always := &collidingTerm{collide: tape.Attempts}
	if _, err := BatchGradients(m, data, batch, Options{Terms: []Term{always}}); !errors.Is(err, tape.ErrHashCollision) {
		t.Errorf("a collision in every build: %v, want tape.ErrHashCollision", err)
	}
	if always.builds != tape.Attempts {
		t.Errorf("%d builds, want %d", always.builds, tape.Attempts)
	}
}
