package training

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/csr"
)

// poisoned returns n MUTAG graphs where graph bad has edge weights of 1e200: finite, so the data
// checks accept it, but its squared weights overflow and its loss is not finite.
func poisoned(t *testing.T, n, bad int) []*graphs.Graph {
	data := mutag(t, n)
	g := *data[bad]
	c := g.Dense()
	c.Scale(1e200, c)
	a, err := csr.FromDense(c)
	if err != nil {
		t.Fatal(err)
	}
	g.A = a
	data[bad] = &g
	return data
}

func finiteModel(m *Model) bool {
	ok := finite(m.Z.RawMatrix().Data)
	for _, v := range m.V {
		ok = ok && finite(v.RawMatrix().Data)
	}
	return ok
}

// TestNonFiniteStops: a graph whose loss or gradients are not finite (or whose solver fails
// numerically) stops training with an error naming the graph, the epoch and the batch, before
// any step uses it.
func TestNonFiniteStops(t *testing.T) {
	data := poisoned(t, 12, 4)
	cfg := smallConfig()
	cfg.AtomSize = 5 // random atoms: a warm start could copy the poisoned graph into an atom
	m, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	err = Fit(context.Background(), m, graphs.Slice(data), Options{})
	if err == nil || !errors.Is(err, layers.ErrNumerical) || !strings.Contains(err.Error(), data[4].Name) || !strings.Contains(err.Error(), "epoch 1, batch") {
		t.Errorf("error %v, want a numerical one naming graph %q, the epoch and the batch", err, data[4].Name)
	}
	if !finiteModel(m) {
		t.Errorf("the model holds non-finite values")
	}
}

// TestNonFiniteSkipped: with SkipNonFinite the graph is left out of its batch with a warning,
// its embedding is not stepped, and training completes with a finite model.
func TestNonFiniteSkipped(t *testing.T) {
	data := poisoned(t, 12, 4)
	cfg := smallConfig()
	cfg.AtomSize = 5
	m, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	z0 := mat.DenseCopyOf(m.Z)
	var warnings []string
	err = Fit(context.Background(), m, graphs.Slice(data), Options{
		SkipNonFinite: true, Observe: func(e Event) {
			if e.Warning {
				warnings = append(warnings, e.Message)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(m.Z.RowView(4), z0.RowView(4)) {
		t.Error("the skipped graph's embedding was stepped")
	}
	if len(warnings) != cfg.Epochs || !strings.Contains(warnings[0], data[4].Name) {
		t.Errorf("warnings %q, want one per epoch naming %q", warnings, data[4].Name)
	}
	if !finiteModel(m) || len(m.History) != m.Config.Epochs {
		t.Error("training did not complete with a finite model")
	}
}

// nanTerm is a term whose value is NaN on every batch.
type nanTerm struct{ w *tensor.Dense }

func (n nanTerm) Params() []*tensor.Dense { return []*tensor.Dense{n.w} }
func (n nanTerm) Build(g *gorgonia.ExprGraph, z *gorgonia.Node, p gorgonia.Nodes, _ []int) (*gorgonia.Node, error) {
	s, err := gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(z, z)))
	if err != nil {
		return nil, err
	}
	return gorgonia.Mul(s, gorgonia.Must(gorgonia.Sum(p[0])))
}

// TestNonFiniteTermStops: an extra term whose value is not finite stops training before any
// step, with an error naming the epoch and batch.
func TestNonFiniteTermStops(t *testing.T) {
	data := mutag(t, 12)
	m, err := NewModel(graphs.Slice(data), smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	v0 := mat.DenseCopyOf(m.V[0])
	w := tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{math.NaN(), 1}))
	err = Fit(context.Background(), m, graphs.Slice(data), Options{Terms: []Term{nanTerm{w}}})
	if err == nil || !errors.Is(err, layers.ErrNumerical) || !strings.Contains(err.Error(), "epoch 1, batch 1") {
		t.Errorf("error %v, want a numerical one in epoch 1, batch 1", err)
	}
	if !mat.Equal(m.V[0], v0) {
		t.Error("an atom was stepped")
	}
}
