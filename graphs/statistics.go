package graphs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// The global statistics of a graph (Statistics), in the order of StatisticNames.
const (
	StatNodes = iota
	StatEdges
	StatDensity
	StatDegreeMean
	StatDegreeStd
	StatDegreeMin
	StatDegreeMax
	StatDegreeQ25
	StatDegreeMedian
	StatDegreeQ75
	StatDegree0 // fractions of the nodes of degree 0, 1, 2, 3, 4 and at least 5
	StatDegree1
	StatDegree2
	StatDegree3
	StatDegree4
	StatDegree5Plus
	StatClustering
	StatTransitivity
	StatAssortativity
	StatComponents
	StatLargestComponent
	StatPathLength
	StatDiameter
	StatAdjacencyMax
	StatAdjacencySecond
	StatAdjacencyMin
	StatLaplacianSecond
	StatLaplacianMax
	// NumStatistics is the length of a Statistics vector.
	NumStatistics
)

// StatisticNames names the entries of a Statistics vector, as networkx would compute them
// (graphs/testdata/statistics_networkx.py).
func StatisticNames() []string {
	return []string{
		"nodes", "edges", "density",
		"degree_mean", "degree_std", "degree_min", "degree_max", "degree_q25", "degree_median", "degree_q75",
		"degree_frac_0", "degree_frac_1", "degree_frac_2", "degree_frac_3", "degree_frac_4", "degree_frac_5plus",
		"average_clustering", "transitivity", "degree_assortativity",
		"components", "largest_component_fraction", "average_shortest_path_length", "diameter",
		"adjacency_eig_max", "adjacency_eig_second", "adjacency_eig_min",
		"normalized_laplacian_eig_second", "normalized_laplacian_eig_max",
	}
}

// denseSpectrumNodes is the largest component size whose spectra are computed exactly (a dense
// symmetric eigendecomposition, cubic in the size); larger ones get Lanczos estimates of the
// extreme eigenvalues, which is all the statistics use.
const denseSpectrumNodes = 400

// lanczosSteps is the Krylov dimension of those estimates: the extreme eigenvalues of graph
// spectra converge within a few dozen steps.
const lanczosSteps = 120

// exactPathNodes is the largest component size whose shortest paths are measured from every
// node (one breadth-first search each); larger ones measure them from that many evenly spaced
// nodes, so that the cost stays linear in the edges: the mean path length is then estimated
// and the diameter a lower bound.
const exactPathNodes = 5000

// Statistics returns global statistics of g's structure, NumStatistics values in the order of
// StatisticNames, for classifiers that compare graphs by them. g is read as a simple
// undirected graph: u and v are adjacent where A has an entry (u, v) or (v, u) with u ≠ v;
// weights, directions, self-loops, features and labels are ignored. The degree quantiles
// interpolate linearly (numpy's default); the clustering coefficients, the transitivity and
// the degree assortativity are networkx's (assortativity 0 where the degrees at the ends of
// the edges do not vary, where networkx gives NaN). The path lengths and the spectra are of
// the largest connected component (the one with the lowest node among equals): the mean
// shortest-path length, the diameter, the largest, second largest and smallest eigenvalues of
// its adjacency and the second smallest and largest of its normalized Laplacian
// I − D^−½AD^−½ (0 where a component of one node has no second). Every value is finite,
// including on graphs of one node or without edges.
func Statistics(g *Graph) ([]float64, error) {
	return statistics(g, denseSpectrumNodes)
}

// LogStatistics is Statistics with the entries that count — nodes, edges, the largest degree,
// components, the diameter — as log(1 + x): their spread spans orders of magnitude between a
// dataset's graphs, which a linear scale would give to the few largest graphs.
func LogStatistics(g *Graph) ([]float64, error) {
	s, err := Statistics(g)
	if err != nil {
		return nil, err
	}
	for _, k := range [...]int{StatNodes, StatEdges, StatDegreeMax, StatComponents, StatDiameter} {
		s[k] = math.Log1p(s[k])
	}
	return s, nil
}

