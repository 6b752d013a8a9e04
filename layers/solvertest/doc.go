// Package solvertest is the contract every GWD solver of package layers keeps, as a test
// suite a solver's tests run (in the spirit of gonum's graph/testgraph): finite, non-negative
// transports with the row masses of the source; the column masses too where the solver is
// exact; a graph closer to itself than to another; the same result from a reused State as
// from a fresh one; refused shapes; and a steady state that allocates nothing.
package solvertest
