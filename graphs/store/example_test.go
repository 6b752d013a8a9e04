package store_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/graphs/store"
)

// A collection spooled to a store and read back graph by graph, as training.Fit reads a
// mini-batch.
func ExampleFromCollection() {
	dir, err := os.MkdirTemp("", "store")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	spec := collection.Spec{Dataset: "MUTAG", Features: graphs.FeaturesLabels}
	s, meta, err := store.FromCollection(context.Background(), spec, filepath.Join(dir, "mutag.store"), 0, store.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	g, err := s.Graph(2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d graphs, %d-dimensional one-hot node labels %v\n", meta.Name, s.Len(), s.Dim(), meta.Encoding.NodeLabels)
	fmt.Printf("%s: %d nodes, %d undirected edges\n", g.Name, g.N(), g.UndirectedEdges())
	// Output:
	// MUTAG: 188 graphs, 7-dimensional one-hot node labels [0 1 2 3 4 5 6]
	// MUTAG#3: 13 nodes, 14 undirected edges
}
