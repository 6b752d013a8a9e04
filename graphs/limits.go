package graphs

import (
	"errors"
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

// DefaultLimits returns the limits that the zero Limits stands for: graphs of up to 5000
// nodes and 4 GiB per read.
func DefaultLimits() Limits { return Limits{MaxNodes: 5000, MaxDenseBytes: 4 << 30} }

// OrDefault is l with its zero (or negative) fields set to DefaultLimits'.
func (l Limits) OrDefault() Limits {
	if l.MaxNodes <= 0 {
		l.MaxNodes = DefaultLimits().MaxNodes
	}
	if l.MaxDenseBytes <= 0 {
		l.MaxDenseBytes = DefaultLimits().MaxDenseBytes
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

// MaxValue is the largest magnitude of an edge weight or node feature the readers accept. The
// solvers square such values, sum them over up to N² node pairs, and build shortest paths and
// degrees that add up N of them: all must stay finite in float64, as 5000 nodes' shortest
// paths of 1e100 do, squared and summed over all pairs (1e214). A weight of 1e308 passed
// the readers and came out of a solver as +Inf or NaN.
const MaxValue = 1e100

// tooLargeValue says that x is larger in magnitude than MaxValue, after what names it ("weight ").
func tooLargeValue(x float64) string {
	return fmt.Sprintf("%v, larger in magnitude than %g, the most gwf accepts (the solvers square such values and sum them over all pairs of nodes, which must stay finite)", x, MaxValue)
}

// boundedValues refuses a graph with an adjacency entry or a node feature larger in magnitude
// than MaxValue, naming it by position as entry and feature write it: for formats whose
// values are positional (gwf's JSON form, NumPy files).
func boundedValues(label string, g *Graph, entry, feature func(i, j int) string) error {
	for i := range g.N() {
		cols, vals := g.A.Row(i)
		for p, v := range vals {
			if math.Abs(v) > MaxValue {
				return invalidf(label, "%s is %s", entry(i, int(cols[p])), tooLargeValue(v))
			}
		}
		if g.F != nil {
			for j, v := range g.F.RawRowView(i) {
				if math.Abs(v) > MaxValue {
					return invalidf(label, "%s is %s", feature(i, j), tooLargeValue(v))
				}
			}
		}
	}
	return nil
}

// Shares of Limits.MaxDenseBytes that a reader's text may take: 1/jsonTextShare for JSON,
// 1/markupTextShare for GraphML, GML, GEXF and adjacency lists. A JSON reader holds the whole
// text, in a buffer that grows by doubling where the size is not known (up to three times
// the text, for a moment); the XML decoder holds one token (a text, a comment), which may be
// as long as the input, the same way and copies it (four times). What they decode needs the
// rest.
const (
	jsonTextShare   = 4
	markupTextShare = 8
)

// textBound is the most bytes of text a reader takes, and the command-line flag of the limit
// that sets it, for the message of a larger input.
type textBound struct {
	bytes int64
	flag  string // "--max-memory" or "--max-nodes"
}

// newTextBound bounds the text of a graph at byNodes bytes (what a graph of lim.MaxNodes nodes
// needs) and at 1/share of lim.MaxDenseBytes, plus jsonSlack for small graphs in verbose
// markup.
func newTextBound(lim Limits, byNodes, share int64) textBound {
	lim = lim.OrDefault()
	b := textBound{bytes: byNodes, flag: "--max-nodes"}
	if byMemory := lim.MaxDenseBytes / share; byMemory < byNodes {
		b = textBound{bytes: byMemory, flag: "--max-memory"}
	}
	b.bytes = min(b.bytes, math.MaxInt64-jsonSlack) + jsonSlack
	return b
}

// tooLarge is the error of an input, named label, larger than b.
func (b textBound) tooLarge(label string, lim Limits) error {
	if b.flag == "--max-memory" {
		return fmt.Errorf("%s: input is larger than %d bytes, more text than a read within the memory limit of %d bytes may hold (raise Limits.MaxDenseBytes, or --max-memory on the command line)",
			label, b.bytes, lim.OrDefault().MaxDenseBytes)
	}
	return fmt.Errorf("%s: input is larger than %d bytes, more than a graph of at most %d nodes needs (raise Limits.MaxNodes, or --max-nodes on the command line)",
		label, b.bytes, lim.OrDefault().MaxNodes)
}

// readError is the error of reading the input named label: a compressed file that expands
// past its bound says so itself.
func readError(label string, err error) error {
	var big *decompressedTooLarge
	if errors.As(err, &big) {
		return fmt.Errorf("%s: %w", label, err)
	}
	return fmt.Errorf("%s: reading: %w", label, err)
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
