package fgwsvm

import (
	"slices"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
)

// TestCandidatesNarrowed: the zero Narrow gives the default candidates; a structure, a
// weight or a number of WL iterations keeps only the candidates that have it; WL on
// continuous features is refused.
func TestCandidatesNarrowed(t *testing.T) {
	plain, _ := threeClasses(t, 2, false)
	all, err := Candidates(plain, graphs.FeatureEncoding{}, Narrow{})
	if err != nil {
		t.Fatal(err)
	}
	def, _ := DefaultCandidates(plain)
	if !slices.Equal(all, def) {
		t.Errorf("zero Narrow: %v, want the defaults %v", all, def)
	}
	two, zero := 2, 0
	labelled, _ := threeClasses(t, 2, true) // 0/1 features: categorical
	mixed, labels := threeClasses(t, 2, false)
	mixedFeatures(mixed, labels)
	both := graphs.FeatureEncoding{Kind: graphs.FeaturesBoth, Attributes: 2}
	for _, c := range []struct {
		what string
		data []*graphs.Graph
		enc  graphs.FeatureEncoding
		n    Narrow
		want int
		ok   func(Candidate) bool
	}{
		{"shortest paths", plain, graphs.FeatureEncoding{}, Narrow{Structure: graphs.ShortestPath}, 16,
			func(c Candidate) bool { return c.Structure == graphs.ShortestPath }},
		{"labels as they are", labelled, graphs.FeatureEncoding{}, Narrow{WL: &zero}, 10,
			func(c Candidate) bool { return c.WL == 0 }},
		{"one weight", labelled, graphs.FeatureEncoding{}, Narrow{FeatureWeight: 3}, 2,
			func(c Candidate) bool { return c.FeatureWeight == 3 }},
		{"mixed", mixed, both, Narrow{}, 40,
			func(c Candidate) bool { return c.Attributes == 2 }},
		{"mixed, WL 2", mixed, both, Narrow{WL: &two}, 10,
			func(c Candidate) bool { return c.Part == PartLabels && c.WL == 2 }},
		{"mixed, one weight", mixed, both, Narrow{FeatureWeight: 3}, 2,
			func(c Candidate) bool { return c.Part == "" && c.LabelScale > 0 && c.FeatureWeight == 3 }},
	} {
		cs, err := Candidates(c.data, c.enc, c.n)
		if err != nil || len(cs) != c.want {
			t.Errorf("%s: %d candidates (%v), want %d", c.what, len(cs), err, c.want)
			continue
		}
		for _, cand := range cs {
			if !c.ok(cand) {
				t.Errorf("%s: candidate %v", c.what, cand)
			}
		}
	}
	for _, g := range labelled {
		g.F.Set(0, 0, 0.5)
	}
	if _, err := Candidates(labelled, graphs.FeatureEncoding{}, Narrow{WL: &two}); err == nil {
		t.Error("WL labels of continuous features accepted")
	}
	if _, err := Candidates(plain, graphs.FeatureEncoding{}, Narrow{FeatureWeight: -1}); err == nil {
		t.Error("a negative feature weight accepted")
	}
}
