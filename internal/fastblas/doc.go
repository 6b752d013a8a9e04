// Package fastblas selects the BLAS behind gonum's dense products at build time. Built with
// the openblas tag (and Debian's libopenblas-dev installed), importing it routes gonum/blas64
// to OpenBLAS through cgo, single-threaded per call; the default build keeps gonum's pure-Go
// BLAS and needs no C library. Only programs (the gwf command, test binaries) import it: a
// library should not choose its users' BLAS.
package fastblas
