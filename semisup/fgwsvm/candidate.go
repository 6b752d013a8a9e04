package fgwsvm

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// Candidate is one way of comparing graphs: the structure matrix, the node features and the
// weight of their cost in the fused GW cost (any value on graphs without features).
type Candidate struct {
	Structure     graphs.Structure `json:"structure"`
	FeatureWeight float64          `json:"feature_weight"`
	// Degree gives graphs without node features one: each node's degree (the row sums of the
	// adjacency, before the structure is applied), as graph neural networks give
	// featureless graphs one-hot degrees.
	Degree bool `json:"degree,omitempty"`
}

func (c Candidate) String() string {
	if c.Degree {
		return fmt.Sprintf("%s structure, node degrees as features of weight %.4g", c.Structure, c.FeatureWeight)
	}
	return fmt.Sprintf("%s structure, feature weight %.4g", c.Structure, c.FeatureWeight)
}

// apply returns data as the candidate compares it: with degree features where it asks for
// them, then with its structure matrix.
func (c Candidate) apply(data []*graphs.Graph) ([]*graphs.Graph, error) {
	if c.Degree {
		data = withDegrees(data)
	}
	return c.Structure.Apply(data)
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

// defaultWeightFactors multiply the balanced feature weight (training.BalanceFeaturesSource:
// the weight at which the structure and feature terms have the same mean) in the default
// candidates: from a structure-led cost (the features a fifth of it) to a feature-led one
// (the structure a thousandth), as FGW's grid of α spans both.
var defaultWeightFactors = []float64{0.25, 2, 16, 128, 1024}

// DefaultCandidates are both structures and, on graphs with node features, five weights of the
// feature cost, multiples of the balanced weight of each structure measured on data without
// labels; graphs without node features get, besides the structure alone, the same five weights
// of node degrees as features.
func DefaultCandidates(data []*graphs.Graph) ([]Candidate, error) {
	var out []Candidate
	for _, s := range []graphs.Structure{graphs.Adjacency, graphs.ShortestPath} {
		cs, err := StructureCandidates(data, s)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// StructureCandidates are the default candidates of one structure.
func StructureCandidates(data []*graphs.Graph, s graphs.Structure) ([]Candidate, error) {
	if hasFeatures(data) {
		return weighted(data, Candidate{Structure: s})
	}
	deg, err := weighted(data, Candidate{Structure: s, Degree: true})
	if err != nil {
		return nil, err
	}
	return append([]Candidate{{Structure: s, FeatureWeight: 1}}, deg...), nil
}

// weighted is base with the default multiples of its balanced feature weight (base alone,
// weight 1, where the features do not vary).
func weighted(data []*graphs.Graph, base Candidate) ([]Candidate, error) {
	sd, err := base.apply(data)
	if err != nil {
		return nil, err
	}
	b, err := training.BalanceFeaturesSource(graphs.Slice(sd))
	if err != nil {
		return nil, fmt.Errorf("fgwsvm: balanced feature weight of %s: %w", base, err)
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

func hasFeatures(data []*graphs.Graph) bool {
	for _, g := range data {
		if g.F != nil {
			return true
		}
	}
	return false
}

// config is the GWD module of a candidate: the exact conditional-gradient solver (FGW's).
func (c Candidate) config(base training.Config) training.Config {
	cfg := base
	cfg.FeatureWeight = c.FeatureWeight
	return cfg
}

// DefaultSolver is the GWD module the discrepancies are computed with: the exact conditional
// gradient (FGW's solver), with the paper's other settings.
func DefaultSolver() training.Config {
	return training.DefaultConfig().WithSolverDefaults("cg")
}
