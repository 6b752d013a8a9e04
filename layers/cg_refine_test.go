package layers

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// refineSide is a matchSide of s for the colour refinement alone.
func refineSide(s Space, sym bool) *matchSide {
	n := s.N()
	side := &matchSide{c: s.C.RawMatrix(), mu: s.Mu, col: make([]uint64, n), next: make([]uint64, n),
		sorted: make([]uint64, n), edges: &refineEdges{}}
	side.edges.build(side.c, sym)
	return side
}

// permutedBy returns s with node v renamed perm[v] (structure and masses).
func permutedBy(s Space, perm []int) Space {
	n := s.N()
	c := mat.NewDense(n, n, nil)
	mu := make([]float64, n)
	for i := range n {
		mu[perm[i]] = s.Mu[i]
		for j := range n {
			c.Set(perm[i], perm[j], s.C.At(i, j))
		}
	}
	return Space{C: c, Mu: mu}
}

// TestRefineInvariant: the colours of a graph and of a relabelling, each refined from the
// anchor and its image, agree node for node (weighted, directed and non-uniform masses too),
// and refining from an end of a path tells every node apart.
func TestRefineInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for trial := range 20 {
		directed := trial%2 == 1
		a := randomSpace(rng, 5+rng.IntN(30), 0.2, 1+float64(trial%3), directed, 0)
		perm := rng.Perm(a.N())
		b := permutedBy(a, perm)
		l, o := refineSide(a, !directed), refineSide(b, !directed)
		anchor := rng.IntN(a.N())
		refineFromAnchors(l, o, anchor, perm[anchor])
		individualize(l, o, (anchor+1)%a.N(), perm[(anchor+1)%a.N()])
		for v := range a.N() {
			if l.col[v] != o.col[perm[v]] {
				t.Fatalf("trial %d: node %d has colour %x, its image %d %x", trial, v, l.col[v], perm[v], o.col[perm[v]])
			}
		}
	}
	p := relabelled([][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}}, identity(9))
	l, o := refineSide(p, true), refineSide(p, true)
	refineFromAnchors(l, o, 0, 0)
	if l.classes != 9 {
		t.Errorf("a path refined from its end: %d colours, want 9", l.classes)
	}
	refineFromAnchors(l, o, 4, 4) // the middle: the two halves mirror each other
	if l.classes != 5 {
		t.Errorf("a path refined from its middle: %d colours, want 5", l.classes)
	}
}
