package graphs

import (
	"fmt"
	"math"
	"slices"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// EdgeLabelCode is the non-zero code Graph.EdgeLabels stores for the integer edge label l:
// the same for the same label in every dataset and file (0, −1, 1, −2, … → 1, 2, 3, 4, …).
func EdgeLabelCode(l int) float64 {
	z := uint64(2 * l) // zigzag: l ≥ 0 → 2l, l < 0 → −2l − 1
	if l < 0 {
		z = uint64(-2*l - 1)
	}
	return float64(z + 1)
}

// HasEdgeLabels reports whether every graph of data carries edge labels (none is empty).
func HasEdgeLabels(data []*Graph) bool {
	for _, g := range data {
		if g.EdgeLabels == nil {
			return false
		}
	}
	return len(data) > 0
}

// setEdgeLabels builds g's EdgeLabels from entries (csr.Build: a later entry for a position
// replaces an earlier one), dropping those where A has no edge (a weight of zero), and checks
// them alone: the rest of g is valid already. label names the input in errors.
func (g *Graph) setEdgeLabels(label string, entries []csr.Entry) error {
	kept := entries[:0]
	for _, e := range entries {
		if g.A.At(e.Row, e.Col) != 0 {
			kept = append(kept, e)
		}
	}
	e, err := csr.Build(g.N(), kept)
	if err != nil {
		return invalidf(label, "edge labels: %v", err)
	}
	g.EdgeLabels = e
	if err := g.validateEdgeLabels(); err != nil {
		g.EdgeLabels = nil
		return invalidf(label, "%v", err)
	}
	return nil
}

// validateEdgeLabels checks that EdgeLabels, when set, has A's pattern and finite codes.
func (g *Graph) validateEdgeLabels() error {
	e := g.EdgeLabels
	if e == nil {
		return nil
	}
	if e.N() != g.A.N() || e.NNZ() != g.A.NNZ() {
		return fmt.Errorf("edge labels: %d labels on %d nodes for %d edges on %d nodes", e.NNZ(), e.N(), g.A.NNZ(), g.A.N())
	}
	for i := range g.A.N() {
		cols, _ := g.A.Row(i)
		lc, codes := e.Row(i)
		if !slices.Equal(cols, lc) {
			return fmt.Errorf("edge labels of node %d are not on its edges", i)
		}
		for _, c := range codes {
			if math.IsNaN(c) || math.IsInf(c, 0) {
				return fmt.Errorf("edge label code %v of node %d is not finite", c, i)
			}
		}
	}
	return nil
}

// keepEdgeLabels keeps the graphs' edge labels when keep is set and every graph has them
// (Encoding.EdgeLabels), else drops them: a model compares edge labels of all graphs or none.
// Where keep is set and only some graphs have them, LeftOut says so.
func (ds *Dataset) keepEdgeLabels(keep bool) {
	ds.Encoding.EdgeLabels = keep && HasEdgeLabels(ds.Graphs)
	if ds.Encoding.EdgeLabels {
		return
	}
	with, without := 0, ""
	for _, g := range ds.Graphs {
		if g.EdgeLabels != nil {
			with++
		} else if without == "" {
			without = g.Name
		}
	}
	switch {
	case keep && with > 0:
		ds.LeftOut = append(ds.LeftOut, fmt.Sprintf("edge labels left out: %d of the %d graphs have them, not %s (they are compared where every graph has them)", with, len(ds.Graphs), without))
	case !keep && with > 0 && with == len(ds.Graphs) && !slices.Contains(ds.Unread, "edge labels"):
		ds.Unread = append(ds.Unread, "edge labels") // every graph has them: the option would read them
	}
	for _, g := range ds.Graphs {
		g.EdgeLabels = nil
	}
}
