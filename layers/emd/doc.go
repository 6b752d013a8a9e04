// Package emd solves the discrete optimal transport problem (the earth mover's distance)
// exactly:
//
//	min_X <C, X>   subject to   X·1 = a,  Xᵀ·1 = b,  X ≥ 0
//
// for a dense ns×nt cost C and marginals a, b of equal mass, with the transportation (network)
// simplex method: a basis is a spanning tree of the bipartite graph of sources and sinks, its
// duals come from the tree, an entering cell is chosen by block search over the reduced costs
// (as in LEMON's network simplex, which POT's ot.emd wraps) and the leaving cell by the ratio
// test on the tree's cycle.
//
// It is written in Go because no well-kept Go library offers a network simplex (gonum's
// optimize/convex/lp is a dense simplex for general LPs, orders of magnitude slower on
// transport problems; the tests use it as the reference). A Workspace reuses its buffers, so
// repeated solves of one size allocate nothing.
package emd
