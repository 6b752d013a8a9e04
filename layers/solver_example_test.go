package layers_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers"
)

// pathSpace is a path on n nodes with the uniform distribution (self-contained for the
// solver examples).
func pathSpace(n int) layers.Space {
	c := mat.NewDense(n, n, nil)
	mu := make([]float64, n)
	for i := range mu {
		mu[i] = 1 / float64(n)
		if i+1 < n {
			c.Set(i, i+1, 1)
			c.Set(i+1, i, 1)
		}
	}
	return layers.Space{C: c, Mu: mu}
}

// Solvers are built by name from plain options, here PPA in its converged mode and CG, the
// conditional-gradient solver with exact OT steps; every result says how feasible its
// transport is. GW is not convex: from each of its starts CG stops at a stationary point (as
// POT's does); on these two paths the lowest of them is below the point PPA reaches.
func ExampleNewSolver() {
	a, b := pathSpace(6), pathSpace(9)
	for _, name := range []layers.SolverName{layers.SolverPPA, layers.SolverCG} {
		o, err := layers.DefaultSolverOptions(name)
		if err != nil {
			panic(err)
		}
		if name == layers.SolverPPA {
			o.Tol, o.Round = 1e-9, true // converged mode, rounded onto Π(μs, μt)
		}
		s, err := layers.NewSolver(o)
		if err != nil {
			panic(err)
		}
		r, err := layers.Discrepancy(s, a, b)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: objective %.4f, feasible to 1e-12: %v\n", name, r.Objective, r.MarginalError < 1e-12)
	}
	_, err := layers.NewSolver(layers.SolverOptions{Name: "ppa", Gamma: 0.01, Layers: 1e9, Inner: 5})
	fmt.Println(err)
	// Output:
	// ppa: objective 0.1543, feasible to 1e-12: true
	// cg: objective 0.1173, feasible to 1e-12: true
	// ppa: invalid input: layers = 1000000000 must be in [1, 100000]
}

// A graph against itself: CG finds the identity, at distance 0; the paper's PPA settings leave
// the columns of T off their marginal.
func ExampleDiscrepancy() {
	a := pathSpace(7)
	a.C.Set(0, 3, 2) // no symmetry left
	a.C.Set(3, 0, 2)
	cg, err := layers.Discrepancy(layers.DefaultCG(), a, a)
	if err != nil {
		panic(err)
	}
	fmt.Printf("cg: %.3g after %d iterations, marginal error %.0g\n", math.Abs(cg.Objective), cg.Layers, cg.MarginalError)
	// Output:
	// cg: 0 after 2 iterations, marginal error 0
}
