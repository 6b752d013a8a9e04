// Package simd holds the vectorised kernels of the solvers' hot loops, on row-major float64
// slices: the dense matrix product C += α·A·B (MulAdd), the matrix–vector product y = A·x
// (MulVec), the PPA kernel row exp((s − c)·scale)·t (ExpScaled) and its log-domain sibling
// exp(a + x + y) (ExpAdd), a cost row with its minimum (CostRow) and a scaled product
// (MulScaled). On amd64 with AVX2 and FMA they run in assembly (4×8 register blocks for the
// product, 8×8 with AVX-512 where the CPU has it; a degree-13 polynomial exp on four lanes;
// masked loads for ragged edges); elsewhere plain Go loops compute the same, and the tests
// check each kernel against them.
// Nothing allocates and nothing spawns goroutines: the trainer already runs one graph per core.
//
// Why: gonum's pure-Go Dgemm runs SSE2 axpy loops; MulAdd, register-blocked, is several times
// faster on the shapes of GWF (a dense N×N barycenter times an N×Nₖ transport), as fast as
// OpenBLAS through cgo, which the default pure-Go build cannot use. The figures:
// BenchmarkMulAdd, BenchmarkKernelWidth and docs/speed.md.
package simd
