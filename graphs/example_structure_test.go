package graphs_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

func ExampleShortestPaths() {
	// The path 0 – 1 – 2 – 3, and a node 4 on its own.
	a := mat.NewDense(5, 5, nil)
	for i := range 3 {
		a.Set(i, i+1, 1)
		a.Set(i+1, i, 1)
	}
	g, err := graphs.New("path", a, nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	s, err := graphs.ParseStructure("sp")
	if err != nil {
		log.Fatal(err)
	}
	out, err := s.Apply([]*graphs.Graph{g})
	if err != nil {
		log.Fatal(err)
	}
	// Hop counts; node 4 is 10 × 3 away from the others (FGW's rule).
	c := out[0].Dense()
	for i := range 5 {
		fmt.Println(c.RawRowView(i))
	}

	_, err = graphs.ParseStructure("laplacian")
	fmt.Println(err)
	// Output:
	// [0 1 2 3 30]
	// [1 0 1 2 30]
	// [2 1 0 1 30]
	// [3 2 1 0 30]
	// [30 30 30 30 0]
	// unknown graph structure "laplacian": want "adjacency" (or "adj") or "shortest-path" (or "sp")
}
