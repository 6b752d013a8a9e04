package layers

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
)

// couplingScratch is the scratch of CG's ordered and anchored starts, kept in cgWork so that
// the starts of a reused State allocate nothing: one startSide per graph, and what the
// anchored matchings of the two graphs share.
type couplingScratch struct {
	src, dst startSide
	sorted   []uint64 // both graphs' scratch to count colours (matchSide.sorted)
	// targets are the anchor's candidate images (greedyMatch), kept from one anchored start
	// to the next of a solve.
	targets []int
}

// startSide is one graph's scratch of the starts, which a matchSide of the graph views.
type startSide struct {
	key   []float64 // row sums of the structure
	walk  []float64 // walkSums
	idx   []int     // an order of the nodes: the ordered start's, then the matching's
	used  []bool
	col   []uint64 // colours and their scratch (cg_refine.go)
	next  []uint64
	edges refineEdges
}

// prepare computes what every anchored start of a solve reads of the n-node graph c: its row
// sums, walk sums and edges (in-edges too unless sym).
func (s *startSide) prepare(c blas64.General, n int, sym bool) {
	s.key = rowSums(s.key, c, n)
	s.walk = walkSums(s.walk, c, s.key, n)
	s.edges.build(c, sym)
}

// side sizes the per-node scratch for the n-node graph c of masses mu and returns the graph
// as a matchSide over it (prepare must have run); sorted is the shared colour-count scratch.
func (s *startSide) side(c blas64.General, mu []float64, n int, sorted []uint64) matchSide {
	s.idx, s.used = growInt(s.idx, n), growBool(s.used, n)
	s.col, s.next = growUint(s.col, n), growUint(s.next, n)
	return matchSide{c: c, mu: mu, rs: s.key, walk: s.walk, order: s.idx, used: s.used,
		col: s.col, next: s.next, sorted: sorted, edges: &s.edges}
}

// matchSide is one graph of an anchored matching: its structure, masses, row sums and walk
// sums, and the matching's order of its nodes and marks of the matched ones.
type matchSide struct {
	c     blas64.General
	mu    []float64
	rs    []float64
	walk  []float64 // walkSums: C·rs in [0, n), C·C·rs in [n, 2n)
	order []int
	used  []bool
	// Colour refinement from the anchor (cg_refine.go): the colours, scratch of the same
	// length, the number of colours, and scratch to count them.
	col, next []uint64
	classes   int
	sorted    []uint64
	edges     *refineEdges
}

// walkSums returns in buf (2n long) C·rs and C·(C·rs): for 0/1 graphs, the number of walks of
// two and three steps from each node. Two nodes of the same degree that no automorphism maps
// onto each other often differ here (in a 3×4 grid, a side's middle and a long side's node
// next to a corner), where a greedy matching on degrees alone picks either.
func walkSums(buf []float64, c blas64.General, rs []float64, n int) []float64 {
	buf = grow(buf, 2*n)
	mulVec(buf[:n], c, rs)
	mulVec(buf[n:2*n], c, buf[:n])
	return buf
}

// mulVec writes C·in into out (out and in must not overlap).
func mulVec(out []float64, c blas64.General, in []float64) {
	for i := range out {
		s := 0.0
		for j, v := range c.Data[i*c.Stride : i*c.Stride+len(in)] {
			s += v * in[j]
		}
		out[i] = s
	}
}

// betterTie reports whether x is a better match than v for u when both add as much to the
// objective: x shares u's colour and v does not, or the colours say nothing and x is closer.
func betterTie(lead, other *matchSide, d []float64, dRow, dCol, u, x, v int) bool {
	xSame, vSame := other.col[x] == lead.col[u], other.col[v] == lead.col[u]
	if xSame != vSame {
		return xSame
	}
	return closeness(lead, other, d, dRow, dCol, u, x, v) < 0
}

// closeness compares how close the other graph's nodes x and y are to the leading graph's
// node u: by row sums, then by feature cost D (d[u·dRow + x·dCol], none when d is nil), then
// by walk sums of two, then of three steps.
func closeness(lead, other *matchSide, d []float64, dRow, dCol, u, x, y int) int {
	nl, no := len(lead.mu), len(other.mu)
	if c := cmp.Compare(math.Abs(other.rs[x]-lead.rs[u]), math.Abs(other.rs[y]-lead.rs[u])); c != 0 {
		return c
	}
	if d != nil {
		if c := cmp.Compare(d[u*dRow+x*dCol], d[u*dRow+y*dCol]); c != 0 {
			return c
		}
	}
	for l := range 2 {
		k := [2][]float64{lead.walk[l*nl : (l+1)*nl], other.walk[l*no : (l+1)*no]}
		if c := cmp.Compare(math.Abs(k[1][x]-k[0][u]), math.Abs(k[1][y]-k[0][u])); c != 0 {
			return c
		}
	}
	return 0
}

