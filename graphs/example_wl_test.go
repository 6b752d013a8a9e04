package graphs_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

func ExampleWLCodes() {
	// The path C – C – C – O, its node labels one-hot (column 0: C, column 1: O).
	a := mat.NewDense(4, 4, nil)
	for i := range 3 {
		a.Set(i, i+1, 1)
		a.Set(i+1, i, 1)
	}
	f := mat.NewDense(4, 2, []float64{1, 0, 1, 0, 1, 0, 0, 1})
	g, err := graphs.New("C-C-C-O", a, nil, f)
	if err != nil {
		log.Fatal(err)
	}
	codes, err := graphs.WLCodes(g, 2)
	if err != nil {
		log.Fatal(err)
	}
	// Codes are arbitrary; print which nodes share one, iteration by iteration.
	for t := range 3 {
		same := map[float64]int{}
		var classes []int
		for v := range 4 {
			c := codes.At(v, t)
			if _, ok := same[c]; !ok {
				same[c] = len(same)
			}
			classes = append(classes, same[c])
		}
		fmt.Println("iteration", t, classes)
	}
	// Output:
	// iteration 0 [0 0 0 1]
	// iteration 1 [0 1 2 3]
	// iteration 2 [0 1 2 3]
}