func statistics(g *Graph, denseMax int) ([]float64, error) {
	if g == nil || g.A == nil {
		return nil, fmt.Errorf("graph statistics: no adjacency")
	}
	n := g.N()
	if n == 0 {
		return nil, fmt.Errorf("graph %q statistics: no nodes", g.Name)
	}
	nb := simpleNeighbours(g)
	out := make([]float64, NumStatistics)
	deg := make([]float64, n)
	edges := 0
	for v := range n {
		deg[v] = float64(len(nb[v]))
		edges += len(nb[v])
	}
	edges /= 2
	out[StatNodes], out[StatEdges] = float64(n), float64(edges)
	if n > 1 {
		out[StatDensity] = 2 * float64(edges) / float64(n*(n-1))
	}
	degreeSummaries(deg, out)
	clustering(nb, out)
	out[StatAssortativity] = assortativity(nb)
	comp, sizes, largest := components(nb)
	out[StatComponents] = float64(len(sizes))
	out[StatLargestComponent] = float64(sizes[largest]) / float64(n)
	var members []int
	for v := range n {
		if comp[v] == largest {
			members = append(members, v)
		}
	}
	sub := inducedNeighbours(nb, members)
	out[StatPathLength], out[StatDiameter] = pathLengths(sub)
	if err := spectra(sub, denseMax, out); err != nil {
		return nil, fmt.Errorf("graph %q statistics: %w", g.Name, err)
	}
	for k, v := range out {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("graph %q statistics: %s is %v", g.Name, StatisticNames()[k], v)
		}
	}
	return out, nil
}

// simpleNeighbours are the sorted neighbours of each node of g read as a simple undirected
// graph.
func simpleNeighbours(g *Graph) [][]int {
	n := g.N()
	nb := make([][]int, n)
	for u := range n {
		cols, vals := g.A.Row(u)
		for p, c := range cols {
			if v := int(c); v != u && vals[p] != 0 {
				nb[u] = append(nb[u], v)
				nb[v] = append(nb[v], u)
			}
		}
	}
	for v := range nb {
		slices.Sort(nb[v])
		nb[v] = slices.Compact(nb[v])
	}
	return nb
}

// degreeSummaries fills the degree entries of out.
func degreeSummaries(deg []float64, out []float64) {
	n := float64(len(deg))
	sorted := slices.Clone(deg)
	slices.Sort(sorted)
	mean := 0.0
	for _, d := range deg {
		mean += d
	}
	mean /= n
	sq := 0.0
	for _, d := range deg {
		sq += (d - mean) * (d - mean)
	}
	out[StatDegreeMean], out[StatDegreeStd] = mean, math.Sqrt(sq/n)
	out[StatDegreeMin], out[StatDegreeMax] = sorted[0], sorted[len(sorted)-1]
	out[StatDegreeQ25], out[StatDegreeMedian], out[StatDegreeQ75] = quantile(sorted, 0.25), quantile(sorted, 0.5), quantile(sorted, 0.75)
	for _, d := range deg {
		out[StatDegree0+min(int(d), 5)] += 1 / n
	}
}

// quantile is numpy's linear quantile q of sorted values.
func quantile(sorted []float64, q float64) float64 {
	pos := q * float64(len(sorted)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(sorted)-1)
	return sorted[lo] + (pos-float64(lo))*(sorted[hi]-sorted[lo])
}

// clustering fills the average clustering coefficient (0 for nodes of degree under 2) and the
// transitivity (three times the triangles over the connected triples) of out.
func clustering(nb [][]int, out []float64) {
	triangles, triples, sum := 0.0, 0.0, 0.0
	// Each node's triangles: the edges among its neighbours.
	for _, nv := range nb {
		t := 0
		for a, u := range nv {
			t += commonAfter(nb[u], nv[a+1:])
		}
		d := float64(len(nv))
		if d >= 2 {
			pairs := d * (d - 1) / 2
			sum += float64(t) / pairs
			triples += pairs
		}
		triangles += float64(t)
	}
	out[StatClustering] = sum / float64(len(nb))
	if triples > 0 {
		out[StatTransitivity] = triangles / triples
	}
}