// anchoredCoupling writes into st.t the k-th anchored start, a greedy matching of the nodes
// of a "leading" graph to those of the other. It begins by matching the leading graph's node
// of largest row sum (lowest index on ties) to the other's k-th closest node (closeness: row
// sums, feature cost, walk sums, index). Then, in turn, the free node of the leading
// graph most strongly tied to the matched ones (largest sum of its structure entries to them)
// is matched to the free node of the other that adds the least to the objective of a
// permutation: 2·Σ_m μ_m·(C_um − C'_vπ(m))² + μ_u·(C_uu − C'_vv)² + D_uv over the matched m;
// ties go to a node of u's colour (cg_refine.go), then to the closest. The second start
// matches the anchor to the node, among those as close as the closest, whose matching costs
// least (rankTied). The start is the north-west-corner coupling of the two matched orders (a
// permutation for graphs of equal sizes and uniform masses), the larger graph's free nodes last.
//
// The leading graph is the smaller one, or for equal sizes the one whose sorted row sums come
// first, so that the start of (B, A) is the transpose of the start of (A, B) wherever the two
// graphs can be told apart this way. A start costs O(ns²·nt), about one CG iteration; the
// second up to anchorTargets times that. It returns ctx's error once ctx is done.
func anchoredCoupling(ctx context.Context, st *State, k int) error {
	w := &st.cg.couplings
	if k == 0 { // the graphs' keys and edges serve every anchored start of the solve
		// Both graphs' in-edges count unless both are symmetric, so that their colours compare.
		w.src.prepare(st.cs.g, st.ns, st.cg.sym)
		w.dst.prepare(st.ct.g, st.nt, st.cg.sym)
	}
	w.sorted = growUint(w.sorted, max(st.ns, st.nt))
	src := w.src.side(st.cs.g, st.mus, st.ns, w.sorted)
	dst := w.dst.side(st.ct.g, st.mut, st.nt, w.sorted)
	// D_uv of a leading node u and another v: d[u·dRow + v·dCol].
	// tie: per-node scratch of the leading graph (roww is ns long, colw nt).
	lead, other, dRow, dCol, tie := &src, &dst, st.nt, 1, st.roww
	if leadsTarget(st) {
		lead, other, dRow, dCol, tie = &dst, &src, 1, st.nt, st.colw
	}
	w.targets = growInt(w.targets, len(other.mu))
	if err := greedyMatch(ctx, lead, other, st.d, dRow, dCol, k, tie, w.targets); err != nil {
		return err
	}
	northWestCorner(st, src.order, dst.order)
	return nil
}

// leadsTarget reports whether the target graph leads the anchored matching: it is smaller,
// or of the same size with sorted row sums that come first.
func leadsTarget(st *State) bool {
	if st.ns != st.nt {
		return st.nt < st.ns
	}
	src, dst := &st.cg.couplings.src, &st.cg.couplings.dst
	a, b := src.idx, dst.idx // scratch: the orders are written after
	for i := range a {
		a[i], b[i] = i, i
	}
	byS := func(x, y int) int { return cmp.Compare(src.key[x], src.key[y]) }
	byT := func(x, y int) int { return cmp.Compare(dst.key[x], dst.key[y]) }
	slices.SortFunc(a, byS)
	slices.SortFunc(b, byT)
	for i := range a {
		if c := cmp.Compare(src.key[a[i]], dst.key[b[i]]); c != 0 {
			return c > 0
		}
	}
	return false
}

// anchorTargets is how many nodes of the other graph (of no nodes) the second anchored start
// tries as the anchor's image. A graph whose nodes all look alike (a regular graph) has no
// better guess of the anchor's image than trying each: every node up to maxAnchorTargets
// nodes, then maxAnchorTargets²/no (at least minAnchorTargets), so that the greedy matchings,
// O(no³) each, cost O(maxAnchorTargets²·no²) together until that floor.
func anchorTargets(no int) int {
	return min(no, max(minAnchorTargets, maxAnchorTargets*maxAnchorTargets/no))
}

const (
	minAnchorTargets = 16
	maxAnchorTargets = 64
)

// greedyMatch fills lead.order and other.order with the k-th anchored matching of
// anchoredCoupling; tie is scratch of lead's length, targets (other's length) the anchor's
// candidate images in the order the starts take them, kept from one start to the next of a
// solve. The first start (k = 0) orders them by closeness and takes the closest; the second
// (k = 1) reorders those as close as the closest (rankTied) before taking its own. A done ctx
// stops it with ctx's error.
func greedyMatch(ctx context.Context, lead, other *matchSide, d []float64, dRow, dCol, k int, tie []float64, targets []int) error {
	anchor := 0
	for i, v := range lead.rs {
		if v > lead.rs[anchor] {
			anchor = i
		}
	}
	switch k {
	case 0:
		for j := range targets {
			targets[j] = j
		}
		slices.SortStableFunc(targets, func(x, y int) int {
			return closeness(lead, other, d, dRow, dCol, anchor, x, y)
		})
	case 1:
		if err := rankTied(ctx, lead, other, d, dRow, dCol, anchor, tie, targets); err != nil {
			return err
		}
	}
	_, err := matchFrom(ctx, lead, other, d, dRow, dCol, anchor, targets[k%len(targets)], tie, math.Inf(1))
	return err
}

