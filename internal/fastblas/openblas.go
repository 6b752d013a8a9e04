//go:build openblas

package fastblas

// #cgo LDFLAGS: -lopenblas
// void openblas_set_num_threads(int);
import "C"

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// Training runs one graph per core, so OpenBLAS is kept to one thread per call: its own threads
// would only compete with the workers.
func init() {
	C.openblas_set_num_threads(1)
	blas64.Use(netlib.Implementation{})
}

// Name names the BLAS in use.
const Name = "openblas"
