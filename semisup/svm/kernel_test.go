package svm

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

func TestSquaredDistances(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{0, 0, 3, 4, 1e8, 1})
	y := mat.NewDense(2, 2, []float64{3, 4, 1e8, 1})
	d := SquaredDistances(x, y)
	far := (1e8-3)*(1e8-3) + 9
	want := mat.NewDense(3, 2, []float64{25, 1e16 + 1, 0, far, far, 0})
	if !mat.EqualApprox(d, want, 1e-12) {
		t.Errorf("got\n%v\nwant\n%v", mat.Formatted(d), mat.Formatted(want))
	}
	// Exactly symmetric with a zero diagonal, even far from the origin.
	dd := SquaredDistances(x, struct{ mat.Matrix }{x}) // y through At, not *mat.Dense
	for i := range 3 {
		if dd.At(i, i) != 0 {
			t.Errorf("d(%d, %d) = %g", i, i, dd.At(i, i))
		}
		for j := range 3 {
			if dd.At(i, j) != dd.At(j, i) {
				t.Errorf("d(%d, %d) ≠ d(%d, %d)", i, j, j, i)
			}
		}
	}
	if e := SquaredDistances(&mat.Dense{}, y); !e.IsEmpty() {
		t.Error("empty x gave a non-empty result")
	}
	defer func() {
		if r, ok := recover().(string); !ok || !strings.HasPrefix(r, "svm: ") {
			t.Errorf("recovered %v, want an svm panic", r)
		}
	}()
	SquaredDistances(x, mat.NewDense(1, 3, nil))
}

func TestExpKernel(t *testing.T) {
	d := mat.NewSymDense(2, []float64{0, 2, 2, 0})
	k := ExpKernelSym(d, 0.5)
	if k.At(0, 0) != 1 || k.At(1, 1) != 1 || k.At(0, 1) != math.Exp(-1) {
		t.Errorf("ExpKernelSym = %v", mat.Formatted(k))
	}
	kr := ExpKernel(mat.NewDense(1, 3, []float64{0, 1, 4}), 2)
	if kr.At(0, 0) != 1 || kr.At(0, 1) != math.Exp(-2) || kr.At(0, 2) != math.Exp(-8) {
		t.Errorf("ExpKernel = %v", mat.Formatted(kr))
	}
	if !ExpKernelSym(&mat.SymDense{}, 1).IsEmpty() || !ExpKernel(&mat.Dense{}, 1).IsEmpty() {
		t.Error("empty input gave a non-empty kernel")
	}
}

// TestSymReader checks the raw reads, including a principal submatrix of a submatrix,
// against At.
func TestSymReader(t *testing.T) {
	n := 6
	k := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			k.SetSym(i, j, float64(10*i+j))
		}
	}
	inner := subSym{k: k, idx: []int{5, 1, 3, 0}}
	lower := mat.NewTriDense(n, mat.Lower, nil) // a raw symmetric stored in the lower triangle
	lower.Copy(k.T())
	nested := subSym{k: inner, idx: []int{2, 0, 3}}
	for _, s := range []mat.Symmetric{k, inner, nested, opaque{k}, lowerSym{lower}} {
		r := newSymReader(s)
		m := s.SymmetricDim()
		d := r.indices(identity(m))
		for i := range m {
			for j := range m {
				var got float64
				if r.data != nil {
					got = r.raw(d[i], d[j])
				} else {
					got = r.k.At(d[i], d[j])
				}
				if got != s.At(i, j) {
					t.Fatalf("%T: (%d, %d) = %g, At = %g", s, i, j, got, s.At(i, j))
				}
			}
		}
	}
}

// lowerSym is a symmetric matrix whose RawSymmetric is stored in the lower triangle.
type lowerSym struct{ t *mat.TriDense }

func (s lowerSym) Dims() (int, int) { return s.t.Dims() }
func (s lowerSym) At(i, j int) float64 {
	if i < j {
		i, j = j, i
	}
	return s.t.At(i, j)
}
func (s lowerSym) T() mat.Matrix     { return s }
func (s lowerSym) SymmetricDim() int { r, _ := s.t.Dims(); return r }
func (s lowerSym) RawSymmetric() blas64.Symmetric {
	t := s.t.RawTriangular()
	return blas64.Symmetric{N: t.N, Stride: t.Stride, Data: t.Data, Uplo: blas.Lower}
}
