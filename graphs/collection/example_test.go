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
