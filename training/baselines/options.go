package baselines

import (
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/pairwise"
	"github.com/gwf-graphs/gwf/training"
)

// Options control the baselines' GWD computations.
type Options struct {
	// Config is the GWF training configuration the baselines share with GWF: its GWD module
	// (Solver, Gamma, Layers, Inner, FeatureWeight) computes every discrepancy and its GWBLayers
	// is L of GWB-KM's barycenters, so that Table 1 compares like with like and the defaults
	// live in one place. The zero Config means training.DefaultConfig() (the paper's PPA).
	Config training.Config
	// Workers is the number of goroutines (0: GOMAXPROCS).
	Workers int
	// Observe, if set, is told now and then the GWDs done of the total (Count events).
	Observe training.Observer
	// Seed seeds the random choices (initial centers, K-means).
	Seed uint64
	// Metric compares node features in FGWK's discrepancies (the zero value: squared
	// Euclidean, the paper's); layers.Hamming for categorical codes such as Weisfeiler-Lehman
	// labels.
	Metric layers.FeatureMetric
}

// config is o.Config, or the paper's settings for the zero Config.
func (o Options) config() training.Config {
	if o.Config == (training.Config{}) {
		return training.DefaultConfig()
	}
	return o.Config
}

// solver is the configured GWD module.
func (o Options) solver() (layers.Solver, error) {
	s, err := o.config().GWDSolver()
	if err != nil {
		return nil, fmt.Errorf("baselines: %w", err)
	}
	return s, nil
}

// pairwise is o as the discrepancies of layers/pairwise take it: the configured GWD module.
func (o Options) pairwise() pairwise.Options {
	return pairwise.Options{Solver: o.config().SolverOptions(), Workers: o.Workers, Observe: o.Observe, Metric: o.Metric}
}

// Stats says what a baseline cost: the discrepancies it computed (barycenter layers
// included) and its wall time.
type Stats = pairwise.Stats

func space(g *graphs.Graph) layers.Space { return layers.Space{A: g.A, Mu: g.Mu, F: g.F} }
