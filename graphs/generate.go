package graphs

// Seeded random graph generators. Each takes its own *rand.Rand, so the same seed gives the
// same graph and no generator touches global state. All graphs get the uniform Mu.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// genMaxNodes bounds the generators' node count: their graphs are dense N×N matrices, and
// 65536 nodes already take 32 GiB.
const genMaxNodes = 1 << 16

// BarabasiAlbert returns an undirected Barabási–Albert graph of n nodes: it starts from a
// clique on the nodes 0..m (m(m+1)/2 edges, every node of degree m), then each further node
// attaches to m distinct existing nodes, chosen with probability proportional to their degree.
// So it has m(m+1)/2 + m(n−m−1) edges, every node has degree at least m, the adjacency is
// symmetric 0/1 and there are no self-loops. It needs 1 ≤ m < n.
func BarabasiAlbert(n, m int, rng *rand.Rand) (*Graph, error) {
	edges, err := baEdges(n, m, rng)
	if err != nil {
		return nil, err
	}
	c := mat.NewDense(n, n, nil)
	for _, e := range edges {
		c.Set(e[0], e[1], 1)
		c.Set(e[1], e[0], 1)
	}
	return New(fmt.Sprintf("BA(n=%d,m=%d)", n, m), c, nil, nil)
}

// DirectedBarabasiAlbert runs the process of BarabasiAlbert (attachment proportional to
// in- plus out-degree) but orients every edge from the newer node to the older one:
// C[new][old] = 1, and within the seed clique from the higher id to the lower. No pair is
// linked both ways, so Symmetrized of the result is an undirected Barabási–Albert graph — the
// very graph BarabasiAlbert returns for a generator in the same state.
func DirectedBarabasiAlbert(n, m int, rng *rand.Rand) (*Graph, error) {
	edges, err := baEdges(n, m, rng)
	if err != nil {
		return nil, err
	}
	c := mat.NewDense(n, n, nil)
	for _, e := range edges {
		c.Set(e[0], e[1], 1)
	}
	return New(fmt.Sprintf("directed BA(n=%d,m=%d)", n, m), c, nil, nil)
}

// baEdges runs preferential attachment and returns the edges as (newer, older) pairs in the
// order they were made.
func baEdges(n, m int, rng *rand.Rand) ([][2]int, error) {
	switch {
	case rng == nil:
		return nil, errors.New("Barabási–Albert: nil random generator")
	case m < 1:
		return nil, fmt.Errorf("Barabási–Albert: m = %d, want at least 1 edge per new node", m)
	case n < 1 || m >= n:
		return nil, fmt.Errorf("Barabási–Albert: n = %d nodes with m = %d, want n > m (the seed clique has m+1 nodes)", n, m)
	case n > genMaxNodes:
		return nil, fmt.Errorf("Barabási–Albert: n = %d nodes, more than the %d a dense generator allows", n, genMaxNodes)
	}
	edges := make([][2]int, 0, m*(m+1)/2+m*(n-m-1))
	// ends lists both endpoints of every edge, so that a uniform pick from it is a pick
	// proportional to degree.
	ends := make([]int, 0, 2*cap(edges))
	for i := 1; i <= m; i++ {
		for j := 0; j < i; j++ {
			edges = append(edges, [2]int{i, j})
			ends = append(ends, i, j)
		}
	}
	chosen := make([]int, 0, m)
	taken := make([]bool, n)
	for v := m + 1; v < n; v++ {
		// Rejection of repeats keeps the targets distinct; at least m+1 nodes are candidates,
		// so it ends.
		chosen = chosen[:0]
		for len(chosen) < m {
			u := ends[rng.IntN(len(ends))]
			if !taken[u] {
				taken[u] = true
				chosen = append(chosen, u)
			}
		}
		// The new node's edges join ends only now, so it cannot pick itself.
		for _, u := range chosen {
			taken[u] = false
			edges = append(edges, [2]int{v, u})
			ends = append(ends, v, u)
		}
	}
	return edges, nil
}

// Symmetrized returns a new graph with adjacency C + Cᵀ and copies of g's Mu, features and
// label. For a directed graph without reciprocal edges (DirectedBarabasiAlbert) that is its
// undirected version; weights of edges present both ways add up, so an undirected graph comes
// back doubled.
func Symmetrized(g *Graph) *Graph {
	n := g.N()
	c := mat.NewDense(n, n, nil)
	d := g.Dense()
	c.Add(d, d.T())
	a, _ := csr.FromDense(c) // square
	s := &Graph{Name: g.Name, A: a, Mu: slices.Clone(g.Mu), Label: g.Label, HasLabel: g.HasLabel}
	if g.F != nil {
		s.F = mat.DenseCopyOf(g.F)
	}
	return s
}

// StochasticBlockModel returns an undirected stochastic block model graph: block b holds
// sizes[b] consecutive nodes (block 0 first), and each pair of distinct nodes in blocks a and b
// is linked with probability p[a][b], independently. p must be square with one row per block,
// symmetric, with entries in [0, 1]. The adjacency is symmetric 0/1 without self-loops. Empty
// blocks are allowed, but there must be at least one node.
func StochasticBlockModel(sizes []int, p [][]float64, rng *rand.Rand) (*Graph, error) {
	if rng == nil {
		return nil, errors.New("stochastic block model: nil random generator")
	}
	k := len(sizes)
	if k == 0 {
		return nil, errors.New("stochastic block model: no blocks")
	}
	n := 0
	for b, s := range sizes {
		if s < 0 {
			return nil, fmt.Errorf("stochastic block model: block %d has negative size %d", b, s)
		}
		n += s
		if n > genMaxNodes {
			return nil, fmt.Errorf("stochastic block model: more than the %d nodes a dense generator allows", genMaxNodes)
		}
	}
	if n == 0 {
		return nil, errors.New("stochastic block model: all blocks are empty, the graph would have no nodes")
	}
	if len(p) != k {
		return nil, fmt.Errorf("stochastic block model: p has %d rows for %d blocks", len(p), k)
	}
	for a, row := range p {
		if len(row) != k {
			return nil, fmt.Errorf("stochastic block model: p row %d has %d entries for %d blocks", a, len(row), k)
		}
		for b, v := range row {
			if !(v >= 0 && v <= 1) {
				return nil, fmt.Errorf("stochastic block model: p[%d][%d] = %v is not a probability in [0, 1]", a, b, v)
			}
		}
	}
	for a := range p {
		for b := a + 1; b < k; b++ {
			if p[a][b] != p[b][a] {
				return nil, fmt.Errorf("stochastic block model: p is not symmetric: p[%d][%d] = %v but p[%d][%d] = %v", a, b, p[a][b], b, a, p[b][a])
			}
		}
	}
	block := make([]int, 0, n)
	for b, s := range sizes {
		for range s {
			block = append(block, b)
		}
	}
	c := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			// Float64 is in [0, 1), so p = 1 always links and p = 0 never does.
			if rng.Float64() < p[block[i]][block[j]] {
				c.Set(i, j, 1)
				c.Set(j, i, 1)
			}
		}
	}
	return New(fmt.Sprintf("SBM(sizes=%v)", sizes), c, nil, nil)
}
