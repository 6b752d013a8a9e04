// Package csr stores square matrices in compressed-row form: the observed adjacency matrices of
// graphs, which have a few edges per node, so that a corpus costs memory in proportion to its
// edges rather than to Σ N². The solvers densify a graph only inside the worker that solves it.
package csr
