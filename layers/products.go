package layers

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"

	"github.com/gwf-graphs/gwf/internal/simd"
)

// sparseLeft and sparseRight are the fractions of non-zeros below which Cs (multiplied from
// the left) and Ct (from the right) are multiplied in compressed-row form rather than by the
// dense kernel. Observed graphs and warm-started atoms (which ReLU keeps sparse: a zero entry
// gets no gradient) are often below them; barycenters after their first layer are dense.
// docs/speed.md ("Sparse products") has the epochs that chose 0.1.
const (
	sparseLeft  = 0.1
	sparseRight = 0.1
)

// structure is a square structure matrix (Cs or Ct) with, when it is sparse, a compressed-row
// copy used by the products below, and when it is dense, its transpose. Its buffers are reused
// across problems.
type structure struct {
	g      blas64.General
	sparse bool
	// symmetric (known for sparse matrices only) lets X·C take the vectorised X·Cᵀ path.
	symmetric bool
	rowPtr    []int32
	col       []int32
	val       []float64
	xt, yt    []float64 // scratch of mulRight
	// tr is Cᵀ with row stride trStride: g's own data when C is symmetric, else a copy. A layer
	// multiplies by C or Cᵀ tens of times per Init, so one transposition per problem lets every
	// product run as a plain row-major C += A·B.
	tr       []float64
	trStride int
	trBuf    []float64
	// dense holds a sparse Space's structure written out (Space.structure): the dense
	// kernels, CG's line search and the row masses read the dense form.
	dense []float64
	// lr, when set, is the factored form of a barycenter the products use instead (lowRank),
	// with its scratch.
	lr       *lowRank
	lrA, lrB []float64
}

// mulLowRank is mul by the factors (trans: by Bᵀ).
func (s *structure) mulLowRank(dst, x []float64, cols int, trans bool) {
	blk := s.lr.block * cols
	s.lrA, s.lrB = grow(s.lrA, blk), grow(s.lrB, blk)
	s.lr.mul(dst, x, cols, trans, s.lrA, s.lrB)
}

// set binds c and decides how to multiply it: in compressed-row form when at most a fraction
// maxDensity of its entries are non-zero.
func (s *structure) set(c blas64.General, maxDensity float64) {
	s.g = c
	n := c.Rows
	nnz := 0
	for i := 0; i < n; i++ {
		for _, v := range c.Data[i*c.Stride : i*c.Stride+n] {
			if v != 0 {
				nnz++
			}
		}
	}
	s.sparse = float64(nnz) <= maxDensity*float64(n)*float64(n)
	if !s.sparse {
		s.setTranspose()
		return
	}
	if cap(s.rowPtr) < n+1 {
		s.rowPtr = make([]int32, n+1)
	}
	s.rowPtr = s.rowPtr[:n+1]
	s.col = s.col[:0]
	s.val = s.val[:0]
	for i := 0; i < n; i++ {
		s.rowPtr[i] = int32(len(s.col))
		for j, v := range c.Data[i*c.Stride : i*c.Stride+n] {
			if v != 0 {
				s.col = append(s.col, int32(j))
				s.val = append(s.val, v)
			}
		}
	}
	s.rowPtr[n] = int32(len(s.col))
	s.symmetric = symmetric(c)
}

// setTranspose points tr at Cᵀ.
func (s *structure) setTranspose() {
	c := s.g
	n := c.Rows
	if symmetric(c) {
		s.tr, s.trStride = c.Data, c.Stride
		return
	}
	s.trBuf = grow(s.trBuf, n*n)
	for i := 0; i < n; i++ {
		for j, v := range c.Data[i*c.Stride : i*c.Stride+n] {
			s.trBuf[j*n+i] = v
		}
	}
	s.tr, s.trStride = s.trBuf, n
}

func symmetric(c blas64.General) bool {
	for i := 0; i < c.Rows; i++ {
		for j := 0; j < i; j++ {
			if c.Data[i*c.Stride+j] != c.Data[j*c.Stride+i] {
				return false
			}
		}
	}
	return true
}

