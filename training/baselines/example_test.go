package baselines_test

import (
	"context"
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/baselines"
	"github.com/gwf-graphs/gwf/training/cluster"
)

// Cluster 30 MUTAG graphs with the FGWK baseline and score the clusters.
func ExampleFGWK() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		panic(err)
	}
	data := ds.Graphs[:30]
	cfg := training.DefaultConfig() // the GWD module GWF trains with: PPA, γ = 0.01
	cfg.Layers = 20                 // fewer layers than the paper's 50, for a quick example
	opt := baselines.Options{Config: cfg, Seed: 1}
	assign, stats, err := baselines.FGWK(context.Background(), data, 2, opt)
	if err != nil {
		panic(err)
	}
	truth := make([]int, len(data))
	for i, g := range data {
		truth[i] = g.Label
	}
	acc, _ := cluster.Accuracy(truth, assign)
	fmt.Println(stats.GWDs, "GWDs; accuracy above chance:", acc > 0.5)
	// Output: 435 GWDs; accuracy above chance: true
}
