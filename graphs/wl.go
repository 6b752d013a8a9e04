package graphs

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// MaxWLIterations bounds the Weisfeiler-Lehman refinements of WLCodes (FGW and the WL kernel
// use 1 to 4; each adds a column per node).
const MaxWLIterations = 10

// codeBits keeps codes exact as float64 values.
const codeBits = 52

// WLCodes returns the node labels of g refined by h iterations of Weisfeiler-Lehman (the
// relabelling of Shervashidze et al., JMLR 2011, as FGW uses it): a new N×(h+1) matrix whose
// column t holds each node's label after t iterations, as a code. Column 0 codes the node's
// feature row (meaningful for categorical features: one-hot node labels); a graph without
// features starts with one label for all nodes. Iteration t codes the pair (the node's label,
// the sorted labels of its neighbours — the nodes its row of A reaches) of iteration t−1, so
// two nodes of any graphs share a code exactly when their labelled t-hop neighbourhood trees
// are the same (up to collisions of a 52-bit hash, which hold no dictionary, so unseen graphs
// get the codes of the graphs seen before). Codes compare with layers.Hamming.
func WLCodes(g *Graph, h int) (*mat.Dense, error) {
	return wlCodes(g, h, false)
}

// WLCodesWithEdges is WLCodes with the edges' labels (Graph.EdgeLabels, which g must have):
// iteration t codes the pair (the node's label, the sorted pairs of each neighbour's label
// and the label of the edge to it), as the WL kernels of labelled molecules do, so that a
// double bond and a single bond to the same atom type differ from the first iteration on.
func WLCodesWithEdges(g *Graph, h int) (*mat.Dense, error) {
	if g.EdgeLabels == nil {
		return nil, fmt.Errorf("graph %q: no edge labels for Weisfeiler-Lehman labels with edge labels", g.Name)
	}
	return wlCodes(g, h, true)
}

func wlCodes(g *Graph, h int, edges bool) (*mat.Dense, error) {
	if h < 0 || h > MaxWLIterations {
		return nil, fmt.Errorf("graph %q: Weisfeiler-Lehman iterations = %d must be in [0, %d]", g.Name, h, MaxWLIterations)
	}
	n := g.N()
	codes := mat.NewDense(n, h+1, nil)
	prev, next := make([]uint64, n), make([]uint64, n)
	for v := range n {
		var row []float64
		if g.F != nil {
			row = g.F.RawRowView(v)
		}
		prev[v] = hashCodes(0, floatBits(row))
		codes.Set(v, 0, float64(prev[v]))
	}
	var nb []uint64
	edge := make([]uint64, 1)
	for t := 1; t <= h; t++ {
		for v := range n {
			cols, _ := g.A.Row(v)
			nb = nb[:0]
			if edges {
				_, labels := g.EdgeLabels.Row(v)
				for p, u := range cols {
					edge[0] = math.Float64bits(labels[p])
					nb = append(nb, hashCodes(prev[u], edge))
				}
			} else {
				for _, u := range cols {
					nb = append(nb, prev[u])
				}
			}
			slices.Sort(nb)
			next[v] = hashCodes(prev[v], nb)
			codes.Set(v, t, float64(next[v]))
		}
		prev, next = next, prev
	}
	return codes, nil
}

// WithWLCodes returns copies of data whose node features are their WLCodes with h iterations
// (the adjacency and distribution are shared, not copied).
func WithWLCodes(data []*Graph, h int) ([]*Graph, error) {
	return withWL(data, h, WLCodes)
}

// WithWLEdgeCodes is WithWLCodes with WLCodesWithEdges: every graph needs edge labels.
func WithWLEdgeCodes(data []*Graph, h int) ([]*Graph, error) {
	return withWL(data, h, WLCodesWithEdges)
}

func withWL(data []*Graph, h int, codes func(*Graph, int) (*mat.Dense, error)) ([]*Graph, error) {
	out := make([]*Graph, len(data))
	for i, g := range data {
		f, err := codes(g, h)
		if err != nil {
			return nil, err
		}
		c := *g
		c.F = f
		out[i] = &c
	}
	return out, nil
}

// Categorical reports whether the node features of data are categorical codes in one-hot (or
// multi-hot) form: present on every graph and every entry 0 or 1, as --features labels makes
// them; Weisfeiler-Lehman refinement is meaningful on them.
func Categorical(data []*Graph) bool {
	if len(data) == 0 {
		return false
	}
	for _, g := range data {
		if g.F == nil {
			return false
		}
		r, c := g.F.Dims()
		for i := range r {
			for _, v := range g.F.RawRowView(i)[:c] {
				if v != 0 && v != 1 {
					return false
				}
			}
		}
	}
	return true
}

// floatBits are the bit patterns of row, with −0 read as 0.
func floatBits(row []float64) []uint64 {
	out := make([]uint64, len(row))
	for i, v := range row {
		if v != 0 {
			out[i] = math.Float64bits(v)
		}
	}
	return out
}

// hashCodes is the FNV-1a hash of own then rest, cut to codeBits bits.
func hashCodes(own uint64, rest []uint64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], own)
	h.Write(b[:])
	binary.LittleEndian.PutUint64(b[:], uint64(len(rest)))
	h.Write(b[:])
	for _, c := range rest {
		binary.LittleEndian.PutUint64(b[:], c)
		h.Write(b[:])
	}
	return h.Sum64() >> (64 - codeBits)
}
