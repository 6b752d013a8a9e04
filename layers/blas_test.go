package layers

// With the openblas build tag, the tests and benchmarks run on OpenBLAS.
import _ "gwf/internal/fastblas"
