package csr

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Matrix is an n×n matrix in compressed-row form: the non-zeros of row i are Val[p] at columns
// Col[p] for p in [RowPtr[i], RowPtr[i+1]), with columns strictly increasing. No stored entry is
// zero. Treat it as immutable once built: graphs and solvers share it.
type Matrix struct {
	n      int
	rowPtr []int
	col    []int32
	val    []float64
}

// Entry is one (row, column, value) triplet given to Build.
type Entry struct {
	Row, Col int
	Val      float64
}

// Bytes is the memory of an n×n matrix with nnz stored entries (row pointers, columns, values).
func Bytes(n, nnz int) int64 {
	return 8*int64(n+1) + 12*int64(nnz)
}

// Build makes an n×n matrix from entries as a sequence of assignments C[Row][Col] = Val:
// a later entry for the same position replaces an earlier one (as with mat.Dense.Set), and a
// position whose last value is zero is not stored. entries is sorted in place.
func Build(n int, entries []Entry) (*Matrix, error) {
	if n < 0 || n > math.MaxInt32 {
		return nil, fmt.Errorf("csr: %d rows out of range", n)
	}
	for _, e := range entries {
		if e.Row < 0 || e.Row >= n || e.Col < 0 || e.Col >= n {
			return nil, fmt.Errorf("csr: entry (%d,%d) outside a %d×%d matrix", e.Row, e.Col, n, n)
		}
	}
	// Stable, so that among equal positions the last assignment stays last.
	slices.SortStableFunc(entries, func(a, b Entry) int {
		if c := cmp.Compare(a.Row, b.Row); c != 0 {
			return c
		}
		return cmp.Compare(a.Col, b.Col)
	})
	m := &Matrix{n: n, rowPtr: make([]int, n+1)}
	for p := 0; p < len(entries); p++ {
		e := entries[p]
		if p+1 < len(entries) && entries[p+1].Row == e.Row && entries[p+1].Col == e.Col {
			continue // replaced by a later assignment
		}
		if e.Val == 0 {
			continue
		}
		m.col = append(m.col, int32(e.Col))
		m.val = append(m.val, e.Val)
		m.rowPtr[e.Row+1]++
	}
	for i := 0; i < n; i++ {
		m.rowPtr[i+1] += m.rowPtr[i]
	}
	return m, nil
}

// New makes an n×n matrix of given compressed rows (used as given, not copied): rowPtr of n+1
// non-decreasing offsets from 0 to len(col), columns in [0, n) strictly increasing within each
// row, non-zero values.
func New(n int, rowPtr []int, col []int32, val []float64) (*Matrix, error) {
	switch {
	case n < 0 || n > math.MaxInt32:
		return nil, fmt.Errorf("csr: %d rows out of range", n)
	case len(rowPtr) != n+1 || rowPtr[0] != 0 || rowPtr[n] != len(col):
		return nil, fmt.Errorf("csr: %d row offsets for %d rows and %d entries", len(rowPtr), n, len(col))
	case len(val) != len(col):
		return nil, fmt.Errorf("csr: %d values for %d columns", len(val), len(col))
	}
	for i := 0; i < n; i++ {
		if rowPtr[i+1] < rowPtr[i] {
			return nil, fmt.Errorf("csr: row offsets decrease at row %d", i)
		}
		for p := rowPtr[i]; p < rowPtr[i+1]; p++ {
			switch {
			case col[p] < 0 || int(col[p]) >= n:
				return nil, fmt.Errorf("csr: column %d outside a %d×%d matrix", col[p], n, n)
			case p > rowPtr[i] && col[p] <= col[p-1]:
				return nil, fmt.Errorf("csr: row %d: columns not strictly increasing", i)
			case val[p] == 0:
				return nil, fmt.Errorf("csr: row %d stores a zero", i)
			}
		}
	}
	return &Matrix{n: n, rowPtr: rowPtr, col: col, val: val}, nil
}

