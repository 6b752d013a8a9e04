package graphs

import (
	"fmt"
	"math"
	"strings"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// Structure names the matrix a graph is compared by: the structure matrix C of the
// Gromov–Wasserstein cost. The zero value "" means Adjacency.
type Structure string

const (
	// Adjacency compares graphs by their adjacency matrices, C = A (the paper's choice).
	Adjacency Structure = "adjacency"
	// ShortestPath compares graphs by the lengths of the shortest paths between their nodes,
	// the choice of FGW (Vayer et al., ICML 2019) and GDL (Vincent-Cuaz et al., ICML 2021).
	ShortestPath Structure = "shortest-path"
)

// structureChoices lists the names ParseStructure accepts, for its error message.
const structureChoices = `"adjacency" (or "adj") or "shortest-path" (or "sp")`

// ParseStructure reads a structure name: "adjacency" or "adj", "shortest-path" or "sp", in
// any case and with surrounding spaces ignored. Any other name is an error listing the choices.
func ParseStructure(s string) (Structure, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "adjacency", "adj":
		return Adjacency, nil
	case "shortest-path", "sp":
		return ShortestPath, nil
	}
	return "", fmt.Errorf("unknown graph structure %q: want %s", s, structureChoices)
}

// Apply returns the graphs with the structure s, under DefaultLimits: see ApplyWithin.
func (s Structure) Apply(data []*Graph) ([]*Graph, error) {
	return s.ApplyWithin(data, Limits{})
}

// Fits returns nil when the matrices of structure s for data fit within lim (a zero limit
// means DefaultLimits'), else an error that says which graph goes over: the shortest-path
// matrices are dense, about 12·N² bytes per graph of N nodes, and count together.
func (s Structure) Fits(data []*Graph, lim Limits) error {
	if s != ShortestPath {
		return nil
	}
	lim = lim.OrDefault()
	var total int64
	for i, g := range data {
		if g == nil || g.A == nil {
			return fmt.Errorf("shortest paths: graph %d has no adjacency matrix", i)
		}
		b := shortestPathBytes(g.N())
		if total += b; b > lim.MaxDenseBytes || total > lim.MaxDenseBytes {
			return fmt.Errorf("shortest paths: the dense shortest-path matrices of the "+
				"first %d graphs (through %q, %d nodes) need more than the limit of %s (raise "+
				"Limits.MaxDenseBytes, or --max-memory on the command line)",
				i+1, g.Name, g.N(), formatBytes(lim.MaxDenseBytes))
		}
	}
	return nil
}

// ApplyWithin returns the graphs with the structure s: data itself for Adjacency (and for
// the zero value), a new slice of new graphs (ShortestPathsWithin of each) for ShortestPath.
// data is never changed. The shortest-path matrices' total is checked against lim (Fits)
// before any is computed. The work is O(N·E log N) per graph, done here,
// without a context: it is meant to run once, after the graphs are read.
func (s Structure) ApplyWithin(data []*Graph, lim Limits) ([]*Graph, error) {
	switch s {
	case Adjacency, "":
		return data, nil
	case ShortestPath:
	default:
		return nil, fmt.Errorf("unknown graph structure %q: want %s", string(s), structureChoices)
	}
	if err := s.Fits(data, lim); err != nil {
		return nil, err
	}
	out := make([]*Graph, len(data))
	for i, g := range data {
		sp, err := ShortestPathsWithin(g, lim)
		if err != nil {
			return nil, fmt.Errorf("graph %d: %w", i, err)
		}
		out[i] = sp
	}
	return out, nil
}

// ShortestPaths is ShortestPathsWithin under DefaultLimits.
func ShortestPaths(g *Graph) (*Graph, error) {
	return ShortestPathsWithin(g, Limits{})
}

