package synthetic_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/synthetic"
)

// Write a small corpus of Barabási–Albert graphs in two classes and read it back.
func ExampleWrite() {
	tmp, err := os.MkdirTemp("", "synthetic")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "BA")
	s := synthetic.Spec{Model: synthetic.BA, Graphs: 100, MinNodes: 10, MaxNodes: 20, Classes: 2, Seed: 1}
	if err := synthetic.Write(context.Background(), dir, "BA", s, graphs.TUWriteOptions{Gzip: true}, nil); err != nil {
		log.Fatal(err)
	}
	ds, err := graphs.ReadTUPath(dir, graphs.TUOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(ds.Graphs), "graphs in", ds.NumClasses(), "classes; first:", ds.Graphs[0].Name)
	// Output:
	// 100 graphs in 2 classes; first: BA#1
}
