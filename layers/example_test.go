package layers_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers"
)

// ring returns the adjacency matrix of a cycle on n nodes and the uniform distribution.
func ring(n int) layers.Space {
	c := mat.NewDense(n, n, nil)
	mu := make([]float64, n)
	for i := 0; i < n; i++ {
		c.Set(i, (i+1)%n, 1)
		c.Set((i+1)%n, i, 1)
		mu[i] = 1 / float64(n)
	}
	return layers.Space{C: c, Mu: mu}
}

// star returns the adjacency of a star on n nodes and the uniform distribution.
func star(n int) layers.Space {
	s := ring(n)
	s.C.Zero()
	for i := 1; i < n; i++ {
		s.C.Set(0, i, 1)
		s.C.Set(i, 0, 1)
	}
	return s
}

// spider returns a tree with legs of lengths 1, 2 and 3 around node 0: it has no symmetry, so
// its optimal self-transport is the identity.
func spider() layers.Space {
	s := star(7)
	s.C.Zero()
	for _, e := range [][2]int{{0, 1}, {0, 2}, {2, 3}, {0, 4}, {4, 5}, {5, 6}} {
		s.C.Set(e[0], e[1], 1)
		s.C.Set(e[1], e[0], 1)
	}
	return s
}

// The GW discrepancy between two graphs with the paper's PPA settings, and the transport.
func ExampleGWD() {
	t, same, err := layers.GWD(layers.DefaultPPA(), spider(), spider())
	if err != nil {
		panic(err)
	}
	_, other, err := layers.GWD(layers.DefaultPPA(), spider(), star(7))
	if err != nil {
		panic(err)
	}
	fmt.Printf("spider-spider %.3f, spider-star %.3f\n", same, other)
	fmt.Printf("T[0][0] = %.3f (all of node 0's mass 1/7 = %.3f)\n", t.At(0, 0), 1.0/7)
	// Output:
	// spider-spider 0.000, spider-star 0.245
	// T[0][0] = 0.143 (all of node 0's mass 1/7 = 0.143)
}