// commonAfter counts the nodes in both sorted lists a and b.
func commonAfter(a, b []int) int {
	i, j, c := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			c++
			i++
			j++
		}
	}
	return c
}

// assortativity is the Pearson correlation of the degrees at the two ends of the edges, each
// edge counted both ways (networkx's degree_assortativity_coefficient); 0 where it is
// undefined (no edges, or every edge joins nodes of the same degrees).
func assortativity(nb [][]int) float64 {
	var sx, sxx, sxy, m float64
	for _, nv := range nb {
		dv := float64(len(nv))
		for _, u := range nv {
			du := float64(len(nb[u]))
			sx += dv
			sxx += dv * dv
			sxy += dv * du
			m++
		}
	}
	if m == 0 {
		return 0
	}
	mean := sx / m
	variance := sxx/m - mean*mean
	if !(variance > 1e-12*max(1, mean*mean)) {
		return 0
	}
	r := (sxy/m - mean*mean) / variance
	return max(-1, min(1, r))
}

// components labels each node with its connected component (in the order of their lowest
// nodes) and returns the sizes and the largest (the first among equals).
func components(nb [][]int) (comp []int, sizes []int, largest int) {
	comp = make([]int, len(nb))
	for v := range comp {
		comp[v] = -1
	}
	var queue []int
	for s := range nb {
		if comp[s] >= 0 {
			continue
		}
		c := len(sizes)
		comp[s] = c
		queue = append(queue[:0], s)
		for q := 0; q < len(queue); q++ {
			for _, u := range nb[queue[q]] {
				if comp[u] < 0 {
					comp[u] = c
					queue = append(queue, u)
				}
			}
		}
		sizes = append(sizes, len(queue))
		if len(queue) > sizes[largest] {
			largest = c
		}
	}
	return comp, sizes, largest
}

// inducedNeighbours is the subgraph of the nodes members (sorted) as neighbour lists over
// their positions.
func inducedNeighbours(nb [][]int, members []int) [][]int {
	out := make([][]int, len(members))
	for a, v := range members {
		for _, u := range nb[v] {
			if b, ok := slices.BinarySearch(members, u); ok {
				out[a] = append(out[a], b)
			}
		}
	}
	return out
}

// pathLengths are the mean shortest-path length over ordered pairs of distinct nodes and the
// diameter of a connected graph (0 and 0 for one node), by breadth-first search from every
// node, or from exactPathNodes evenly spaced nodes on larger graphs.
func pathLengths(nb [][]int) (mean, diameter float64) {
	n := len(nb)
	if n < 2 {
		return 0, 0
	}
	sources := n
	if n > exactPathNodes {
		sources = exactPathNodes
	}
	dist := make([]int, n)
	queue := make([]int, 0, n)
	total, far := 0, 0
	for k := range sources {
		s := k * n / sources
		for v := range dist {
			dist[v] = -1
		}
		dist[s] = 0
		queue = append(queue[:0], s)
		for q := 0; q < len(queue); q++ {
			v := queue[q]
			for _, u := range nb[v] {
				if dist[u] < 0 {
					dist[u] = dist[v] + 1
					total += dist[u]
					far = max(far, dist[u])
					queue = append(queue, u)
				}
			}
		}
	}
	return float64(total) / float64(sources*(n-1)), float64(far)
}