// ShortestPathsWithin returns a copy of g whose A is the matrix of shortest-path lengths
// between its nodes, FGW's structure matrix (tvayer/FGW, lib/graph.py, distance_matrix):
//
//   - Edge weights are lengths; an unweighted graph (every edge of weight 1) gives hop
//     counts, found by breadth-first search, and a weighted one Dijkstra's distances.
//   - A weight of zero is no edge (the csr matrix does not store zeros), so every edge has
//     a positive length and every path between distinct nodes a positive length.
//   - A directed graph is read as undirected: nodes u and v are joined when (u, v) or (v, u)
//     is an edge, with the smaller of the two weights where both are; self-loops are ignored.
//   - The diagonal is 0. Nodes in different components, whose distance is infinite, are
//     given 10 times the largest finite distance of the graph, as FGW's code does, or 1 when
//     the graph has no edge at all (FGW's rule would give 0, erasing the pair).
//
// The result is symmetric with a positive off-diagonal, hence dense: N·(N−1) stored entries,
// about 12·N² bytes, which must not exceed lim.MaxDenseBytes (a zero limit means
// DefaultLimits'; MaxNodes is not consulted, the graph being already in memory). The size is
// checked before anything is allocated. Lengths that overflow float64 are an error.
//
// Name, Label and HasLabel are copied; Mu and F are shared with g, not copied. g is not
// changed. The result is validated. The work is O(N·(N+E) log N), O(N·(N+E)) when unweighted.
func ShortestPathsWithin(g *Graph, lim Limits) (*Graph, error) {
	if g == nil {
		return nil, fmt.Errorf("shortest paths: no graph")
	}
	if g.A == nil {
		return nil, fmt.Errorf("graph %q: shortest paths: %w: no adjacency matrix", g.Name, ErrInvalid)
	}
	lim = lim.OrDefault()
	n := g.N()
	if b := shortestPathBytes(n); b > lim.MaxDenseBytes {
		return nil, fmt.Errorf("graph %q: shortest paths: the dense matrix of %d nodes needs %s, "+
			"over the limit of %s (raise Limits.MaxDenseBytes, or --max-memory on the command "+
			"line)", g.Name, n, formatBytes(b), formatBytes(lim.MaxDenseBytes))
	}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("shortest paths: %w", err)
	}
	a, err := undirected(g.A).lengths()
	if err != nil {
		return nil, fmt.Errorf("graph %q: shortest paths: %w", g.Name, err)
	}
	sp, err := NewSparse(g.Name, a, g.Mu, g.F)
	if err != nil {
		return nil, fmt.Errorf("shortest paths: %w", err)
	}
	sp.Label, sp.HasLabel = g.Label, g.HasLabel
	return sp, nil
}

// shortestPathBytes is the memory of the shortest-path matrix of n nodes, stored as a csr
// matrix with every off-diagonal entry (more than the 8·N² of a dense copy); it saturates at
// math.MaxInt64 instead of overflowing.
func shortestPathBytes(n int) int64 {
	if n <= 1 {
		return csr.Bytes(n, 0)
	}
	if b := 12*float64(n)*float64(n-1) + 8*float64(n+1); b >= math.MaxInt64/2 {
		return math.MaxInt64
	}
	return csr.Bytes(n, n*(n-1))
}

// formatBytes writes a memory size in bytes and MiB.
func formatBytes(b int64) string {
	return fmt.Sprintf("%d bytes (%.1f MiB)", b, float64(b)/(1<<20))
}

// adjacencyLists is an undirected graph in compressed rows: the neighbours of u are
// col[ptr[u]:ptr[u+1]], at distances w[...]. unit says every weight is 1.
type adjacencyLists struct {
	ptr  []int
	col  []int32
	w    []float64
	unit bool
}

// undirected merges the rows of a and of its transpose: u and v are neighbours when either
// (u, v) or (v, u) is stored, at the smaller weight where both are. The diagonal is dropped.
func undirected(a *csr.Matrix) *adjacencyLists {
	n := a.N()
	t := a.Transpose()
	l := &adjacencyLists{ptr: make([]int, n+1), unit: true}
	l.col = make([]int32, 0, 2*a.NNZ())
	l.w = make([]float64, 0, 2*a.NNZ())
	add := func(u int, v int32, x float64) {
		if int(v) == u {
			return
		}
		l.col, l.w = append(l.col, v), append(l.w, x)
		l.unit = l.unit && x == 1
	}
	for u := 0; u < n; u++ {
		ac, av := a.Row(u)
		tc, tv := t.Row(u)
		p, q := 0, 0
		for p < len(ac) || q < len(tc) {
			switch {
			case q == len(tc) || (p < len(ac) && ac[p] < tc[q]):
				add(u, ac[p], av[p])
				p++
			case p == len(ac) || tc[q] < ac[p]:
				add(u, tc[q], tv[q])
				q++
			default: // both directions: the shorter one
				add(u, ac[p], math.Min(av[p], tv[q]))
				p, q = p+1, q+1
			}
		}
		l.ptr[u+1] = len(l.col)
	}
	return l
}

// components labels each node with the index of its connected component.
func (l *adjacencyLists) components() []int32 {
	n := len(l.ptr) - 1
	comp := make([]int32, n)
	for i := range comp {
		comp[i] = -1
	}
	queue := make([]int32, 0, n)
	var c int32
	for s := range n {
		if comp[s] >= 0 {
			continue
		}
		comp[s] = c
		queue = append(queue[:0], int32(s))
		for h := 0; h < len(queue); h++ {
			u := queue[h]
			for _, v := range l.col[l.ptr[u]:l.ptr[u+1]] {
				if comp[v] < 0 {
					comp[v] = c
					queue = append(queue, v)
				}
			}
		}
		c++
	}
	return comp
}

