package fgwsvm

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
)

// Narrow restricts the default candidates (Candidates): the zero value keeps them all.
type Narrow struct {
	// Structure, when set, is the only structure tried (else adjacency and shortest paths).
	Structure graphs.Structure
	// FeatureWeight, above 0, is the only weight of the node-feature cost (else five around
	// the balanced weight).
	FeatureWeight float64
	// WL, when set, is the only number of Weisfeiler-Lehman iterations of node labels (0: the
	// features as they are); nil tries the defaults.
	WL *int
	// StructureOnly compares the graphs by their structure alone, one candidate a structure:
	// no node features, and none made from the structure either (node degrees, their
	// Weisfeiler-Lehman labels) unless WL asks for that many iterations. It is what
	// 'gwf classify --features none' promises ("structure only").
	StructureOnly bool
	// Limits bound the structure matrices (zero: graphs.DefaultLimits). Without Structure,
	// shortest paths are tried only where their dense matrices fit (graphs.Structure.Fits).
	Limits graphs.Limits
	// Kinds, when set, are the only kinds of candidate (KindFGW, KindStatistics,
	// KindWLSubtree); nil means all of them, or KindFGW alone with StructureOnly. Structure and
	// FeatureWeight narrow the FGW candidates only; WL narrows the WL subtree candidates too.
	Kinds []Kind
}

// Candidates are the candidates of data whose node features were made as enc says: the
// default FGW candidates of each structure (StructureCandidates; MixedCandidates on attributes
// followed by node labels, graphs.FeaturesBoth) narrowed as n says. Where the graphs have
// node features and n narrows neither the weight nor the iterations, each structure's
// LabelFreeCandidates come too. Weisfeiler-Lehman iterations need categorical node features
// (node labels) or none. Then come the vector candidates (VectorCandidates): the graph
// statistics and the Weisfeiler-Lehman subtree counts, cheap beside the discrepancies.
func Candidates(data []*graphs.Graph, enc graphs.FeatureEncoding, n Narrow) ([]Candidate, error) {
	kinds := n.Kinds
	if kinds == nil {
		kinds = Kinds()
		if n.StructureOnly {
			kinds = []Kind{KindFGW}
		}
	}
	if len(kinds) == 0 {
		return nil, errors.New("fgwsvm: no kind of candidate")
	}
	for _, k := range kinds {
		if _, err := ParseKind(string(k)); err != nil {
			return nil, err
		}
	}
	var out []Candidate
	if slices.Contains(kinds, KindFGW) {
		cs, err := fgwCandidates(data, enc, n)
		if err != nil {
			return nil, err
		}
		out = cs
	}
	wl := -1
	if n.WL != nil {
		wl = *n.WL
	}
	vdata, venc := data, enc
	if n.StructureOnly && hasFeatures(data) {
		vdata, venc = graphs.WithoutFeatures(data), graphs.FeatureEncoding{Kind: graphs.FeaturesNone}
	}
	vs, err := VectorCandidates(vdata, venc, kinds, wl)
	if err != nil {
		return nil, err
	}
	if n.StructureOnly && hasFeatures(data) {
		for i := range vs {
			vs[i].WithoutFeatures = true
		}
	}
	return append(out, vs...), nil
}

// fgwCandidates are Candidates' FGW candidates.
func fgwCandidates(data []*graphs.Graph, enc graphs.FeatureEncoding, n Narrow) ([]Candidate, error) {
	if n.StructureOnly && hasFeatures(data) { // the candidates of the graphs without features
		cs, err := fgwCandidates(graphs.WithoutFeatures(data), graphs.FeatureEncoding{Kind: graphs.FeaturesNone}, n)
		for i := range cs {
			cs[i].WithoutFeatures = true
		}
		return cs, err
	}
	structures := []graphs.Structure{graphs.Adjacency}
	switch {
	case n.Structure != "":
		structures = []graphs.Structure{n.Structure}
	case graphs.ShortestPath.Fits(data, n.Limits) == nil:
		structures = append(structures, graphs.ShortestPath)
	}
	mixed := enc.Kind == graphs.FeaturesBoth
	wl := -1
	if n.WL != nil {
		wl = *n.WL
	}
	switch {
	case wl < -1 || wl > graphs.MaxWLIterations:
		return nil, fmt.Errorf("fgwsvm: %d Weisfeiler-Lehman iterations (want 0 to %d)", wl, graphs.MaxWLIterations)
	case wl > 0 && !mixed && hasFeatures(data) && !graphs.Categorical(data):
		return nil, errors.New("fgwsvm: Weisfeiler-Lehman labels refine categorical node features (one-hot node labels) or none (from the degrees); these graphs have other features")
	case !(n.FeatureWeight >= 0) || n.FeatureWeight > layers.MaxFeatureWeight || math.IsInf(n.FeatureWeight, 0):
		return nil, fmt.Errorf("fgwsvm: feature weight %v", n.FeatureWeight)
	}
	var out []Candidate
	if n.StructureOnly && wl <= 0 {
		for _, s := range structures {
			out = append(out, Candidate{Structure: s, FeatureWeight: 1})
		}
		return out, nil
	}
	for _, s := range structures {
		cs, err := structureCandidates(data, s, enc, n.FeatureWeight, wl, n.Limits)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	if !hasFeatures(data) || n.FeatureWeight > 0 || n.WL != nil {
		return out, nil
	}
	for _, s := range structures {
		cs, err := LabelFreeCandidates(data, s, n.Limits)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// structureCandidates are the candidates of structure s: at weight w when above 0, with wl
// Weisfeiler-Lehman iterations (−1: the defaults).
func structureCandidates(data []*graphs.Graph, s graphs.Structure, enc graphs.FeatureEncoding, w float64, wl int, lim graphs.Limits) ([]Candidate, error) {
	base := Candidate{Structure: s, WL: max(wl, 0)}
	mixed := enc.Kind == graphs.FeaturesBoth
	if mixed {
		base.Attributes = enc.Attributes
		if wl > 0 {
			base.Part = PartLabels
		}
	}
	if w > 0 {
		if mixed && wl <= 0 {
			var err error
			if base.LabelScale, err = LabelScale(data, enc.Attributes); err != nil {
				return nil, err
			}
		}
		base.FeatureWeight = w
		return []Candidate{base}, nil
	}
	var cs []Candidate
	var err error
	switch {
	case mixed && wl > 0:
		cs, err = MixedPart(data, base, PartLabels, lim)
	case mixed:
		cs, err = MixedCandidates(data, s, enc.Attributes, lim)
	case wl > 0:
		cs, err = WLCandidates(data, s, wl, lim)
	default:
		cs, err = StructureCandidates(data, s, lim)
	}
	if err != nil || wl < 0 {
		return cs, err
	}
	var out []Candidate
	for _, c := range cs { // wl 0: the features as they are only
		if c.WL == wl {
			out = append(out, c)
		}
	}
	return out, nil
}
