package fgwsvm

import (
	"slices"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"gonum.org/v1/gonum/mat"
)

// fgwOnly narrows candidates to the FGW kind, whose lists these tests count.
var fgwOnly = []Kind{KindFGW}

// TestCandidatesNarrowed: the zero Narrow of the FGW kind gives the default candidates; a structure, a
// weight or a number of WL iterations keeps only the candidates that have it; WL on
// continuous features is refused.
func TestCandidatesNarrowed(t *testing.T) {
	plain, _ := threeClasses(t, 2, false)
	all, err := Candidates(plain, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly})
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
		{"shortest paths", plain, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly, Structure: graphs.ShortestPath}, 16,
			func(c Candidate) bool { return c.Structure == graphs.ShortestPath }},
		{"labels as they are", labelled, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly, WL: &zero}, 10,
			func(c Candidate) bool { return c.WL == 0 }},
		{"one weight", labelled, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly, FeatureWeight: 3}, 2,
			func(c Candidate) bool { return c.FeatureWeight == 3 }},
		{"labels", labelled, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly}, 52, // 30 on the labels, 22 without
			func(c Candidate) bool {
				return c.Attributes == 0 && (!c.WithoutFeatures || c.WL != 0 || c.FeatureWeight == 1)
			}},
		{"mixed", mixed, both, Narrow{Kinds: fgwOnly}, 62, // 40 on the features, 22 without
			func(c Candidate) bool { return (c.Attributes == 2) != c.WithoutFeatures }},
		{"mixed, WL 2", mixed, both, Narrow{Kinds: fgwOnly, WL: &two}, 10,
			func(c Candidate) bool { return c.Part == PartLabels && c.WL == 2 }},
		{"mixed, one weight", mixed, both, Narrow{Kinds: fgwOnly, FeatureWeight: 3}, 2,
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
	if _, err := Candidates(labelled, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly, WL: &two}); err == nil {
		t.Error("WL labels of continuous features accepted")
	}
	if _, err := Candidates(plain, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly, FeatureWeight: -1}); err == nil {
		t.Error("a negative feature weight accepted")
	}
	// Limits too small for the dense shortest-path matrices leave shortest paths out, unless
	// they are asked for: then it is an error.
	small := graphs.Limits{MaxDenseBytes: 100}
	cs, err := Candidates(plain, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly, Limits: small})
	if err != nil || len(cs) != len(all)/2 || slices.ContainsFunc(cs, func(c Candidate) bool { return c.Structure != graphs.Adjacency }) {
		t.Errorf("small limits: %d candidates (%v), want the %d of adjacency", len(cs), err, len(all)/2)
	}
	if _, err := Candidates(plain, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly, Limits: small, Structure: graphs.ShortestPath}); err == nil {
		t.Error("shortest paths asked for under too small limits: no error")
	}
}

// TestLabelFreeCandidates: on graphs with node features the default candidates add, for each
// structure, the structure alone and the WL labels from one label for all nodes, which compare
// the graphs exactly as the same graphs without features; a narrowed weight or number of
// iterations, or graphs without features, add none.
func TestLabelFreeCandidates(t *testing.T) {
	labelled, _ := threeClasses(t, 2, true)
	cs, err := Candidates(labelled, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly})
	if err != nil {
		t.Fatal(err)
	}
	plain := graphs.WithoutFeatures(labelled)
	var free []Candidate
	for _, c := range cs {
		if c.WithoutFeatures {
			free = append(free, c)
		}
	}
	if len(free) != 22 {
		t.Fatalf("%d label-free candidates, want 22 (11 per structure)", len(free))
	}
	for _, c := range free {
		got, err := c.apply(labelled, graphs.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		same := c
		same.WithoutFeatures = false
		want, err := same.apply(plain, graphs.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if (got[i].F == nil) != (c.WL == 0) || (got[i].F != nil && !mat.Equal(got[i].F, want[i].F)) || !mat.Equal(got[i].Dense(), want[i].Dense()) {
				t.Fatalf("%s: graph %d is not compared as without its features", c, i)
			}
		}
		if err := c.check(); err != nil {
			t.Errorf("%s: %v", c, err)
		}
	}
	wrong := Candidate{Structure: graphs.Adjacency, Attributes: 2, WithoutFeatures: true}
	if wrong.check() == nil {
		t.Error("a candidate that leaves the features out and reads attribute columns passed check")
	}
	two := 2
	for _, n := range []Narrow{{Kinds: fgwOnly, FeatureWeight: 3}, {Kinds: fgwOnly, WL: &two}} {
		cs, _ := Candidates(labelled, graphs.FeatureEncoding{}, n)
		for _, c := range cs {
			if c.WithoutFeatures {
				t.Errorf("narrowed to %+v: label-free candidate %s", n, c)
			}
		}
	}
	cs, _ = Candidates(plain, graphs.FeatureEncoding{}, Narrow{Kinds: fgwOnly})
	for _, c := range cs {
		if c.WithoutFeatures {
			t.Errorf("graphs without features: label-free candidate %s", c)
		}
	}
}

// TestCandidatesStructureOnly: Narrow.StructureOnly gives one candidate a structure, the
// structure alone, with no node degrees and no Weisfeiler-Lehman labels made from it (the
// defaults of graphs without features have both); WL iterations asked for come from one label
// for all nodes; graphs with features have them left out.
func TestCandidatesStructureOnly(t *testing.T) {
	plain, _ := threeClasses(t, 2, false)
	labelled, _ := threeClasses(t, 2, true)
	cats := graphs.FeatureEncoding{Kind: graphs.FeaturesLabels}
	two := 2
	for _, c := range []struct {
		what string
		data []*graphs.Graph
		enc  graphs.FeatureEncoding
		n    Narrow
		want func(Candidate) bool
		size int
	}{
		{"no features", plain, graphs.FeatureEncoding{}, Narrow{StructureOnly: true},
			func(c Candidate) bool { return !c.Degree && c.WL == 0 && !c.WithoutFeatures && c.FeatureWeight == 1 }, 2},
		{"no features, one structure", plain, graphs.FeatureEncoding{}, Narrow{StructureOnly: true, Structure: graphs.Adjacency},
			func(c Candidate) bool { return c == Candidate{Structure: graphs.Adjacency, FeatureWeight: 1} }, 1},
		{"no features, WL asked", plain, graphs.FeatureEncoding{}, Narrow{StructureOnly: true, WL: &two},
			func(c Candidate) bool { return !c.Degree && c.WL == 2 && !c.WithoutFeatures }, 10},
		{"features left out", labelled, cats, Narrow{StructureOnly: true},
			func(c Candidate) bool { return !c.Degree && c.WL == 0 && c.WithoutFeatures }, 2},
		{"features left out, WL asked", labelled, cats, Narrow{StructureOnly: true, WL: &two},
			func(c Candidate) bool { return c.WL == 2 && c.WithoutFeatures }, 10},
	} {
		cs, err := Candidates(c.data, c.enc, c.n)
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		if len(cs) != c.size || !slices.ContainsFunc(cs, c.want) || slices.ContainsFunc(cs, func(x Candidate) bool { return !c.want(x) }) {
			t.Errorf("%s: %d candidates %v, want %d", c.what, len(cs), cs, c.size)
		}
		for _, x := range cs {
			if err := x.check(); err != nil {
				t.Errorf("%s: %v: %v", c.what, x, err)
			}
		}
	}
}
