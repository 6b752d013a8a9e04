package fgwsvm

import (
	"fmt"
	"math"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// Candidate is one way of comparing graphs: the structure matrix and the weight of the
// node-feature cost in the fused GW cost (0 or any value on graphs without features).
type Candidate struct {
	Structure     graphs.Structure `json:"structure"`
	FeatureWeight float64          `json:"feature_weight"`
}

func (c Candidate) String() string {
	return fmt.Sprintf("%s structure, feature weight %.4g", c.Structure, c.FeatureWeight)
}

// defaultWeightFactors multiply the balanced feature weight (training.BalanceFeaturesSource:
// the weight at which the structure and feature terms have the same mean) in the default
// candidates: from a structure-led cost (the features a fifth of it) to a feature-led one
// (the structure a thousandth), as FGW's grid of α spans both.
var defaultWeightFactors = []float64{0.25, 2, 16, 128, 1024}

// DefaultCandidates are both structures and, on graphs with node features, five weights of the
// feature cost, multiples of the balanced weight of each structure measured on data without
// labels. It applies each structure to data (see graphs.Structure.Apply).
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
	if !hasFeatures(data) {
		return []Candidate{{Structure: s, FeatureWeight: 1}}, nil
	}
	sd, err := s.Apply(data)
	if err != nil {
		return nil, err
	}
	b, err := training.BalanceFeaturesSource(graphs.Slice(sd))
	if err != nil {
		return nil, fmt.Errorf("fgwsvm: balanced feature weight of the %s structure: %w", s, err)
	}
	if b.Features == 0 || !(b.Weight > 0) || math.IsInf(b.Weight, 0) {
		return []Candidate{{Structure: s, FeatureWeight: 1}}, nil
	}
	var out []Candidate
	for _, f := range defaultWeightFactors {
		out = append(out, Candidate{Structure: s, FeatureWeight: f * b.Weight})
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
