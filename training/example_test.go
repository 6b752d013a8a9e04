package training_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/graphs/store"
	"github.com/gwf-graphs/gwf/training"
)

// Learn a small GWF model of 40 MUTAG graphs and read their atom weights λ = softmax(z).
func ExampleFit() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		log.Fatal(err)
	}
	data := ds.Graphs[:40]
	cfg := training.DefaultConfig() // the paper's settings; smaller here to run in a second
	cfg.Atoms, cfg.Layers, cfg.Epochs = 4, 10, 3
	m, err := training.NewModel(graphs.Slice(data), cfg)
	if err != nil {
		log.Fatal(err)
	}
	if err := training.Fit(context.Background(), m, graphs.Slice(data), training.Options{}); err != nil {
		log.Fatal(err)
	}
	lambda := training.Lambda(m.Z)
	graphsN, atoms := lambda.Dims()
	fmt.Printf("%d graphs, %d atom weights each\n", graphsN, atoms)
	fmt.Println("loss fell:", m.History[len(m.History)-1].Loss < m.History[0].Loss)
	// Output:
	// 40 graphs, 4 atom weights each
	// loss fell: true
}

// Weigh one-hot node labels against the structure: the weight that gives both terms of the
// fused cost the same mean over the data (gwf's --feature-weight auto).
func ExampleBalanceFeatures() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{Features: graphs.FeaturesLabels})
	if err != nil {
		log.Fatal(err)
	}
	b, err := training.BalanceFeatures(graphs.Slice(ds.Graphs))
	if err != nil {
		log.Fatal(err)
	}
	// Then train with Config.FeatureWeight = b.Weight.
	fmt.Printf("structure %.3f, features %.3f: weight %.3f\n", b.Structure, b.Features, b.Weight)
	// Output:
	// structure 0.226, features 0.932: weight 0.242
}

// Train on graphs read from disk one mini-batch at a time: the collection is spooled to a
// store file once, and the model equals the one trained in memory.
func ExampleFit_store() {
	dir, err := os.MkdirTemp("", "gwf")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	spec := collection.Spec{Dataset: "MUTAG", Subset: 40}
	st, _, err := store.FromCollection(context.Background(), spec, filepath.Join(dir, "mutag.store"), 0, store.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.Layers, cfg.Epochs = 4, 10, 2
	m, err := training.NewModel(st, cfg)
	if err != nil {
		log.Fatal(err)
	}
	if err := training.Fit(context.Background(), m, st, training.Options{}); err != nil {
		log.Fatal(err)
	}

	ds, err := collection.Load(spec) // the same graphs, in memory
	if err != nil {
		log.Fatal(err)
	}
	inMemory, err := training.NewModel(graphs.Slice(ds.Graphs), cfg)
	if err != nil {
		log.Fatal(err)
	}
	if err := training.Fit(context.Background(), inMemory, graphs.Slice(ds.Graphs), training.Options{}); err != nil {
		log.Fatal(err)
	}
	fmt.Println("graphs:", st.Len(), "same model:", mat.Equal(m.Z, inMemory.Z) && mat.Equal(m.V[0], inMemory.V[0]))
	// Output:
	// graphs: 40 same model: true
}
