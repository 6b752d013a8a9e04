package layers

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
)

// Colour refinement from an anchor (1-dimensional Weisfeiler-Leman with one node singled
// out): each node's colour starts as a hash of its mass, its self-loop and whether it is the
// anchor, then becomes a hash of its colour and of the multiset of (weight, colour) of its
// out- and in-neighbours, until neither graph's partition splits further. The two graphs are
// refined in lockstep with the same hash, so that their colours compare: nodes an isomorphism
// fixing the anchors can map onto each other share a colour. Where nothing about a single node
// tells nodes apart (every node of a regular graph has the same degree and walk counts), their
// distances and paths to the anchor do, and the greedy matching uses them to break its ties.

// refineEdges is a graph's edges as the refinement reads them: node v's are nbr[ptr[v]:ptr[v+1]],
// each with the hash of its weight and direction. A round costs O(edges), not O(n²): a cycle
// needs as many rounds as half its length.
type refineEdges struct {
	ptr  []int // n² edges may pass int32 on graphs the limits allow when raised
	nbr  []int32
	hash []uint64
}

// build lists the edges of c: out-edges, and unless sym in-edges, hashed apart.
func (e *refineEdges) build(c blas64.General, sym bool) {
	n := c.Rows
	e.ptr = append(e.ptr[:0], 0)
	e.nbr, e.hash = e.nbr[:0], e.hash[:0]
	for v := range n {
		for w, x := range c.Data[v*c.Stride : v*c.Stride+n] {
			if x != 0 {
				e.nbr = append(e.nbr, int32(w))
				e.hash = append(e.hash, mix(math.Float64bits(x)))
			}
			if y := c.Data[w*c.Stride+v]; !sym && y != 0 {
				e.nbr = append(e.nbr, int32(w))
				e.hash = append(e.hash, mix(math.Float64bits(y)+anchorSeed))
			}
		}
		e.ptr = append(e.ptr, len(e.nbr))
	}
}

// refineFromAnchors colours the nodes of both graphs, singling out anchor a of the first and
// b of the second; the colours are left in l.col and o.col (l.next and o.next: scratch).
func refineFromAnchors(l, o *matchSide, a, b int) {
	for _, s := range [2]*matchSide{l, o} {
		for v := range s.col {
			s.col[v] = mix(math.Float64bits(s.mu[v]) ^ mix(math.Float64bits(s.c.Data[v*s.c.Stride+v])))
		}
	}
	individualize(l, o, a, b)
}

// individualize gives node a of the first graph and b of the second a colour of their own,
// the same for both, and refines until neither partition splits further.
func individualize(l, o *matchSide, a, b int) {
	l.col[a] = mix(l.col[a] + anchorSeed)
	o.col[b] = mix(o.col[b] + anchorSeed)
	l.classes, o.classes = l.countClasses(), o.countClasses()
	for range max(len(l.col), len(o.col)) {
		l.round()
		o.round()
		nl, no := l.countClasses(), o.countClasses()
		if nl == l.classes && no == o.classes {
			return
		}
		l.classes, o.classes = nl, no
	}
}

// anchorSeed marks the anchor's colour (any odd constant).
const anchorSeed = 0x9e3779b97f4a7c15

// round replaces each colour by the hash of itself and of its neighbours' edges and colours.
func (s *matchSide) round() {
	e := s.edges
	for v := range s.col {
		h := uint64(0)
		for i := e.ptr[v]; i < e.ptr[v+1]; i++ {
			h += mix(s.col[e.nbr[i]] ^ e.hash[i])
		}
		s.next[v] = mix(s.col[v] ^ mix(h))
	}
	s.col, s.next = s.next, s.col
}

// shared reports whether another node has node v's colour.
func (s *matchSide) shared(v int) bool {
	for w, c := range s.col {
		if c == s.col[v] && w != v {
			return true
		}
	}
	return false
}

// countClasses is the number of distinct colours.
func (s *matchSide) countClasses() int {
	sorted := append(s.sorted[:0], s.col...)
	slices.Sort(sorted)
	return len(slices.Compact(sorted))
}

// mix is SplitMix64's finaliser: a bijection of uint64 that spreads every input bit.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
