package layers

import (
	"fmt"
	"slices"
	"strings"
)

// SolverName names a GWD solver that NewSolver builds. Configurations, model files and reports
// store it as its string. A flag holds a plain string, turned into a SolverName once where the
// flag is read: by ParseSolverName, or by a conversion that leaves the check to NewSolver.
type SolverName string

// The solvers NewSolver builds.
const (
	SolverPPA   SolverName = "ppa"   // PPA, the proximal point module (Algorithm 1)
	SolverBADMM SolverName = "badmm" // BADMM, the Bregman ADMM module (Algorithm 2)
	SolverCG    SolverName = "cg"    // CG, conditional gradient with exact OT steps
)

// SolverNames lists the solvers NewSolver builds.
func SolverNames() []SolverName { return []SolverName{SolverPPA, SolverBADMM, SolverCG} }

// Valid reports whether n names a solver NewSolver builds.
func (n SolverName) Valid() bool { return slices.Contains(SolverNames(), n) }

// ParseSolverName returns the solver named s, or an error wrapping ErrInput that lists the
// names.
func ParseSolverName(s string) (SolverName, error) {
	if n := SolverName(s); n.Valid() {
		return n, nil
	}
	return "", unknownSolver(SolverName(s))
}

// unknownSolver is the error of a name that is no solver's.
func unknownSolver(name SolverName) error {
	all := SolverNames()
	names := make([]string, len(all))
	for i, n := range all {
		names[i] = string(n)
	}
	return fmt.Errorf("%w: unknown solver %q (want %s)", ErrInput, name, strings.Join(names, ", "))
}
