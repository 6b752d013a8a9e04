package csr

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestBuildIsDenseSet: Build gives the matrix that the same entries assigned in order with
// mat.Dense.Set give, repeated positions and zero assignments included, and FromDense, Dense,
// At, Row and Symmetric agree with it.
func TestBuildIsDenseSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(9)
		want := mat.NewDense(n, n, nil)
		var entries []Entry
		for e := rng.IntN(3 * n * n); e > 0; e-- {
			v := float64(rng.IntN(3)) // zeros too: a later zero removes an entry
			en := Entry{Row: rng.IntN(n), Col: rng.IntN(n), Val: v}
			entries = append(entries, en)
			want.Set(en.Row, en.Col, v)
		}
		m, err := Build(n, entries)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(m.Dense(), want) {
			t.Fatalf("trial %d: Build =\n%v\nwant\n%v", trial, mat.Formatted(m.Dense()), mat.Formatted(want))
		}
		fd, err := FromDense(want)
		if err != nil {
			t.Fatal(err)
		}
		if fd.NNZ() != m.NNZ() || !mat.Equal(fd.Dense(), want) {
			t.Fatalf("trial %d: FromDense differs", trial)
		}
		nnz := 0
		for i := 0; i < n; i++ {
			cols, vals := m.Row(i)
			for p := range cols {
				if p > 0 && cols[p] <= cols[p-1] {
					t.Fatalf("row %d: columns %v not increasing", i, cols)
				}
				if vals[p] == 0 {
					t.Fatalf("row %d stores a zero", i)
				}
			}
			nnz += len(cols)
			for j := 0; j < n; j++ {
				if m.At(i, j) != want.At(i, j) {
					t.Fatalf("At(%d,%d) = %v, want %v", i, j, m.At(i, j), want.At(i, j))
				}
			}
		}
		if nnz != m.NNZ() || m.Bytes() != Bytes(n, nnz) {
			t.Fatalf("NNZ %d, rows hold %d; Bytes %d", m.NNZ(), nnz, m.Bytes())
		}
		if m.Symmetric() != mat.Equal(want, want.T()) {
			t.Fatalf("Symmetric = %v for\n%v", m.Symmetric(), mat.Formatted(want))
		}
	}
}

func TestDenseIntoStride(t *testing.T) {
	m, err := Build(2, []Entry{{0, 1, 2}, {1, 0, 3}})
	if err != nil {
		t.Fatal(err)
	}
	dst := []float64{9, 9, 7, 9, 9, 7} // stride 3: the third column is not the matrix's
	m.DenseInto(dst, 3)
	want := []float64{0, 2, 7, 3, 0, 7}
	for i := range dst {
		if dst[i] != want[i] {
			t.Fatalf("DenseInto = %v, want %v", dst, want)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	for _, tc := range []struct {
		n int
		e []Entry
	}{
		{-1, nil},
		{2, []Entry{{2, 0, 1}}},
		{2, []Entry{{0, -1, 1}}},
	} {
		if _, err := Build(tc.n, tc.e); err == nil {
			t.Errorf("Build(%d, %v) accepted", tc.n, tc.e)
		}
	}
	if _, err := FromDense(mat.NewDense(2, 3, nil)); err == nil {
		t.Error("FromDense of a 2×3 matrix accepted")
	}
	if m, err := Build(0, nil); err != nil || m.N() != 0 || m.NNZ() != 0 {
		t.Errorf("empty matrix: %v, %v", m, err)
	}
}

func TestNew(t *testing.T) {
	m, err := New(3, []int{0, 1, 1, 3}, []int32{2, 0, 1}, []float64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(3, 3, []float64{0, 0, 1, 0, 0, 0, 2, 3, 0})
	if !mat.Equal(m.Dense(), want) {
		t.Errorf("New =\n%v", mat.Formatted(m.Dense()))
	}
	for _, tc := range []struct {
		n      int
		rowPtr []int
		col    []int32
		val    []float64
	}{
		{2, []int{0, 1}, []int32{0}, []float64{1}},          // too few offsets
		{2, []int{0, 1, 2}, []int32{0}, []float64{1}},       // last offset is not len(col)
		{2, []int{0, 2, 1}, []int32{0, 1}, []float64{1, 1}}, // decreasing
		{2, []int{0, 2, 2}, []int32{1, 0}, []float64{1, 1}}, // columns not increasing
		{2, []int{0, 1, 1}, []int32{2}, []float64{1}},       // column out of range
		{2, []int{0, 1, 1}, []int32{0}, []float64{0}},       // a stored zero
		{2, []int{0, 1, 1}, []int32{0}, []float64{1, 2}},    // values and columns differ
		{-1, nil, nil, nil},
	} {
		if _, err := New(tc.n, tc.rowPtr, tc.col, tc.val); err == nil {
			t.Errorf("New(%d, %v, %v, %v) accepted", tc.n, tc.rowPtr, tc.col, tc.val)
		}
	}
}

func TestTransposeAndMulDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d = 7, 3
	c := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != 4 && rng.Float64() < 0.4 { // row 4 empty
				c.Set(i, j, rng.NormFloat64())
			}
		}
	}
	m, err := FromDense(c)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(m.Transpose().Dense(), c.T()) {
		t.Errorf("Transpose =\n%v", mat.Formatted(m.Transpose().Dense()))
	}
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	var want mat.Dense
	want.Mul(c, x)
	got := make([]float64, n*d)
	for i := range got {
		got[i] = 99 // overwritten, not added to
	}
	m.MulDense(got, x.RawMatrix().Data, d)
	if !mat.EqualApprox(mat.NewDense(n, d, got), &want, 1e-12) {
		t.Errorf("MulDense =\n%v\nwant\n%v", mat.Formatted(mat.NewDense(n, d, got)), mat.Formatted(&want))
	}
}
