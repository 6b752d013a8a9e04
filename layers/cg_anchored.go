package layers

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
)

// matchSide is one graph of an anchored matching: its structure, masses and row sums, and
// the matching's order of its nodes and marks of the matched ones.
type matchSide struct {
	c     blas64.General
	mu    []float64
	rs    []float64
	order []int
	used  []bool
}

// anchoredCoupling writes into st.t the k-th anchored start, a greedy matching of the nodes
// of a "leading" graph to those of the other. It begins by matching the leading graph's node
// of largest row sum (lowest index on ties) to the other's node whose row sum is k-th
// closest to it (then by feature cost and index). Then, in turn, the free node of the leading
// graph most strongly tied to the matched ones (largest sum of its structure entries to them)
// is matched to the free node of the other that adds the least to the objective of a
// permutation: 2·Σ_m μ_m·(C_um − C'_vπ(m))² + μ_u·(C_uu − C'_vv)² + D_uv over the matched m.
// The start is the north-west-corner coupling of the two matched orders (a permutation for
// graphs of equal sizes and uniform masses), the larger graph's free nodes last.
//
// The leading graph is the smaller one, or for equal sizes the one whose sorted row sums come
// first, so that the start of (B, A) is the transpose of the start of (A, B) wherever the two
// graphs can be told apart this way. It costs O(ns²·nt), about one CG iteration.
func anchoredCoupling(st *State, k int) {
	st.cgKeyS = rowSums(st.cgKeyS, st.cs.g, st.ns)
	st.cgKeyT = rowSums(st.cgKeyT, st.ct.g, st.nt)
	st.cgIdxS, st.cgIdxT = growInt(st.cgIdxS, st.ns), growInt(st.cgIdxT, st.nt)
	st.cgUsedS, st.cgUsedT = growBool(st.cgUsedS, st.ns), growBool(st.cgUsedT, st.nt)
	src := matchSide{st.cs.g, st.mus, st.cgKeyS, st.cgIdxS, st.cgUsedS}
	dst := matchSide{st.ct.g, st.mut, st.cgKeyT, st.cgIdxT, st.cgUsedT}
	// D_uv of a leading node u and another v: d[u·dRow + v·dCol].
	// tie: per-node scratch of the leading graph (roww is ns long, colw nt).
	lead, other, dRow, dCol, tie := &src, &dst, st.nt, 1, st.roww
	if leadsTarget(st) {
		lead, other, dRow, dCol, tie = &dst, &src, 1, st.nt, st.colw
	}
	greedyMatch(lead, other, st.d, dRow, dCol, k, tie)
	northWestCorner(st, src.order, dst.order)
}

// leadsTarget reports whether the target graph leads the anchored matching: it is smaller,
// or of the same size with sorted row sums that come first.
func leadsTarget(st *State) bool {
	if st.ns != st.nt {
		return st.nt < st.ns
	}
	a, b := st.cgIdxS, st.cgIdxT // scratch: the orders are written after
	for i := range a {
		a[i], b[i] = i, i
	}
	byS := func(x, y int) int { return cmp.Compare(st.cgKeyS[x], st.cgKeyS[y]) }
	byT := func(x, y int) int { return cmp.Compare(st.cgKeyT[x], st.cgKeyT[y]) }
	slices.SortFunc(a, byS)
	slices.SortFunc(b, byT)
	for i := range a {
		if c := cmp.Compare(st.cgKeyS[a[i]], st.cgKeyT[b[i]]); c != 0 {
			return c > 0
		}
	}
	return false
}

// greedyMatch fills lead.order and other.order with the anchored matching of anchoredCoupling
// (k-th anchor); tie is scratch of lead's length.
func greedyMatch(lead, other *matchSide, d []float64, dRow, dCol, k int, tie []float64) {
	nl, no := len(lead.mu), len(other.mu)
	anchor := 0
	for i, v := range lead.rs {
		if v > lead.rs[anchor] {
			anchor = i
		}
	}
	// The other anchor: the k-th node by closeness of row sums (k ≥ no wraps around).
	byCloseness := other.order
	for j := range byCloseness {
		byCloseness[j] = j
	}
	slices.SortStableFunc(byCloseness, func(x, y int) int {
		c := cmp.Compare(math.Abs(other.rs[x]-lead.rs[anchor]), math.Abs(other.rs[y]-lead.rs[anchor]))
		if c != 0 || d == nil {
			return c
		}
		return cmp.Compare(d[anchor*dRow+x*dCol], d[anchor*dRow+y*dCol])
	})
	target := byCloseness[k%no]

	clear(tie)
	lc, oc := lead.c, other.c
	match := func(m, u, v int) {
		lead.order[m], other.order[m] = u, v
		lead.used[u], other.used[v] = true, true
		for w := range nl {
			tie[w] += lc.Data[w*lc.Stride+u]
		}
	}
	match(0, anchor, target)
	pairs := min(nl, no)
	for m := 1; m < pairs; m++ {
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
			if s < best || (s == best && math.Abs(other.rs[x]-lead.rs[u]) < math.Abs(other.rs[v]-lead.rs[u])) {
				v, best = x, s
			}
		}
		match(m, u, v)
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
}
