package fgwsvm

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/pairwise"
)

// Candidate is one way of comparing graphs: the structure matrix, the node features and the
// weight of their cost in the fused GW cost (any value on graphs without features); or, by
// Kind, a vector of each graph whose squared Euclidean distances take the place of the
// discrepancies (graph statistics, Weisfeiler-Lehman subtree counts).
type Candidate struct {
	// Kind is how the candidate compares graphs: "" (KindFGW) by FGW discrepancies, else
	// KindStatistics or KindWLSubtree, which leave Structure and FeatureWeight empty.
	Kind          Kind             `json:"kind,omitempty"`
	Structure     graphs.Structure `json:"structure,omitempty"`
	FeatureWeight float64          `json:"feature_weight"`
	// Degree gives graphs without node features one: each node's degree (the row sums of the
	// adjacency, before the structure is applied), as graph neural networks give
	// featureless graphs one-hot degrees.
	Degree bool `json:"degree,omitempty"`
	// WL, above 0, replaces categorical node features (one-hot node labels) by their
	// Weisfeiler-Lehman labels after 0 to WL iterations (graphs.WLCodes), compared by the
	// Hamming distance: FGW's "wl" features. Graphs without node features start from one
	// label for all nodes, which the first iteration turns into the node degrees.
	WL int `json:"wl,omitempty"`
	// EdgeLabels, with WL, refines the labels with the edges' labels too
	// (graphs.WLCodesWithEdges: bond types, say); every graph needs them.
	EdgeLabels bool `json:"edge_labels,omitempty"`
	// Attributes, above 0, says that the node features are that many attribute columns
	// followed by one-hot node labels (graphs.FeaturesBoth); Part then says what the
	// candidate compares: "attributes" or "labels" alone, or both ("").
	Attributes int    `json:"attributes,omitempty"`
	Part       string `json:"part,omitempty"`
	// LabelScale multiplies the one-hot columns where both parts are compared, so that the
	// labels' cost weighs as much as the attributes' (MixedCandidates); 0 means 1.
	LabelScale float64 `json:"label_scale,omitempty"`
	// WithoutFeatures leaves the graphs' node features out: the candidate compares them as
	// graphs without features (the structure alone, or WL labels from one label for all
	// nodes), for data whose features do not carry the class (LabelFreeCandidates).
	WithoutFeatures bool `json:"without_features,omitempty"`
}

// The parts of mixed node features (Candidate.Part).
const (
	PartAttributes = "attributes"
	PartLabels     = "labels"
)

func (c Candidate) String() string {
	if c.vector() {
		return c.vectorString()
	}
	if c.WithoutFeatures {
		c.WithoutFeatures = false
		if c.WL == 0 {
			return fmt.Sprintf("%s structure alone (node features left out)", c.Structure)
		}
		return c.String() + " from one label for all nodes (node features left out)"
	}
	on := ""
	switch {
	case c.Attributes > 0 && c.Part != "":
		on = " of the node " + c.Part
	case c.Attributes > 0:
		on = fmt.Sprintf(" of the node attributes and labels (scaled by %.3g)", c.LabelScale)
	}
	if c.WL > 0 {
		edges := ""
		if c.EdgeLabels {
			edges = " with edge labels"
		}
		return fmt.Sprintf("%s structure, Weisfeiler-Lehman labels%s (%d iterations)%s of weight %.4g", c.Structure, edges, c.WL, on, c.FeatureWeight)
	}
	if c.Degree {
		return fmt.Sprintf("%s structure, node degrees as features of weight %.4g", c.Structure, c.FeatureWeight)
	}
	if on != "" {
		return fmt.Sprintf("%s structure, features%s of weight %.4g", c.Structure, on, c.FeatureWeight)
	}
	return fmt.Sprintf("%s structure, feature weight %.4g", c.Structure, c.FeatureWeight)
}

