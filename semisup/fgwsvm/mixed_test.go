package fgwsvm

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// mixedFeatures gives each graph of data two attribute columns (noise) and then a one-hot
// node label of three values whose mix depends on the class: the class is in the labels.
func mixedFeatures(data []*graphs.Graph, labels []int) {
	for i, g := range data {
		f := mat.NewDense(g.N(), 5, nil)
		for v := range g.N() {
			f.Set(v, 0, math.Sin(float64(7*i+v)))
			f.Set(v, 1, math.Cos(float64(3*i+2*v)))
			f.Set(v, 2+(v+labels[i])%3*min(v%2, 1), 1)
		}
		g.F = f
	}
}

// TestMixedCandidates: on attributes followed by one-hot labels the candidates compare the
// attributes alone, both (the labels scaled to the attributes' spread) and the labels' WL
// labels; each part is what it says.
func TestMixedCandidates(t *testing.T) {
	data, labels := threeClasses(t, 4, false)
	mixedFeatures(data, labels)
	cands, err := MixedCandidates(data, graphs.Adjacency, 2, graphs.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 20 {
		t.Fatalf("%d candidates, want 4 × 5", len(cands))
	}
	for k, want := range []struct {
		part string
		wl   int
	}{{PartAttributes, 0}, {"", 0}, {PartLabels, 2}, {PartLabels, 4}} {
		for _, c := range cands[5*k : 5*k+5] {
			if c.Part != want.part || c.WL != want.wl || c.Attributes != 2 || c.check() != nil {
				t.Fatalf("candidate %v (%+v), want part %q with %d WL iterations", c, c, want.part, want.wl)
			}
		}
	}
	// The scale gives the labels the attributes' spread.
	both := cands[5]
	scaled, err := both.part(data)
	if err != nil {
		t.Fatal(err)
	}
	a := columnVariance(scaled, 0) + columnVariance(scaled, 1)
	l := columnVariance(scaled, 2) + columnVariance(scaled, 3) + columnVariance(scaled, 4)
	if math.Abs(a-l) > 1e-9*a || both.LabelScale == 1 {
		t.Errorf("spreads %v (attributes) and %v (scaled labels, scale %v)", a, l, both.LabelScale)
	}
	if data[0].F.At(0, 2)+data[0].F.At(0, 3)+data[0].F.At(0, 4) != 1 {
		t.Error("the candidate changed the data's features")
	}
	for _, c := range []Candidate{cands[0], cands[10]} {
		got, err := c.apply(data, graphs.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]int{PartAttributes: 2, PartLabels: c.WL + 1}[c.Part]; got[0].Dim() != want { // WL: a code per iteration
			t.Errorf("%v: %d feature columns, want %d", c, got[0].Dim(), want)
		}
	}
	// The discrepancies of each candidate are finite.
	ds, err := Distances(context.Background(), data[:4], []Candidate{cands[0], cands[7], cands[12]}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		for i := range 4 {
			for j := range 4 {
				if v := d.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					t.Fatalf("discrepancy %v", v)
				}
			}
		}
	}
	// Graphs narrower than the attributes and labels the candidate expects are an error.
	if _, err := (Candidate{Structure: graphs.Adjacency, Attributes: 5}).apply(data, graphs.Limits{}); err == nil {
		t.Error("a candidate of 5 attribute columns applied to 5 columns in all")
	}
}

// TestMixedCandidateChecks: a model file's candidate with an unknown part, a part without
// attribute columns or a negative scale is refused.
func TestMixedCandidateChecks(t *testing.T) {
	for _, c := range []Candidate{
		{Structure: graphs.Adjacency, Attributes: 2, Part: "edges"},
		{Structure: graphs.Adjacency, Part: PartLabels},
		{Structure: graphs.Adjacency, Attributes: 2, LabelScale: -1},
		{Structure: graphs.Adjacency, Attributes: -1},
	} {
		if err := c.check(); err == nil {
			b, _ := json.Marshal(c)
			t.Errorf("candidate %s accepted", b)
		}
	}
}
