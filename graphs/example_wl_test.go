package graphs_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/csr"
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

func ExampleWLCodesWithEdges() {
	// Ethane's and ethene's carbons, C – C and C = C: bond types as edge labels (the codes
	// of TU labels 1, a single bond, and 2, a double one).
	carbons := func(bond int) *graphs.Graph {
		a := mat.NewDense(2, 2, []float64{0, 1, 1, 0})
		f := mat.NewDense(2, 1, []float64{1, 1})
		g, err := graphs.New("C2", a, nil, f)
		if err != nil {
			log.Fatal(err)
		}
		if g.EdgeLabels, err = csr.FromDense(mat.NewDense(2, 2, []float64{0, graphs.EdgeLabelCode(bond), graphs.EdgeLabelCode(bond), 0})); err != nil {
			log.Fatal(err)
		}
		return g
	}
	single, double := carbons(1), carbons(2)
	plainS, _ := graphs.WLCodes(single, 1)
	plainD, _ := graphs.WLCodes(double, 1)
	withS, err := graphs.WLCodesWithEdges(single, 1)
	if err != nil {
		log.Fatal(err)
	}
	withD, _ := graphs.WLCodesWithEdges(double, 1)
	fmt.Println("plain WL tells the bonds apart:", plainS.At(0, 1) != plainD.At(0, 1))
	fmt.Println("WL with edge labels does:", withS.At(0, 1) != withD.At(0, 1))
	// Output:
	// plain WL tells the bonds apart: false
	// WL with edge labels does: true
}