// lengths returns the shortest-path lengths as a csr matrix of all n·(n−1) off-diagonal
// entries, computed source by source into one scratch row, so that the matrix is the only
// O(n²) memory; the length between u < v is the one found from u, in both rows. Lengths
// between components are replaced, at the end, by 10 times the largest finite length (1 when
// there is none). A length that overflows (a path within a component whose sum is not
// finite) is an error.
func (l *adjacencyLists) lengths() (*csr.Matrix, error) {
	n := len(l.ptr) - 1
	nnz := n * (n - 1)
	rowPtr := make([]int, n+1)
	col := make([]int32, 0, nnz)
	val := make([]float64, 0, nnz)
	comp := l.components()
	row := make([]float64, n)
	queue := make([]int32, 0, n)
	var h distHeap
	largest, split := 0.0, false
	for s := range n {
		for i := range row {
			row[i] = math.Inf(1)
		}
		row[s] = 0
		if l.unit {
			l.bfs(s, row, queue)
		} else {
			l.dijkstra(s, row, &h)
		}
		for v, d := range row {
			if v < s {
				// The length from v, computed first: sums taken in the other order may
				// round differently, and the matrix must be exactly symmetric.
				d = val[v*(n-1)+s-1]
			}
			if v == s {
				continue
			}
			if math.IsInf(d, 1) {
				if comp[v] == comp[s] {
					return nil, fmt.Errorf("the length of the shortest path from node %d to "+
						"node %d overflows float64", s, v)
				}
				split = true
			} else {
				largest = math.Max(largest, d)
			}
			col, val = append(col, int32(v)), append(val, d)
		}
		rowPtr[s+1] = len(col)
	}
	if split {
		far := 1.0
		if largest > 0 {
			far = 10 * largest
		}
		if math.IsInf(far, 1) {
			return nil, fmt.Errorf("10 × the largest distance %v, the distance given between "+
				"components, overflows float64", largest)
		}
		for p, d := range val {
			if math.IsInf(d, 1) {
				val[p] = far
			}
		}
	}
	return csr.New(n, rowPtr, col, val)
}

// bfs sets row[v] to the number of hops from s to v for the nodes v reachable from s; row
// holds +Inf elsewhere and 0 at s. queue is scratch space of capacity n.
func (l *adjacencyLists) bfs(s int, row []float64, queue []int32) {
	queue = append(queue[:0], int32(s))
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		du := row[u] + 1
		for _, v := range l.col[l.ptr[u]:l.ptr[u+1]] {
			if math.IsInf(row[v], 1) {
				row[v] = du
				queue = append(queue, v)
			}
		}
	}
}

// dijkstra sets row[v] to the length of the shortest path from s to v for the nodes v
// reachable from s; row holds +Inf elsewhere and 0 at s. h is a scratch heap. Entries are
// pushed again when improved and skipped when popped stale, O(E log E) in all.
func (l *adjacencyLists) dijkstra(s int, row []float64, h *distHeap) {
	*h = (*h)[:0]
	h.push(heapItem{0, int32(s)})
	for len(*h) > 0 {
		it := h.pop()
		u := it.node
		if it.dist > row[u] {
			continue // stale: u was reached by a shorter path since
		}
		for p := l.ptr[u]; p < l.ptr[u+1]; p++ {
			v := l.col[p]
			if d := it.dist + l.w[p]; d < row[v] {
				row[v] = d
				h.push(heapItem{d, v})
			}
		}
	}
}

// heapItem is a tentative distance to a node.
type heapItem struct {
	dist float64
	node int32
}

// distHeap is a binary min-heap of tentative distances.
type distHeap []heapItem

// push adds it to the heap.
func (h *distHeap) push(it heapItem) {
	*h = append(*h, it)
	a := *h
	i := len(a) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if a[parent].dist <= a[i].dist {
			break
		}
		a[parent], a[i] = a[i], a[parent]
		i = parent
	}
}

// pop removes and returns the item of least distance; the heap must not be empty.
func (h *distHeap) pop() heapItem {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(a) {
			break
		}
		if c+1 < len(a) && a[c+1].dist < a[c].dist {
			c++
		}
		if a[i].dist <= a[c].dist {
			break
		}
		a[i], a[c] = a[c], a[i]
		i = c
	}
	*h = a
	return top
}
