package baselines_test

import (
	"context"
	"fmt"

	"gwf/graphs"
	"gwf/graphs/datasets"
	"gwf/layers"
	"gwf/training/baselines"
	"gwf/training/cluster"
)

// Cluster 30 MUTAG graphs with the FGWK baseline and score the clusters.
func ExampleFGWK() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		panic(err)
	}
	data := ds.Graphs[:30]
	opt := baselines.Options{Solver: layers.PPA{Gamma: 0.01, Layers: 20, Inner: 5, Weight: 1}, Seed: 1}
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
