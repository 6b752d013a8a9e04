package pairwise

import (
	"errors"
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
)

// CostBalance compares the two terms of the fused GW cost over a dataset: their means under
// the independent coupling μ_s ν_tᵀ, over every ordered pair of graphs (s, t), s = t included:
//
//	structure: Σ_{i,k,j,l} μ_i μ_k ν_j ν_l (C_s[i,k] − C_t[j,l])²
//	features:  Σ_{i,j} μ_i ν_j ‖f_i − g_j‖²
//
// The independent coupling is where every solver starts, and it matches nothing, so these
// are the scales of the two terms before any alignment.
type CostBalance struct {
	Structure float64 `json:"structure"`
	Features  float64 `json:"features"`
	// Weight is Structure / Features: the feature weight under which both terms have the same
	// mean. It is 1 when the graphs have no features or Features is 0 (then the weight changes
	// nothing), and when Structure is 0 (no structure to balance against).
	Weight float64 `json:"weight"`
}

// BalanceFeatures measures CostBalance on the graphs of src (graphs.Slice adapts a slice of
// graphs). It needs no labels, and its cost is one pass over the adjacency and feature
// matrices: both means have closed forms in per-graph moments, 2(mean a − (mean m)²) with
// a = Σ μ_i μ_k C[i,k]², m = Σ μ_i μ_k C[i,k] for the structure, and 2(mean b − ‖mean v‖²) with
// b = Σ μ_i ‖f_i‖², v = Σ μ_i f_i for the features. src is read through once, graph by graph: a
// disk-backed source (graphs/store) is not held in memory and gives bit for bit the result of
// the same graphs in memory. It returns an error when src has no graphs, the graphs' features
// differ in dimension, or src fails to read a graph.
//
// Why: the paper adds the squared feature distances to the structure cost unweighted, so the
// units of the attributes decide how much they count. Standardized, PROTEINS_full's 29
// attributes have a mean feature cost near 2·29 = 58 against a structure cost below 1, and the
// model then learns from the attributes alone. A feature weight of
// BalanceFeatures(src).Weight (training.Config.FeatureWeight, the FGW-SVM's candidates) gives
// both terms the same say at the start.
func BalanceFeatures(src graphs.Source) (CostBalance, error) {
	if src == nil || src.Len() == 0 {
		return CostBalance{}, errors.New("balance features: no graphs")
	}
	var first *graphs.Graph
	var dim int
	var sumA, sumM, sumB float64
	var sumV []float64
	for gi := 0; gi < src.Len(); gi++ {
		g, err := src.Graph(gi)
		if err != nil {
			return CostBalance{}, fmt.Errorf("balance features: %w", err)
		}
		if first == nil {
			first, dim = g, g.Dim()
			sumV = make([]float64, dim)
		}
		if g.Dim() != dim {
			return CostBalance{}, fmt.Errorf("balance features: graph %s has %d-dimensional features, graph %s %d", g.Name, g.Dim(), first.Name, dim)
		}
		n := g.N()
		for i := 0; i < n; i++ {
			cols, vals := g.A.Row(i)
			var a, m float64
			for p, c := range vals {
				k := cols[p]
				a += g.Mu[k] * c * c
				m += g.Mu[k] * c
			}
			sumA += g.Mu[i] * a
			sumM += g.Mu[i] * m
			if dim > 0 {
				for j, f := range g.F.RawRowView(i) {
					sumB += g.Mu[i] * f * f
					sumV[j] += g.Mu[i] * f
				}
			}
		}
	}
	count := float64(src.Len())
	meanM := sumM / count
	b := CostBalance{Structure: spread(sumA/count, meanM*meanM), Weight: 1}
	if dim > 0 {
		var v2 float64
		for _, v := range sumV {
			v2 += (v / count) * (v / count)
		}
		b.Features = spread(sumB/count, v2)
	}
	if b.Features > 0 && b.Structure > 0 {
		b.Weight = b.Structure / b.Features
	}
	return b, nil
}

// spread is 2(second − squaredMean), the mean squared difference of two independent draws,
// with what is left by rounding when the values are constant set to 0.
func spread(second, squaredMean float64) float64 {
	d := second - squaredMean
	if d <= 1e-12*second {
		return 0
	}
	return 2 * d
}
