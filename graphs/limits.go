package graphs

import (
	"fmt"
	"math"
)

// Limits bounds what a reader will allocate, so that a corrupt or hostile file is refused
// with a clear message before any N×N matrix is made. The zero value means DefaultLimits.
type Limits struct {
	// MaxNodes is the largest number of nodes one graph may have.
	MaxNodes int
	// MaxDenseBytes bounds the memory of one read: all its graphs as stored (sparse
	// adjacency, distributions, features), and each graph's dense N×N adjacency and
	// features, as a reader or a solver's worker holds one at a time.
	MaxDenseBytes int64
}

// DefaultLimits allows graphs of up to 5000 nodes and 4 GiB per read.
var DefaultLimits = Limits{MaxNodes: 5000, MaxDenseBytes: 4 << 30}

// OrDefault is l with its zero (or negative) fields set to DefaultLimits'.
func (l Limits) OrDefault() Limits {
	if l.MaxNodes <= 0 {
		l.MaxNodes = DefaultLimits.MaxNodes
	}
	if l.MaxDenseBytes <= 0 {
		l.MaxDenseBytes = DefaultLimits.MaxDenseBytes
	}
	return l
}

// checkNodes refuses a graph of n nodes that exceeds the limit.
func (l Limits) checkNodes(what string, n int) error {
	l = l.OrDefault()
	if n > l.MaxNodes {
		return fmt.Errorf("%s: %d nodes exceed the limit of %d (raise Limits.MaxNodes, or --max-nodes on the command line)", what, n, l.MaxNodes)
	}
	return nil
}

// nodeBytes is the memory of a graph of n nodes and d features before its edges: its
// distribution, the adjacency's row pointers and the n×d features.
func nodeBytes(n, d int) int64 {
	return 8 * (2*int64(n) + 1 + int64(n)*int64(d))
}

// denseBytes is the memory of an n×n adjacency plus an n×d feature matrix.
func denseBytes(n, d int) int64 {
	return 8 * (int64(n)*int64(n) + int64(n)*int64(d))
}

// BytesOfGiB converts a memory limit given in GiB (the unit of the --max-memory flag) to the
// bytes of Limits.MaxDenseBytes. It rounds up, so that any positive limit, however small,
// stays a limit of at least one byte: a zero field means DefaultLimits. It saturates at
// math.MaxInt64 and gives 0 (the default) for values that are not positive.
func BytesOfGiB(gib float64) int64 {
	b := math.Ceil(gib * (1 << 30))
	switch {
	case !(b > 0):
		return 0
	case b >= math.MaxInt64:
		return math.MaxInt64
	}
	return int64(b)
}
