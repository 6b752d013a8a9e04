package semisup

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// WithWLLabels gives the graphs the template model's rows (the same function, so the two
// compare nodes alike), leaves data untouched, and refuses what it cannot label.
func TestWithWLLabels(t *testing.T) {
	g1, x := pathAndIsolated(t, "one")
	g2, _ := pathAndIsolated(t, "two")
	g1.F, g2.F = mat.NewDense(4, 2, slices.Clone(x)), mat.NewDense(4, 2, slices.Clone(x))
	data := []*graphs.Graph{g1, g2}

	same, err := WithWLLabels(data, 0)
	if err != nil || &same[0] != &data[0] {
		t.Fatalf("h = 0: %v, %v: want data itself", same, err)
	}
	out, err := WithWLLabels(data, 2)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := g1.F.Dims(); r != 4 || c != 2 || !slices.Equal(g1.F.RawMatrix().Data, x) {
		t.Fatalf("the input's features changed: %v", mat.Formatted(g1.F))
	}
	// Iteration 1: (a; b), (b; a a), (b; none); iteration 2: the path's ends, its middle, the
	// isolated node. Both graphs have them all: 2 + 3 + 3 columns.
	if n, d := out[0].F.Dims(); n != 4 || d != 8 {
		t.Fatalf("features %d×%d, want 4×8", n, d)
	}
	if out[0].A != g1.A || out[0].Name != "one" {
		t.Error("the copy does not keep the graph's structure and name")
	}
	s := 1 / math.Sqrt(3)
	for i := range 4 {
		row := out[0].F.RawRowView(i)
		ones := 0
		for c, v := range row {
			switch {
			case c < 2 && v != s*x[2*i+c]:
				t.Errorf("node %d: column %d = %g, want its label scaled (%g)", i, c, v, s*x[2*i+c])
			case v != 0 && v != s:
				t.Errorf("node %d: column %d = %g, want 0 or %g", i, c, v, s)
			case v == s:
				ones++
			}
		}
		if ones != 3 {
			t.Errorf("node %d: %d columns set, want 3 (its label, one per iteration): %v", i, ones, row)
		}
	}
	// The path's two ends match in every block; an end and the middle only in none.
	dist := func(i, j int) float64 {
		d := 0.0
		for c, v := range out[0].F.RawRowView(i) {
			d += (v - out[0].F.At(j, c)) * (v - out[0].F.At(j, c))
		}
		return d
	}
	if d := dist(0, 2); d != 0 {
		t.Errorf("the path's ends are %g apart, want 0", d)
	}
	if d := dist(0, 1); math.Abs(d-2) > 1e-12 {
		t.Errorf("an end and the middle are %g apart, want 2 (every block differs)", d)
	}
	if !mat.Equal(out[0].F, out[1].F) {
		t.Error("two copies of one graph read differently")
	}

	attr := *g1
	attr.F = mat.NewDense(4, 2, []float64{0.5, 1, 0, 1, 1, 0, 0, 1})
	bare := *g1
	bare.F = nil
	for _, c := range []struct {
		data []*graphs.Graph
		h    int
		want string
	}{
		{data, -1, "iterations"},
		{data, graphs.MaxWLIterations + 1, "iterations"},
		{[]*graphs.Graph{g1, &attr}, 2, "categorical"},
		{[]*graphs.Graph{&bare}, 2, "no node features"},
	} {
		if _, err := WithWLLabels(c.data, c.h); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("h = %d: %v, want an error about %s", c.h, err, c.want)
		}
	}
}