// FromDense copies the non-zeros of a square dense matrix.
func FromDense(c *mat.Dense) (*Matrix, error) {
	r, k := c.Dims()
	if r != k {
		return nil, fmt.Errorf("csr: matrix is %d×%d, not square", r, k)
	}
	m := &Matrix{n: r, rowPtr: make([]int, r+1)}
	for i := 0; i < r; i++ {
		for j, v := range c.RawRowView(i) {
			if v != 0 {
				m.col = append(m.col, int32(j))
				m.val = append(m.val, v)
			}
		}
		m.rowPtr[i+1] = len(m.col)
	}
	return m, nil
}

// N is the number of rows (and columns).
func (m *Matrix) N() int { return m.n }

// NNZ is the number of stored (non-zero) entries.
func (m *Matrix) NNZ() int { return len(m.val) }

// Bytes is the memory the matrix holds.
func (m *Matrix) Bytes() int64 { return Bytes(m.n, len(m.val)) }

// Row returns the columns and values of row i's non-zeros, owned by the matrix.
func (m *Matrix) Row(i int) (cols []int32, vals []float64) {
	lo, hi := m.rowPtr[i], m.rowPtr[i+1]
	return m.col[lo:hi:hi], m.val[lo:hi:hi]
}

// At returns entry (i, j).
func (m *Matrix) At(i, j int) float64 {
	cols, vals := m.Row(i)
	if p, ok := slices.BinarySearch(cols, int32(j)); ok {
		return vals[p]
	}
	return 0
}

// DenseInto writes the matrix into dst, row-major with the given stride (at least n); dst must
// hold (n−1)·stride+n entries. Entries outside the n×n block are left alone.
func (m *Matrix) DenseInto(dst []float64, stride int) {
	for i := 0; i < m.n; i++ {
		row := dst[i*stride : i*stride+m.n]
		clear(row)
		cols, vals := m.Row(i)
		for p, j := range cols {
			row[j] = vals[p]
		}
	}
}

// Dense returns a new dense copy.
func (m *Matrix) Dense() *mat.Dense {
	if m.n == 0 {
		return &mat.Dense{}
	}
	d := make([]float64, m.n*m.n)
	m.DenseInto(d, m.n)
	return mat.NewDense(m.n, m.n, d)
}

// Transpose returns a new matrix, the transpose.
func (m *Matrix) Transpose() *Matrix {
	t := &Matrix{n: m.n, rowPtr: make([]int, m.n+1), col: make([]int32, len(m.col)), val: make([]float64, len(m.val))}
	for _, j := range m.col {
		t.rowPtr[j+1]++
	}
	for j := 0; j < m.n; j++ {
		t.rowPtr[j+1] += t.rowPtr[j]
	}
	next := append([]int(nil), t.rowPtr[:m.n]...)
	for i := 0; i < m.n; i++ { // rows in order: each row of the transpose gets increasing columns
		for p := m.rowPtr[i]; p < m.rowPtr[i+1]; p++ {
			j := m.col[p]
			t.col[next[j]], t.val[next[j]] = int32(i), m.val[p]
			next[j]++
		}
	}
	return t
}

// MulDense writes dst = M·X for X of n rows and d columns, both row-major (len n·d).
func (m *Matrix) MulDense(dst, x []float64, d int) {
	for i := 0; i < m.n; i++ {
		di := dst[i*d : (i+1)*d]
		clear(di)
		for p := m.rowPtr[i]; p < m.rowPtr[i+1]; p++ {
			v, xj := m.val[p], x[int(m.col[p])*d:int(m.col[p]+1)*d]
			for c, xv := range xj {
				di[c] += v * xv
			}
		}
	}
}

// Symmetric reports whether the matrix equals its transpose.
func (m *Matrix) Symmetric() bool {
	for i := 0; i < m.n; i++ {
		cols, vals := m.Row(i)
		for p, j := range cols {
			if m.At(int(j), i) != vals[p] {
				return false
			}
		}
	}
	return true
}