// mul writes dst = C·X (trans false) or Cᵀ·X (trans true); X and dst are n×cols.
func (s *structure) mul(dst, x []float64, cols int, trans bool) {
	n := s.g.Rows
	if s.lr != nil {
		s.mulLowRank(dst, x, cols, trans)
		return
	}
	if !s.sparse {
		if trans {
			simd.Mul(n, cols, n, s.tr, s.trStride, x, cols, dst, cols)
		} else {
			simd.Mul(n, cols, n, s.g.Data, s.g.Stride, x, cols, dst, cols)
		}
		return
	}
	clear(dst[:n*cols])
	for k := 0; k < n; k++ {
		for p := s.rowPtr[k]; p < s.rowPtr[k+1]; p++ {
			j, v := int(s.col[p]), s.val[p]
			if trans { // row j of Cᵀ·X gets C_kj·X_k
				axpy(dst[j*cols:(j+1)*cols], v, x[k*cols:(k+1)*cols])
			} else { // row k of C·X gets C_kj·X_j
				axpy(dst[k*cols:(k+1)*cols], v, x[j*cols:(j+1)*cols])
			}
		}
	}
}

// mulRight writes dst = X·Cᵀ (trans true) or X·C (trans false); X and dst are rows×n.
func (s *structure) mulRight(dst, x []float64, rows int, trans bool) {
	n := s.g.Rows
	if s.lr != nil { // X·Cᵀ = (C·Xᵀ)ᵀ, X·C = (Cᵀ·Xᵀ)ᵀ
		s.xt = grow(s.xt, rows*n)
		s.yt = grow(s.yt, rows*n)
		transpose(s.xt, x, rows, n)
		s.mulLowRank(s.yt, s.xt, rows, !trans)
		transpose(dst, s.yt, n, rows)
		return
	}
	if !s.sparse {
		if trans {
			simd.Mul(rows, n, n, x, n, s.tr, s.trStride, dst, n)
		} else {
			simd.Mul(rows, n, n, x, n, s.g.Data, s.g.Stride, dst, n)
		}
		return
	}
	if trans || s.symmetric {
		// X·Cᵀ = (C·Xᵀ)ᵀ: with Xᵀ contiguous, row j of C·Xᵀ is a sum of whole rows of Xᵀ,
		// added with the assembly axpy; two transposes cost less than gathering entry by entry.
		s.xt = grow(s.xt, rows*n)
		s.yt = grow(s.yt, rows*n)
		transpose(s.xt, x, rows, n)
		for j := 0; j < n; j++ {
			yj := s.yt[j*rows : (j+1)*rows]
			clear(yj)
			for p := s.rowPtr[j]; p < s.rowPtr[j+1]; p++ {
				l := int(s.col[p])
				floats.AddScaled(yj, s.val[p], s.xt[l*rows:(l+1)*rows])
			}
		}
		transpose(dst, s.yt, n, rows)
		return
	}
	clear(dst[:rows*n])
	for r := 0; r < rows; r++ {
		xr := x[r*n : (r+1)*n]
		dr := dst[r*n : (r+1)*n]
		for l, xv := range xr {
			if xv == 0 {
				continue
			}
			for p := s.rowPtr[l]; p < s.rowPtr[l+1]; p++ {
				dr[s.col[p]] += xv * s.val[p]
			}
		}
	}
}

// transpose writes the c×r transpose of the r×c row-major x into dst.
func transpose(dst, x []float64, r, c int) {
	for i := 0; i < r; i++ {
		for j, v := range x[i*c : (i+1)*c] {
			dst[j*r+i] = v
		}
	}
}

// axpy adds a·x to dst.
func axpy(dst []float64, a float64, x []float64) {
	x = x[:len(dst)]
	for i, v := range x {
		dst[i] += a * v
	}
}