// spectra fills the eigenvalue entries of out from the connected graph nb: exact up to
// denseMax nodes, Lanczos estimates above.
func spectra(nb [][]int, denseMax int, out []float64) error {
	n := len(nb)
	if n == 1 { // one node: adjacency [0], normalized Laplacian [0] (networkx's for degree 0)
		return nil
	}
	isd := make([]float64, n) // D^−½
	for v := range n {
		isd[v] = 1 / math.Sqrt(float64(len(nb[v])))
	}
	adj := func(dst, x []float64) {
		for v := range n {
			s := 0.0
			for _, u := range nb[v] {
				s += x[u]
			}
			dst[v] = s
		}
	}
	lap := func(dst, x []float64) {
		for v := range n {
			s := 0.0
			for _, u := range nb[v] {
				s += isd[u] * x[u]
			}
			dst[v] = x[v] - isd[v]*s
		}
	}
	var ea, el []float64
	var err error
	if n <= denseMax {
		ea, err = denseEigenvalues(n, adj)
		if err == nil {
			el, err = denseEigenvalues(n, lap)
		}
	} else {
		ea, err = lanczos(n, adj)
		if err == nil {
			el, err = lanczos(n, lap)
		}
	}
	if err != nil {
		return err
	}
	out[StatAdjacencyMax], out[StatAdjacencySecond], out[StatAdjacencyMin] = ea[len(ea)-1], ea[len(ea)-2], ea[0]
	out[StatLaplacianSecond], out[StatLaplacianMax] = el[1], el[len(el)-1]
	return nil
}

// denseEigenvalues are the eigenvalues, ascending, of the symmetric operator mul on n
// dimensions, by a dense eigendecomposition.
func denseEigenvalues(n int, mul func(dst, x []float64)) ([]float64, error) {
	m := mat.NewSymDense(n, nil)
	x, col := make([]float64, n), make([]float64, n)
	for j := range n {
		clear(x)
		x[j] = 1
		mul(col, x)
		for i := j; i < n; i++ {
			m.SetSym(j, i, col[i])
		}
	}
	var es mat.EigenSym
	if !es.Factorize(m, false) {
		return nil, fmt.Errorf("eigendecomposition of a %d×%d matrix did not converge", n, n)
	}
	return es.Values(nil), nil // ascending
}

// lanczos estimates the eigenvalues of the symmetric operator mul on n dimensions by
// lanczosSteps steps of Lanczos with full reorthogonalization from a fixed start: the Ritz
// values, ascending, whose extremes converge first.
func lanczos(n int, mul func(dst, x []float64)) ([]float64, error) {
	steps := min(n, lanczosSteps)
	rng := rand.New(rand.NewPCG(1, 2))
	q := make([][]float64, 0, steps)
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.Float64() + 0.5
	}
	scale(v, 1/norm(v))
	alpha, beta := make([]float64, 0, steps), make([]float64, 0, steps)
	w := make([]float64, n)
	for len(q) < steps {
		q = append(q, slices.Clone(v))
		mul(w, v)
		a := dot(w, v)
		alpha = append(alpha, a)
		for range 2 { // twice is enough (Kahan's rule)
			for _, qk := range q {
				axpy(w, -dot(w, qk), qk)
			}
		}
		b := norm(w)
		if b < 1e-10 || len(q) == steps {
			break
		}
		beta = append(beta, b)
		copy(v, w)
		scale(v, 1/b)
	}
	k := len(alpha)
	t := mat.NewSymDense(k, nil)
	for i := range k {
		t.SetSym(i, i, alpha[i])
		if i+1 < k {
			t.SetSym(i, i+1, beta[i])
		}
	}
	var es mat.EigenSym
	if !es.Factorize(t, false) {
		return nil, fmt.Errorf("the Lanczos estimate: eigendecomposition of the %d×%d tridiagonal matrix did not converge", k, k)
	}
	vals := es.Values(nil)
	if len(vals) < 2 {
		return nil, fmt.Errorf("the Lanczos estimate stopped after %d step", len(vals))
	}
	return vals, nil
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

func norm(a []float64) float64 { return math.Sqrt(dot(a, a)) }

func scale(a []float64, c float64) {
	for i := range a {
		a[i] *= c
	}
}

func axpy(dst []float64, c float64, x []float64) {
	for i, v := range x {
		dst[i] += c * v
	}
}
