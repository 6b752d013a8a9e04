//go:build !openblas

package fastblas

// Name names the BLAS in use.
const Name = "gonum"
