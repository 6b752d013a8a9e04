package semisup

import (
	"math"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/csr"
)

// On the path 0–1–2 plus an isolated node 3, with one-hot labels a, b, a, b, the rounds are
// the hand-computed neighbourhood means, side by side and scaled by 1/√(rounds+1).
func TestWLFeaturesByHand(t *testing.T) {
	a, err := csr.Build(4, []csr.Entry{{Row: 0, Col: 1, Val: 1}, {Row: 1, Col: 0, Val: 1}, {Row: 1, Col: 2, Val: 1}, {Row: 2, Col: 1, Val: 1}})
	if err != nil {
		t.Fatal(err)
	}
	g := &graphs.Graph{Name: "path", A: a, Mu: []float64{0.25, 0.25, 0.25, 0.25}}
	x := []float64{1, 0, 0, 1, 1, 0, 0, 1}
	if got := wlFeatures(g, x, 2, 0); &got[0] != &x[0] {
		t.Error("zero rounds copied the features")
	}
	// Round 1: node 0 = ½(a + b), node 1 = ½(b + a), node 2 = ½(a + b), node 3 = b.
	// Round 2: node 0 = ½(r1(0) + r1(1)) = (½, ½); node 1 = ½(r1(1) + mean(r1(0), r1(2))) = (½, ½).
	h := 0.5
	want := [][]float64{
		{1, 0, h, h, h, h},
		{0, 1, h, h, h, h},
		{1, 0, h, h, h, h},
		{0, 1, 0, 1, 0, 1},
	}
	got := wlFeatures(g, x, 2, 2)
	s := 1 / math.Sqrt(3)
	for i, row := range want {
		for c, w := range row {
			if v := got[i*6+c]; math.Abs(v-s*w) > 1e-15 {
				t.Errorf("node %d, column %d: %v, want %v", i, c, v, s*w)
			}
		}
	}
	if x[0] != 1 || x[3] != 1 {
		t.Error("the input features changed")
	}
}

// The rounds follow the nodes when they are relabelled, and a weighted edge pulls harder.
func TestWLFeaturesEquivariantAndWeighted(t *testing.T) {
	entries := []csr.Entry{{Row: 0, Col: 1, Val: 3}, {Row: 1, Col: 0, Val: 3}, {Row: 0, Col: 2, Val: 1}, {Row: 2, Col: 0, Val: 1}}
	a, err := csr.Build(3, entries)
	if err != nil {
		t.Fatal(err)
	}
	g := &graphs.Graph{Name: "w", A: a, Mu: []float64{1. / 3, 1. / 3, 1. / 3}}
	x := []float64{0, 4, 8}
	got := wlFeatures(g, x, 1, 1)
	s := 1 / math.Sqrt(2)
	// Node 0: ½(0 + (3·4 + 1·8)/4) = 2.5.
	if math.Abs(got[1]-s*2.5) > 1e-15 {
		t.Errorf("weighted mean: %v, want %v", got[1]/s, 2.5)
	}
	perm := []int{2, 0, 1} // node i becomes perm[i]
	var pe []csr.Entry
	for _, e := range entries {
		pe = append(pe, csr.Entry{Row: perm[e.Row], Col: perm[e.Col], Val: e.Val})
	}
	pa, err := csr.Build(3, pe)
	if err != nil {
		t.Fatal(err)
	}
	px := make([]float64, 3)
	for i, v := range x {
		px[perm[i]] = v
	}
	pgot := wlFeatures(&graphs.Graph{Name: "p", A: pa, Mu: g.Mu}, px, 1, 1)
	for i := range x {
		for c := 0; c < 2; c++ {
			if got[i*2+c] != pgot[perm[i]*2+c] {
				t.Errorf("node %d column %d: %v, relabelled %v", i, c, got[i*2+c], pgot[perm[i]*2+c])
			}
		}
	}
}