// rankTied orders targets[1:] that are as close to the anchor as targets[0] (at most
// anchorTargets of them) by the cost of the greedy matching each leads to; it stops at one
// that costs nothing.
func rankTied(ctx context.Context, lead, other *matchSide, d []float64, dRow, dCol, anchor int, tie []float64, targets []int) error {
	tries := 1
	for limit := anchorTargets(len(targets)); tries < limit; tries++ {
		if closeness(lead, other, d, dRow, dCol, anchor, targets[0], targets[tries]) != 0 {
			break
		}
	}
	var cost [maxAnchorTargets]float64
	var order [maxAnchorTargets]int
	bound := math.Inf(1)
	for i := 1; i < tries; i++ {
		var err error
		if cost[i], err = matchFrom(ctx, lead, other, d, dRow, dCol, anchor, targets[i], tie, bound); err != nil {
			return err
		}
		bound = min(bound, cost[i])
		if bound <= 0 { // a matching that adds nothing: no other can do better
			tries = i + 1
			break
		}
	}
	for i := range tries {
		order[i] = i
	}
	slices.SortStableFunc(order[1:tries], func(x, y int) int { return cmp.Compare(cost[x], cost[y]) })
	var ranked [maxAnchorTargets]int
	for i := range tries {
		ranked[i] = targets[order[i]]
	}
	copy(targets, ranked[:tries])
	return nil
}

// matchFrom fills lead.order and other.order with the greedy matching that begins with the
// anchor matched to target, and returns its cost: the sum of what each match adds to the
// objective of a permutation. It stops early, returning +Inf, once the cost passes bound, and
// with ctx's error once ctx is done.
func matchFrom(ctx context.Context, lead, other *matchSide, d []float64, dRow, dCol, anchor, target int, tie []float64, bound float64) (float64, error) {
	nl, no := len(lead.mu), len(other.mu)
	clear(tie)
	clear(lead.used)
	clear(other.used)
	lc, oc := lead.c, other.c
	match := func(m, u, v int) {
		lead.order[m], other.order[m] = u, v
		lead.used[u], other.used[v] = true, true
		for w := range nl {
			tie[w] += lc.Data[w*lc.Stride+u]
		}
	}
	match(0, anchor, target)
	refineFromAnchors(lead, other, anchor, target)
	total := 0.0
	if d != nil {
		total = d[anchor*dRow+target*dCol]
	}
	pairs := min(nl, no)
	for m := 1; m < pairs; m++ {
		// A matching of 1,500 nodes takes seconds; ctxMatches matches take milliseconds.
		if m%ctxMatches == 0 {
			if err := ctx.Err(); err != nil {
				return 0, fmt.Errorf("anchored start: stopped after %d of %d matches: %w", m, pairs, err)
			}
		}
		u := -1
		for w := range nl {
			if !lead.used[w] && (u < 0 || tie[w] > tie[u]) {
				u = w
			}
		}
		lRow := lc.Data[u*lc.Stride:]
		v, best := -1, math.Inf(1)
		for x := range no {
			if other.used[x] {
				continue
			}
			oRow := oc.Data[x*oc.Stride:]
			s := 0.0
			for p := range m {
				e := lRow[lead.order[p]] - oRow[other.order[p]]
				s += lead.mu[lead.order[p]] * e * e
			}
			e := lRow[u] - oRow[x]
			s = 2*s + lead.mu[u]*e*e
			if d != nil {
				s += d[u*dRow+x*dCol]
			}
			if s < best || s == best && betterTie(lead, other, d, dRow, dCol, u, x, v) {
				v, best = x, s
			}
		}
		match(m, u, v)
		if total += best; total > bound {
			return math.Inf(1), nil
		}
		// A choice among nodes of one colour: make it part of the colouring, so that the
		// nodes left are told apart by their paths to it as well.
		if lead.col[u] == other.col[v] && (lead.shared(u) || other.shared(v)) {
			individualize(lead, other, u, v)
		}
	}
	// The larger graph's free nodes follow in index order.
	for _, side := range []*matchSide{lead, other} {
		for w, m := 0, pairs; m < len(side.mu); w++ {
			if !side.used[w] {
				side.order[m] = w
				m++
			}
		}
	}
	return total, nil
}

// ctxMatches is how many matches matchFrom makes between two checks of its context.
const ctxMatches = 64
