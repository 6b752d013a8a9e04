package fgwsvm

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/csr"
)

// setEdgeLabels gives every edge (u, v) of each graph the label of(u, v) (symmetric in use).
func setEdgeLabels(t *testing.T, data []*graphs.Graph, of func(g, u, v int) int) {
	t.Helper()
	for i, g := range data {
		e := mat.NewDense(g.N(), g.N(), nil)
		for u := range g.N() {
			cols, _ := g.A.Row(u)
			for _, v := range cols {
				e.Set(u, int(v), graphs.EdgeLabelCode(of(i, u, int(v))))
			}
		}
		var err error
		if g.EdgeLabels, err = csr.FromDense(e); err != nil {
			t.Fatal(err)
		}
		if err := g.Validate(); err != nil {
			t.Fatal(err)
		}
	}
}

// Graphs that all carry edge labels get the WL candidates refined with them too, the same
// weights beside those without; graphs without (or with some missing) do not.
func TestEdgeLabelCandidates(t *testing.T) {
	data, _ := threeClasses(t, 2, true)
	before, err := Candidates(data, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly})
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(before, func(c Candidate) bool { return c.EdgeLabels }) {
		t.Fatal("edge-label candidates on graphs without edge labels")
	}
	setEdgeLabels(t, data, func(_, u, v int) int { return (u + v) % 3 })
	after, err := Candidates(data, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly})
	if err != nil {
		t.Fatal(err)
	}
	var edges []Candidate
	for _, c := range after {
		if c.EdgeLabels {
			edges = append(edges, c)
			if c.WL == 0 || c.WithoutFeatures {
				t.Errorf("edge labels on %v", c)
			}
		}
	}
	// WL-2 and WL-4 at five weights, on each structure.
	if len(edges) != 20 || len(after) != len(before)+20 {
		t.Errorf("%d candidates with edge labels of %d (before %d), want 20 more", len(edges), len(after), len(before))
	}
	two := 2
	narrowed, err := Candidates(data, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly, WL: &two, Structure: graphs.Adjacency})
	if err != nil || len(narrowed) != 10 {
		t.Errorf("--wl 2 on adjacency: %d candidates (%v), want 5 without edge labels and 5 with", len(narrowed), err)
	}
	for _, c := range edges {
		if err := c.check(); err != nil {
			t.Errorf("%v: %v", c, err)
		}
	}
	if err := (Candidate{Structure: graphs.Adjacency, EdgeLabels: true, FeatureWeight: 1}).check(); err == nil {
		t.Error("edge labels without WL iterations accepted")
	}
	data[3].EdgeLabels = nil
	some, _ := Candidates(data, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly})
	if len(some) != len(before) {
		t.Errorf("one graph without edge labels: %d candidates, want %d", len(some), len(before))
	}
	if _, err := edges[0].apply(data, graphs.Limits{}); err == nil {
		t.Error("an edge-label candidate applied to a graph without edge labels")
	}
}

// Where only the bonds tell the classes apart (the same rings, one bond type against two
// alternating), the default candidates find it on the training graphs and predict unseen
// graphs right; the candidates without edge labels cannot.
func TestEdgeLabelsCarryTheClass(t *testing.T) {
	var data []*graphs.Graph
	var labels []int
	for i := range 24 {
		n := 6 + (i/2)%4*2 // even rings of 6 to 12 nodes, both classes at each size
		a := mat.NewDense(n, n, nil)
		for v := range n {
			a.Set(v, (v+1)%n, 1)
			a.Set((v+1)%n, v, 1)
		}
		f := mat.NewDense(n, 1, nil)
		f.Set(0, 0, 1) // one marked atom: categorical features
		g, err := graphs.New("ring", a, nil, f)
		if err != nil {
			t.Fatal(err)
		}
		data, labels = append(data, g), append(labels, i%2)
	}
	setEdgeLabels(t, data, func(g, u, v int) int {
		if labels[g] == 0 {
			return 1
		}
		return min(u, v) % 2 // two bond types along the ring
	})
	cands, err := Candidates(data, graphs.FeatureEncoding{}, Narrow{Structure: graphs.Adjacency})
	if err != nil {
		t.Fatal(err)
	}
	train, test := data[:16], data[16:]
	m, err := Train(context.Background(), train, labels[:16], 2, Settings{Candidates: cands, Grid: smallGrid(), Vote: 1}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Voters[0].Choice.Candidate.EdgeLabels {
		t.Errorf("chose %v, which ignores the bonds", m.Voters[0].Choice.Candidate)
	}
	got, err := m.Predict(context.Background(), test, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, labels[16:]) {
		t.Errorf("unseen rings predicted %v, want %v", got, labels[16:])
	}
}

// Unseen graphs with edge labels get the rows of the full matrix, through a saved file too.
func TestPredictEdgeLabelsOnTheSameFooting(t *testing.T) {
	data, labels := threeClasses(t, 10, true)
	setEdgeLabels(t, data, func(_, u, v int) int { return (u + v) % 3 })
	var cands []Candidate
	for _, c := range []Candidate{{Structure: graphs.Adjacency, WL: 2, EdgeLabels: true}, {Structure: graphs.ShortestPath, WL: 4, EdgeLabels: true}} {
		cs, err := weighted(data[:21], c, graphs.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		cands = append(cands, cs[1])
	}
	samePredictions(t, data, labels, cands)
}