// check reports a candidate no constructor makes (from a model file).
func (c Candidate) check() error {
	if c.Kind != "" {
		return c.checkVector()
	}
	if _, err := graphs.ParseStructure(string(c.Structure)); err != nil {
		return err
	}
	if w := c.FeatureWeight; !(w >= 0) || w > layers.MaxFeatureWeight {
		return fmt.Errorf("feature weight %v", w)
	}
	if h := c.WL; h < 0 || h > graphs.MaxWLIterations || (h > 0 && c.Degree) || (h == 0 && c.EdgeLabels) {
		return fmt.Errorf("Weisfeiler-Lehman iterations %d (degrees %v, edge labels %v)", h, c.Degree, c.EdgeLabels)
	}
	switch {
	case c.Attributes < 0: // a width beyond the graphs' is refused when applied
		return fmt.Errorf("%d attribute columns", c.Attributes)
	case c.Attributes == 0 && (c.Part != "" || c.LabelScale != 0):
		return fmt.Errorf("part %q and label scale %v without attribute columns", c.Part, c.LabelScale)
	case c.Part != "" && c.Part != PartAttributes && c.Part != PartLabels:
		return fmt.Errorf("unknown part %q", c.Part)
	case !(c.LabelScale >= 0) || math.IsInf(c.LabelScale, 0):
		return fmt.Errorf("label scale %v", c.LabelScale)
	case c.WithoutFeatures && (c.Attributes != 0 || c.Degree):
		return fmt.Errorf("node features left out, yet %d attribute columns (degrees %v)", c.Attributes, c.Degree)
	}
	return nil
}

// apply returns data as the candidate compares it: the part of mixed features it compares,
// with degree features where it asks for them, then with its structure matrix.
func (c Candidate) apply(data []*graphs.Graph, lim graphs.Limits) ([]*graphs.Graph, error) {
	data, err := c.nodeFeatures(data)
	if err != nil {
		return nil, err
	}
	return c.Structure.ApplyWithin(data, lim)
}

// nodeFeatures returns data with the node features the candidate compares: the part of mixed
// features it compares, with degree features where it asks for them, as Weisfeiler-Lehman
// labels where it asks for them.
func (c Candidate) nodeFeatures(data []*graphs.Graph) ([]*graphs.Graph, error) {
	if c.WithoutFeatures {
		data = graphs.WithoutFeatures(data)
	}
	if c.Attributes > 0 {
		var err error
		if data, err = c.part(data); err != nil {
			return nil, err
		}
	}
	if c.Degree {
		data = withDegrees(data)
	}
	if c.WL > 0 {
		if hasFeatures(data) && !graphs.Categorical(data) {
			return nil, fmt.Errorf("fgwsvm: %s: Weisfeiler-Lehman labels need categorical node features (one-hot node labels) or none", c)
		}
		wl := graphs.WithWLCodes
		if c.EdgeLabels {
			wl = graphs.WithWLEdgeCodes
		}
		var err error
		if data, err = wl(data, c.WL); err != nil {
			return nil, fmt.Errorf("fgwsvm: %s: %w", c, err)
		}
	}
	return data, nil
}

// metric is how the candidate compares node features.
func (c Candidate) metric() layers.FeatureMetric {
	if c.WL > 0 {
		return layers.Hamming
	}
	return layers.SquaredEuclidean
}

// part returns copies of data whose node features are the candidate's part of the mixed
// features: the attribute columns, the one-hot columns, or both with the latter scaled.
func (c Candidate) part(data []*graphs.Graph) ([]*graphs.Graph, error) {
	out := make([]*graphs.Graph, len(data))
	for i, g := range data {
		d := g.Dim()
		if g.F == nil || d <= c.Attributes {
			return nil, fmt.Errorf("fgwsvm: %s: graph %s has %d node-feature columns, want %d attributes and node labels after them", c, g.Name, d, c.Attributes)
		}
		n := g.N()
		cp := *g
		switch c.Part {
		case PartAttributes:
			cp.F = mat.DenseCopyOf(g.F.Slice(0, n, 0, c.Attributes))
		case PartLabels:
			cp.F = mat.DenseCopyOf(g.F.Slice(0, n, c.Attributes, d))
		default:
			cp.F = mat.DenseCopyOf(g.F)
			if s := c.LabelScale; s > 0 {
				labels := cp.F.Slice(0, n, c.Attributes, d).(*mat.Dense)
				labels.Scale(s, labels)
			}
		}
		out[i] = &cp
	}
	return out, nil
}

// withDegrees returns copies of data whose node features are the nodes' degrees (weighted: the
// adjacency's row sums); a graph that has features keeps them.
func withDegrees(data []*graphs.Graph) []*graphs.Graph {
	out := make([]*graphs.Graph, len(data))
	for i, g := range data {
		if g.F != nil {
			out[i] = g
			continue
		}
		f := mat.NewDense(g.N(), 1, nil)
		for v := range g.N() {
			_, vals := g.A.Row(v)
			sum := 0.0
			for _, w := range vals {
				sum += w
			}
			f.Set(v, 0, sum)
		}
		c := *g
		c.F = f
		out[i] = &c
	}
	return out
}

// defaultWeightFactors multiply the balanced feature weight (pairwise.BalanceFeatures:
// the weight at which the structure and feature terms have the same mean) in the default
// candidates: from a structure-led cost (the features a fifth of it) to a feature-led one
// (the structure a thousandth), as FGW's grid of α spans both.
var defaultWeightFactors = []float64{0.25, 2, 16, 128, 1024}

