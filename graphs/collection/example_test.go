package collection_test

import (
	"fmt"
	"log"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
)

// Load 40 graphs of the bundled MUTAG dataset, chosen at random with seed 1, with one-hot node
// labels as features. A TU folder or .zip (Spec.TU) or a folder of JSON, node-link and
// edge-list files (Spec.Folder) load the same way.
func ExampleLoad() {
	ds, err := collection.Load(collection.Spec{
		Dataset:    "MUTAG",
		Features:   graphs.FeaturesLabels,
		Subset:     40,
		SubsetSeed: 1,
	})
	if err != nil {
		log.Fatal(err)
	}
	g := ds.Graphs[0]
	fmt.Printf("%s: %d graphs, %d classes\n", ds.Name, len(ds.Graphs), ds.NumClasses())
	fmt.Printf("first: %s, %d nodes, %d features, class %s\n", g.Name, g.N(), g.Dim(), ds.ClassName(g))
	// Output:
	// MUTAG: 40 graphs, 2 classes
	// first: MUTAG#5, 11 nodes, 7 features, class -1
}

// Encode new graphs as a model's training data were: the encoding Load records (here the
// standardization's means and scales of 100 PROTEINS graphs) is given back in Spec.Encoding
// when other graphs are read for that model, so a single graph is standardized with the
// training data's statistics rather than its own.
func ExampleSpec_encoding() {
	train := collection.Spec{Dataset: "PROTEINS", Features: graphs.FeaturesAttributes, Standardize: true, Subset: 100}
	ds, err := collection.Load(train)
	if err != nil {
		log.Fatal(err)
	}
	enc := ds.Encoding // a model keeps it (training.Model.Features)
	one := collection.Spec{Dataset: "PROTEINS", Features: graphs.FeaturesAttributes, Standardize: true, Subset: 1, SubsetSeed: 7, Encoding: &enc}
	unseen, err := collection.Load(one)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("training data: %s features, mean %.3f, scale %.3f\n", enc.Kind, enc.Mean[0], enc.Scale[0])
	fmt.Printf("one new graph (%s) encoded with them: standardized %v\n", unseen.Graphs[0].Name, unseen.Encoding.Standardized())
	// Output:
	// training data: attributes features, mean 8.191, scale 35.468
	// one new graph (PROTEINS#1087) encoded with them: standardized true
}
