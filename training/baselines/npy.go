package baselines

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/sbinet/npyio/npy"
	"gonum.org/v1/gonum/mat"
)

// WriteMatrixNPY writes the square matrix of discrepancies d as a NumPy .npy array (float64,
// n×n, row-major): numpy.load reads it as is.
func WriteMatrixNPY(w io.Writer, d *mat.SymDense) error {
	return npy.Write(w, mat.DenseCopyOf(d))
}

// ReadMatrixNPY reads a matrix of discrepancies between n graphs written by WriteMatrixNPY (or
// numpy.save of a float64 array): size is the number of bytes r holds, checked against n
// before anything is allocated. The matrix must be n×n, finite, symmetric, with a zero
// diagonal (discrepancies a rounding error below 0 are kept as they are).
func ReadMatrixNPY(r io.Reader, size int64, n int) (*mat.SymDense, error) {
	if n < 1 {
		return nil, errors.New("read npy: no graphs")
	}
	if size > int64(n)*int64(n)*8+4096 {
		return nil, fmt.Errorf("read npy: %d bytes, more than a %d×%d float64 matrix needs", size, n, n)
	}
	var m mat.Dense
	if err := npy.Read(io.LimitReader(r, size), &m); err != nil {
		return nil, fmt.Errorf("read npy: %w", err)
	}
	if rows, cols := m.Dims(); rows != n || cols != n {
		return nil, fmt.Errorf("read npy: a %d×%d matrix for %d graphs", rows, cols, n)
	}
	for i := range n {
		if m.At(i, i) != 0 {
			return nil, fmt.Errorf("read npy: entry (%d, %d) is %v, want 0 on the diagonal", i, i, m.At(i, i))
		}
		for j := i + 1; j < n; j++ {
			v := m.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("read npy: entry (%d, %d) is %v, want a finite number", i, j, v)
			}
			if v != m.At(j, i) {
				return nil, fmt.Errorf("read npy: entries (%d, %d) and (%d, %d) differ: not symmetric", i, j, j, i)
			}
		}
	}
	return mat.NewSymDense(n, m.RawMatrix().Data), nil
}
