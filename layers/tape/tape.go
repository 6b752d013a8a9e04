package tape

import (
	"errors"
	"fmt"
	"runtime"

	"gorgonia.org/gorgonia"
)

// ErrHashCollision marks a graph in which two distinct nodes have the same hash.
var ErrHashCollision = errors.New("two distinct nodes of the expression graph have the same 32-bit hash, which Gorgonia's TapeMachine would merge into one")

// Attempts is how many times Build builds a graph before it gives up: a chance collision
// (probability about n²/2³³ for n nodes) does not survive a rebuild; one that does is
// structural and is reported.
const Attempts = 4

// Check returns an error wrapping ErrHashCollision when two distinct nodes of g share a hash.
// Equal nodes are one node in g already (Gorgonia merges them as they are added).
func Check(g *gorgonia.ExprGraph) error {
	all := g.AllNodes()
	seen := make(map[uint32]*gorgonia.Node, len(all))
	for _, n := range all {
		h := n.Hashcode()
		if o, ok := seen[h]; ok && o != n {
			return fmt.Errorf("%w: %v and %v", ErrHashCollision, o, n)
		}
		seen[h] = n
	}
	return nil
}

// Build calls build until the graph it returns passes Check, at most Attempts times, and
// returns that graph and value; a build error is returned at once, and a collision in every
// attempt as an error wrapping ErrHashCollision. The graphs of failed attempts stay referenced
// until Build returns, so that a rebuild's ops cannot reuse their addresses (and so their
// hashes).
func Build[T any](build func() (*gorgonia.ExprGraph, T, error)) (*gorgonia.ExprGraph, T, error) {
	var failed []*gorgonia.ExprGraph
	defer func() { runtime.KeepAlive(failed) }()
	for attempt := 1; ; attempt++ {
		g, v, err := build()
		if err != nil {
			return nil, v, err
		}
		err = Check(g)
		if err == nil {
			return g, v, nil
		}
		if attempt == Attempts {
			var zero T
			return nil, zero, fmt.Errorf("after %d builds: %w", attempt, err)
		}
		failed = append(failed, g)
	}
}
