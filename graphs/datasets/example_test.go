package datasets_test

import (
	"fmt"
	"log"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
)

func ExampleLoad() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{Features: graphs.FeaturesLabels})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(ds.Graphs), "graphs, classes", ds.Classes, "one-hot width", ds.Graphs[0].Dim())
	// Output: 188 graphs, classes [-1 1] one-hot width 7
}