// defaultWLIterations are the Weisfeiler-Lehman refinements of the default candidates on
// categorical node features (FGW reports 2 and 4).
var defaultWLIterations = []int{2, 4}

// DefaultCandidates are both structures and, on graphs with node features, five weights of the
// feature cost, multiples of the balanced weight of each structure measured on data without
// labels; categorical features (one-hot node labels) get the same five weights of their
// Weisfeiler-Lehman labels after 2 and after 4 iterations; graphs without node features
// get, besides the structure alone, the five weights of node degrees as features and of
// their Weisfeiler-Lehman labels after 2 and 4 iterations from one label for all nodes (the
// first iteration gives the degrees), as WL kernels label featureless graphs.
func DefaultCandidates(data []*graphs.Graph) ([]Candidate, error) {
	var out []Candidate
	for _, s := range []graphs.Structure{graphs.Adjacency, graphs.ShortestPath} {
		cs, err := StructureCandidates(data, s, graphs.Limits{})
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// StructureCandidates are the default candidates of one structure.
func StructureCandidates(data []*graphs.Graph, s graphs.Structure, lim graphs.Limits) ([]Candidate, error) {
	var out []Candidate
	if hasFeatures(data) {
		var err error
		if out, err = weighted(data, Candidate{Structure: s}, lim); err != nil || !graphs.Categorical(data) {
			return out, err
		}
	} else {
		deg, err := weighted(data, Candidate{Structure: s, Degree: true}, lim)
		if err != nil {
			return nil, err
		}
		out = append([]Candidate{{Structure: s, FeatureWeight: 1}}, deg...)
	}
	for _, h := range defaultWLIterations {
		wl, err := WLCandidates(data, s, h, lim)
		if err != nil {
			return nil, err
		}
		out = append(out, wl...)
	}
	return out, nil
}

// WLCandidates are the five default weights of the Weisfeiler-Lehman labels after h
// iterations of the categorical node features of data (or of one label for all nodes, on
// graphs without features), with structure s.
// On graphs that all carry edge labels, the same weights of the labels refined with the edge
// labels come too (Candidate.EdgeLabels).
func WLCandidates(data []*graphs.Graph, s graphs.Structure, h int, lim graphs.Limits) ([]Candidate, error) {
	return wlWeighted(data, Candidate{Structure: s, WL: h}, lim)
}

// wlWeighted is weighted for base, a Weisfeiler-Lehman candidate, and, on data with edge
// labels, for base refined with them.
func wlWeighted(data []*graphs.Graph, base Candidate, lim graphs.Limits) ([]Candidate, error) {
	out, err := weighted(data, base, lim)
	if err != nil || !graphs.HasEdgeLabels(data) {
		return out, err
	}
	base.EdgeLabels = true
	edges, err := weighted(data, base, lim)
	return append(out, edges...), err
}

// LabelFreeCandidates are the candidates of structure s that leave the node features of data
// out: the structure alone and the five default weights of the Weisfeiler-Lehman labels after
// 2 and after 4 iterations from one label for all nodes (as graphs without features get, less
// the degrees as features, which the first iteration holds). Beside the candidates that use
// the features, they let the training graphs choose to ignore features that do not carry the
// class (layout coordinates, identifiers, noise).
func LabelFreeCandidates(data []*graphs.Graph, s graphs.Structure, lim graphs.Limits) ([]Candidate, error) {
	out := []Candidate{{Structure: s, FeatureWeight: 1, WithoutFeatures: true}}
	for _, h := range defaultWLIterations {
		cs, err := weighted(data, Candidate{Structure: s, WL: h, WithoutFeatures: true}, lim)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// MixedCandidates are the default candidates of structure s on data whose node features are
// the given number of attribute columns followed by one-hot node labels (graphs.FeaturesBoth):
// the five default weights of the attributes alone, of both (the labels scaled so that their
// mean cost equals the attributes', measured on data without labels), and of the labels'
// Weisfeiler-Lehman labels after 2 and after 4 iterations. Which part carries the class is
// the data's: atom types decide molecules whose attributes are coordinates, for instance.
func MixedCandidates(data []*graphs.Graph, s graphs.Structure, attributes int, lim graphs.Limits) ([]Candidate, error) {
	if attributes <= 0 {
		return nil, fmt.Errorf("fgwsvm: mixed candidates with %d attribute columns", attributes)
	}
	base := Candidate{Structure: s, Attributes: attributes}
	attrs, err := MixedPart(data, base, PartAttributes, lim)
	if err != nil {
		return nil, err
	}
	both := base
	if both.LabelScale, err = LabelScale(data, attributes); err != nil {
		return nil, err
	}
	mixed, err := weighted(data, both, lim)
	if err != nil {
		return nil, err
	}
	out := append(attrs, mixed...)
	for _, h := range defaultWLIterations {
		wl := base
		wl.Part, wl.WL = PartLabels, h
		cs, err := wlWeighted(data, wl, lim)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// MixedPart is base (a candidate with Attributes set) on one part of the mixed features at
// the five default weights; base's WL applies to the labels part (with the edge labels too
// where the data have them, as WLCandidates).
func MixedPart(data []*graphs.Graph, base Candidate, part string, lim graphs.Limits) ([]Candidate, error) {
	base.Part = part
	if base.WL > 0 {
		return wlWeighted(data, base, lim)
	}
	return weighted(data, base, lim)
}

// LabelScale is the factor that gives the one-hot columns (from column attributes on) the
// mean squared distance of the attribute columns between two nodes drawn independently (a
// graph uniformly, then a node by its distribution): √(spread of attributes / spread of
// labels); 1 where either does not vary.
func LabelScale(data []*graphs.Graph, attributes int) (float64, error) {
	a, l := 0.0, 0.0
	for i, g := range data {
		if g.F == nil || g.Dim() <= attributes {
			return 0, fmt.Errorf("fgwsvm: graph %d has %d node-feature columns, want %d attributes and node labels after them", i, g.Dim(), attributes)
		}
	}
	for j := range data[0].Dim() {
		if j < attributes {
			a += columnVariance(data, j)
		} else {
			l += columnVariance(data, j)
		}
	}
	if !(a > 0) || !(l > 0) || math.IsInf(a, 0) {
		return 1, nil
	}
	return math.Sqrt(a / l), nil
}

// columnVariance is the variance of feature column j over the nodes of data (a graph drawn
// uniformly, then a node by its distribution).
func columnVariance(data []*graphs.Graph, j int) float64 {
	w := 1 / float64(len(data))
	mean, sq := 0.0, 0.0
	for _, g := range data {
		for v := range g.N() {
			x := g.F.At(v, j)
			mean += w * g.Mu[v] * x
			sq += w * g.Mu[v] * x * x
		}
	}
	return max(sq-mean*mean, 0)
}

// weighted is base with the default multiples of its balanced feature weight (base alone,
// weight 1, where the features do not vary).
func weighted(data []*graphs.Graph, base Candidate, lim graphs.Limits) ([]Candidate, error) {
	sd, err := base.apply(data, lim)
	if err != nil {
		return nil, err
	}
	b, err := pairwise.BalanceFeatures(graphs.Slice(sd))
	if err != nil {
		return nil, fmt.Errorf("fgwsvm: balanced feature weight of %s: %w", base, err)
	}
	if base.WL > 0 {
		b.Features = hammingSpread(sd)
		b.Weight = b.Structure / b.Features
	}
	if b.Features == 0 || !(b.Weight > 0) || math.IsInf(b.Weight, 0) {
		base.FeatureWeight = 1
		return []Candidate{base}, nil
	}
	var out []Candidate
	for _, f := range defaultWeightFactors {
		c := base
		c.FeatureWeight = f * b.Weight
		out = append(out, c)
	}
	return out, nil
}

// hammingSpread is the mean Hamming distance of the codes of two nodes drawn independently
// (a graph uniformly, then a node by its distribution): the feature term's counterpart of the
// balance's structure spread.
func hammingSpread(data []*graphs.Graph) float64 {
	_, cols := data[0].F.Dims()
	spread := 0.0
	for k := range cols {
		p := map[float64]float64{}
		for _, g := range data {
			for v := range g.N() {
				p[g.F.At(v, k)] += g.Mu[v] / float64(len(data))
			}
		}
		// Summed in the codes' order: a map's order would change the last bits of the weight
		// from run to run, and with them the key of the kept matrices.
		same := 0.0
		for _, code := range slices.Sorted(maps.Keys(p)) {
			same += p[code] * p[code]
		}
		spread += 1 - same
	}
	return spread
}

func hasFeatures(data []*graphs.Graph) bool {
	for _, g := range data {
		if g.F != nil {
			return true
		}
	}
	return false
}

// config is the GWD module of a candidate: the solver with the candidate's feature weight.
func (c Candidate) config(base layers.SolverOptions) layers.SolverOptions {
	base.FeatureWeight = c.FeatureWeight
	return base
}
