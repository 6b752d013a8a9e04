package svm

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// ExpKernel returns exp(−γ·d) elementwise for a matrix d of distances or squared distances:
// it does not square, so exp(−γ·SquaredDistances(x, y)) is the RBF kernel and exp(−γ·D) for
// Gromov-Wasserstein distances D is the GW kernel. A non-finite entry gives a non-finite
// kernel entry, which Fit refuses.
func ExpKernel(d mat.Matrix, gamma float64) *mat.Dense {
	r, c := d.Dims()
	if r == 0 || c == 0 {
		return &mat.Dense{}
	}
	out := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			out.Set(i, j, math.Exp(-gamma*d.At(i, j)))
		}
	}
	return out
}

// ExpKernelSym is ExpKernel for a symmetric d, such as the distances among training items;
// its result is what Fit takes.
func ExpKernelSym(d mat.Symmetric, gamma float64) *mat.SymDense {
	n := d.SymmetricDim()
	if n == 0 {
		return &mat.SymDense{}
	}
	out := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			out.SetSym(i, j, math.Exp(-gamma*d.At(i, j)))
		}
	}
	return out
}

// SquaredDistances returns the matrix of squared Euclidean distances between the rows of x
// and the rows of y. It sums squared differences rather than expanding ‖a‖² + ‖b‖² − 2a·b,
// so that equal rows are exactly 0 apart and SquaredDistances(x, x) is exactly symmetric.
// It panics, as gonum does, if x and y have different numbers of columns; an empty x or y
// gives an empty result.
func SquaredDistances(x, y mat.Matrix) *mat.Dense {
	m, d := x.Dims()
	n, dy := y.Dims()
	if m == 0 || n == 0 { // gonum's empty matrix has no columns either
		return &mat.Dense{}
	}
	if d != dy {
		panic("svm: SquaredDistances: " + mat.ErrShape.Error())
	}
	xs, ys := denseRows(x), denseRows(y)
	out := mat.NewDense(m, n, nil)
	for i := range m {
		a := xs.RawRowView(i)
		for j := range n {
			b := ys.RawRowView(j)
			s := 0.0
			for k, v := range a {
				t := v - b[k]
				s += t * t
			}
			out.Set(i, j, s)
		}
	}
	return out
}

// denseRows returns a as a *mat.Dense, copying only when it is not one already.
func denseRows(a mat.Matrix) *mat.Dense {
	if d, ok := a.(*mat.Dense); ok {
		return d
	}
	return mat.DenseCopyOf(a)
}

// symReader reads a mat.Symmetric, directly from the backing slice where there is one (a
// *mat.SymDense, or a subSym of one), since Fit reads every entry and an interface call each
// costs more than the read.
type symReader struct {
	k      mat.Symmetric
	data   []float64 // nil: read through k.At
	rs, cs int       // entry (a, b), a ≤ b, of the stored triangle is data[a*rs+b*cs]
	idx    []int     // k's index i is data's index idx[i]; nil for the identity
}

func newSymReader(k mat.Symmetric) symReader {
	if sub, ok := k.(subSym); ok {
		r := newSymReader(sub.k)
		if r.data == nil {
			return symReader{k: k}
		}
		r.k, r.idx = k, r.indices(sub.idx)
		return r
	}
	r := symReader{k: k}
	if raw, ok := k.(mat.RawSymmetricer); ok {
		switch s := raw.RawSymmetric(); s.Uplo {
		case blas.Upper:
			r.data, r.rs, r.cs = s.Data, s.Stride, 1
		case blas.Lower: // (a, b), a ≤ b, is stored at (b, a)
			r.data, r.rs, r.cs = s.Data, 1, s.Stride
		}
	}
	return r
}

// indices maps indices of k to the indices the reader reads at: data's for a raw reader
// (read with raw), k's own otherwise (read with k.At). Loops branch on data != nil
// themselves, so that raw inlines.
func (r symReader) indices(idx []int) []int {
	if r.idx == nil {
		return idx
	}
	out := make([]int, len(idx))
	for i, o := range idx {
		out[i] = r.idx[o]
	}
	return out
}

// raw returns the entry (a, b) for indices a, b of data.
func (r symReader) raw(a, b int) float64 {
	if a > b {
		a, b = b, a
	}
	return r.data[a*r.rs+b*r.cs]
}

// subSym is the principal submatrix of k on the items idx, without a copy.
type subSym struct {
	k   mat.Symmetric
	idx []int
}

func (s subSym) Dims() (int, int)    { return len(s.idx), len(s.idx) }
func (s subSym) At(i, j int) float64 { return s.k.At(s.idx[i], s.idx[j]) }
func (s subSym) T() mat.Matrix       { return s }
func (s subSym) SymmetricDim() int   { return len(s.idx) }

// subMat is the submatrix of k on rows and cols, without a copy.
type subMat struct {
	k          mat.Matrix
	rows, cols []int
}

func (s subMat) Dims() (int, int)    { return len(s.rows), len(s.cols) }
func (s subMat) At(i, j int) float64 { return s.k.At(s.rows[i], s.cols[j]) }
func (s subMat) T() mat.Matrix       { return mat.Transpose{Matrix: s} }
