package layers_test

import (
	"testing"

	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/solvertest"
)

// TestSolversConform runs every solver NewSolver builds, at its defaults and in its converged
// mode, through the contract of package solvertest.
func TestSolversConform(t *testing.T) {
	for _, name := range layers.SolverNames() {
		for _, tol := range []float64{0, 1e-9} {
			o, err := layers.DefaultSolverOptions(name)
			if err != nil {
				t.Fatal(err)
			}
			o.Tol = tol
			s, err := layers.NewSolver(o)
			if err != nil {
				t.Fatal(err)
			}
			// PPA and BADMM meet the row masses every layer; the converged mode and CG (exact
			// OT in every step) meet the columns too.
			c := solvertest.Contract{RowTol: 1e-9}
			if name == "cg" || tol > 0 {
				c.ColTol = 1e-6
			}
			t.Run(string(name)+map[bool]string{true: "/converged", false: ""}[tol > 0], func(t *testing.T) {
				solvertest.Run(t, s, c)
			})
		}
	}
}
