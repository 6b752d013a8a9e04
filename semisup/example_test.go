package semisup_test

import (
	"context"
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/experiment"
)

// Train a GWF model with a classifier head on MUTAG with half of the labels, and label the rest.
func Example() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		panic(err)
	}
	data := ds.Graphs[:40]
	labels := make([]int, len(data))
	for i, g := range data {
		labels[i] = g.Label
		if i%2 == 1 {
			labels[i] = semisup.Unlabeled // to be predicted
		}
	}
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.Layers, cfg.Epochs = 4, 10, 3 // small, for the example
	m, err := semisup.NewModel(data, len(ds.Classes), cfg, semisup.DefaultConfig())
	if err != nil {
		panic(err)
	}
	if err := semisup.Fit(context.Background(), m, data, labels, semisup.Options{}); err != nil {
		panic(err)
	}
	pred := m.Predict()
	fmt.Println(len(pred), "predictions,", len(m.History), "epochs")
	// Output: 40 predictions, 3 epochs
}

// Cluster MUTAG graphs on the embeddings of a GIN encoder trained by the GWF term alone (no
// labels), as `gwf cluster --encoder gin` does.
func ExampleEncoderTrainer() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		panic(err)
	}
	ds.Graphs = ds.Graphs[:40]
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.Layers, cfg.Epochs = 4, 10, 2 // small, for the example
	rep, err := experiment.Run(context.Background(), ds, experiment.Options{
		Config:  cfg,
		Trainer: semisup.EncoderTrainer{Kind: semisup.EncoderGIN},
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d graphs in %d clusters, embeddings by a %s encoder\n", rep.Graphs, rep.Clusters, rep.Trainer)
	// Output: 40 graphs in 2 clusters, embeddings by a gin 32,32 encoder
}
