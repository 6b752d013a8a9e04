package experiment_test

import (
	"context"
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/experiment"
)

// Table 1's experiment on 30 MUTAG graphs, two seeds, a small model.
func ExampleRun() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		panic(err)
	}
	ds.Graphs = ds.Graphs[:30]
	cfg := training.DefaultConfig() // the paper's settings, made smaller for a quick example
	cfg.Atoms, cfg.Layers, cfg.Epochs = 3, 10, 2
	rep, err := experiment.Run(context.Background(), ds, experiment.Options{Config: cfg, Runs: 2})
	if err != nil {
		panic(err)
	}
	for _, r := range rep.Runs {
		fmt.Printf("run %d: seed %d, %d epochs, accuracy above chance: %v\n", r.Run, r.Seed, r.Epochs, r.Accuracy >= 0.5)
	}
	fmt.Println("clusters:", rep.Clusters, "scored on", rep.Embedding)
	// Output:
	// run 0: seed 1, 2 epochs, accuracy above chance: true
	// run 1: seed 2, 2 epochs, accuracy above chance: true
	// clusters: 2 scored on lambda
}
