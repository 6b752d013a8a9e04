package graphs

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// tuBytesPerEdgeLabel is what an edge label adds to a kept adjacency line: its code while
// reading (8 bytes, with room for the slice's growth) and its place in the label matrix (12).
const tuBytesPerEdgeLabel = 2*8 + 12

// tuEdges are the kept lines of the adjacency file: keys (u−1)<<32 | (v−1) of 0-based global
// node ids, sorted and without repeats, with their edge-label codes when read (else nil).
type tuEdges struct {
	keys  []uint64
	codes []float64
	lines int // of the adjacency file, kept or not
}

func (e *tuEdges) Len() int           { return len(e.keys) }
func (e *tuEdges) Less(i, j int) bool { return e.keys[i] < e.keys[j] }
func (e *tuEdges) Swap(i, j int) {
	e.keys[i], e.keys[j] = e.keys[j], e.keys[i]
	e.codes[i], e.codes[j] = e.codes[j], e.codes[i]
}

// sortCompact sorts the keys and drops repeats; a repeated line keeps the label of its first.
func (e *tuEdges) sortCompact() {
	if e.codes == nil {
		slices.Sort(e.keys)
		e.keys = slices.Compact(e.keys)
		return
	}
	sort.Stable(e)
	w := 0
	for i, k := range e.keys {
		if i > 0 && k == e.keys[w-1] {
			continue
		}
		e.keys[w], e.codes[w] = k, e.codes[i]
		w++
	}
	e.keys, e.codes = e.keys[:w], e.codes[:w]
}

// readEdgeLabels reads one edge label per line of the adjacency file (one integer, or a few
// columns of them as node labels may have), as EdgeLabelCode codes. used is the memory already
// held; the codes of all lines must fit beside it.
func (r *tuReader) readEdgeLabels(f tuFile, used int64, lim Limits) ([]float64, error) {
	maxLines := max(lim.MaxDenseBytes-used, 0) / 8
	var codes []float64
	parse := tuNodeLabels{what: "edge"}
	_, err := r.eachLine(f, func(line int, text string) error {
		if int64(len(codes)) >= maxLines {
			return fmt.Errorf("more than %d edge labels: with the graphs' nodes, over the limit of %s (raise Limits.MaxDenseBytes, or --max-memory on the command line)", maxLines, tuBytes(lim.MaxDenseBytes))
		}
		v, err := parse.parse(text)
		if err != nil {
			return err
		}
		codes = append(codes, EdgeLabelCode(v))
		return nil
	})
	return codes, err
}

// readEdges reads the kept lines "u, v" of the adjacency file, with the codes of lineLabels
// (one per line; nil: no labels): C[u][v] = 1 for each, set rather than added, so repeated
// lines are harmless (IMDB-BINARY lists every entry twice). The direction is kept as written:
// TU files already hold both directions of an undirected edge. Sorted global ids are sorted by
// graph, then row, then column: adjacency cuts them into the graphs' rows. Each kept line
// costs memory until the graphs are built: with the nodes' (used bytes), they must stay
// within the limit.
func (r *tuReader) readEdges(f tuFile, used int64, lim Limits, lineLabels []float64) (*tuEdges, error) {
	e := &tuEdges{}
	perEdge := int64(tuBytesPerEdge)
	if lineLabels != nil {
		perEdge += tuBytesPerEdgeLabel
		e.codes = []float64{}
	}
	maxEdges := max(lim.MaxDenseBytes-used, 0) / perEdge
	var kept int64
	n := r.starts[len(r.starts)-1]
	if int64(n) > math.MaxUint32 {
		return nil, fmt.Errorf("%s: %d nodes: more than the reader can number", f.label, n)
	}
	// graphOf finds the 0-based graph of a 0-based node. Lines are sorted by node in practice, so
	// the graph of the previous line is tried first.
	last := 0
	graphOf := func(u int) int {
		if r.starts[last] <= u && u < r.starts[last+1] {
			return last
		}
		last = sort.Search(len(r.starts)-1, func(g int) bool { return r.starts[g+1] > u })
		return last
	}
	lines, err := r.eachLine(f, func(line int, text string) error {
		a, b, ok := strings.Cut(text, ",")
		if !ok || strings.Contains(b, ",") {
			return fmt.Errorf("%d comma-separated fields, want 2 (\"row, col\")", strings.Count(text, ",")+1)
		}
		u, err := tuInt(a, 1)
		if err != nil {
			return err
		}
		v, err := tuInt(b, 2)
		if err != nil {
			return err
		}
		for _, x := range []int{u, v} {
			if x < 1 || x > n {
				return fmt.Errorf("node id %d out of range 1..%d", x, n)
			}
		}
		gu := graphOf(u - 1)
		gv := graphOf(v - 1)
		if gu != gv {
			return fmt.Errorf("edge %d, %d crosses graphs: node %d is in graph %d, node %d in graph %d", u, v, u, gu+1, v, gv+1)
		}
		// Blank lines are refused before the end of a file, so line l is data line l.
		if lineLabels != nil && line > len(lineLabels) {
			return fmt.Errorf("no edge label for this line: the edge labels file has %d lines", len(lineLabels))
		}
		if r.pos[gu] >= 0 {
			if kept++; kept > maxEdges {
				return fmt.Errorf("more than %d edge lines in the graphs kept: with their nodes, over the limit of %s (raise Limits.MaxDenseBytes, or --max-memory on the command line)", maxEdges, tuBytes(lim.MaxDenseBytes))
			}
			e.keys = append(e.keys, uint64(u-1)<<32|uint64(v-1))
			if lineLabels != nil {
				e.codes = append(e.codes, lineLabels[line-1])
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	e.lines = lines
	e.sortCompact()
	return e, nil
}

// adjacency cuts the sorted edges of readEdges into the kept graphs' matrices (index k of
// r.keep), and their edge-label matrices when e has codes (else nil).
func (r *tuReader) adjacency(e *tuEdges) (adj, labels []*csr.Matrix, err error) {
	adj = make([]*csr.Matrix, len(r.keep))
	if e.codes != nil {
		labels = make([]*csr.Matrix, len(r.keep))
	}
	keys := e.keys
	p := 0
	for g := 0; g < len(r.starts)-1; g++ {
		k := r.pos[g]
		if k < 0 {
			continue
		}
		lo, hi := r.starts[g], r.starts[g+1]
		q := p
		for q < len(keys) && int(keys[q]>>32) < hi {
			q++
		}
		n := hi - lo
		rowPtr := make([]int, n+1)
		col := make([]int32, q-p)
		val := make([]float64, q-p)
		for j, key := range keys[p:q] {
			rowPtr[int(key>>32)-lo+1]++
			col[j] = int32(int(key&math.MaxUint32) - lo)
			val[j] = 1
		}
		for i := 0; i < n; i++ {
			rowPtr[i+1] += rowPtr[i]
		}
		m, err := csr.New(n, rowPtr, col, val)
		if err != nil {
			return nil, nil, fmt.Errorf("graph %s#%d: %w", r.name, g+1, err)
		}
		adj[k] = m
		if labels != nil {
			// The same pattern, sharing the row offsets and columns (matrices are immutable).
			if labels[k], err = csr.New(n, rowPtr, col, slices.Clone(e.codes[p:q])); err != nil {
				return nil, nil, fmt.Errorf("graph %s#%d: edge labels: %w", r.name, g+1, err)
			}
		}
		p = q
	}
	return adj, labels, nil
}
