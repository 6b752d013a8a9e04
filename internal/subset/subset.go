// Package subset takes the entries or rows of a slice or matrix at given indices: the folds and
// splits of the classification protocols select graphs this way.
package subset

import "gonum.org/v1/gonum/mat"

// Ints returns xs at idx, in the order of idx (a new slice).
func Ints(xs, idx []int) []int { return Of(xs, idx) }

// Of returns xs at idx, in the order of idx (a new slice).
func Of[T any](xs []T, idx []int) []T {
	out := make([]T, len(idx))
	for r, i := range idx {
		out[r] = xs[i]
	}
	return out
}

// Rows returns the rows idx of x, in the order of idx (a new matrix; idx must not be empty).
func Rows(x *mat.Dense, idx []int) *mat.Dense {
	_, c := x.Dims()
	out := mat.NewDense(len(idx), c, nil)
	for r, i := range idx {
		out.SetRow(r, x.RawRowView(i))
	}
	return out
}
