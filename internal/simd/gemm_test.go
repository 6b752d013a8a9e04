package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naive is the reference C += A·B.
func naive(m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			s := 0.0
			for p := 0; p < k; p++ {
				s += a[i*lda+p] * b[p*ldb+j]
			}
			c[i*ldc+j] += alpha * s
		}
	}
}

func randSlice(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	return x
}

// TestMulAddMatchesNaive covers every edge case of the tiling (rows mod 4, columns mod 8,
// k = 1 and odd) with padded strides, and checks that nothing outside C's block is written.
func TestMulAddMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, m := range []int{1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 33} {
		for _, n := range []int{1, 3, 7, 8, 9, 15, 16, 17, 40} {
			for _, k := range []int{1, 2, 3, 8, 21} {
				lda, ldb, ldc := k+2, n+3, n+1
				a := randSlice(r, m*lda)
				b := randSlice(r, k*ldb)
				c := randSlice(r, m*ldc)
				alpha := r.NormFloat64()
				want := append([]float64(nil), c...)
				naive(m, n, k, alpha, a, lda, b, ldb, want, ldc)
				got := append([]float64(nil), c...)
				MulAdd(m, n, k, alpha, a, lda, b, ldb, got, ldc)
				for i := range got {
					if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
						t.Fatalf("m=%d n=%d k=%d: entry %d = %v, want %v", m, n, k, i, got[i], want[i])
					}
				}
				gotGo := append([]float64(nil), c...)
				mulAddGo(m, n, k, alpha, a, lda, b, ldb, gotGo, ldc)
				for i := range gotGo {
					if math.Abs(gotGo[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
						t.Fatalf("Go kernel, m=%d n=%d k=%d: entry %d = %v, want %v", m, n, k, i, gotGo[i], want[i])
					}
				}
			}
		}
	}
}

// TestMulAddExactSlices runs the masked edge with B and C ending exactly at their last
// element: masked lanes must not be touched.
func TestMulAddExactSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 5, 11} {
		m, k := 5, 6
		a, b, c := randSlice(r, m*k), randSlice(r, k*n), make([]float64, m*n)
		want := make([]float64, m*n)
		naive(m, n, k, 1, a, k, b, n, want, n)
		Mul(m, n, k, a, k, b, n, c, n)
		for i := range c {
			if math.Abs(c[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
				t.Fatalf("n=%d: entry %d = %v, want %v", n, i, c[i], want[i])
			}
		}
	}
}

func TestMulAddPanicsOnShortSlices(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for a short slice")
		}
	}()
	MulAdd(2, 2, 2, 1, make([]float64, 3), 2, make([]float64, 4), 2, make([]float64, 4), 2)
}

func TestMulAddDoesNotAllocate(t *testing.T) {
	a, b, c := make([]float64, 40*40), make([]float64, 40*17), make([]float64, 40*17)
	if n := testing.AllocsPerRun(10, func() { MulAdd(40, 17, 40, 1, a, 40, b, 17, c, 17) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

// TestMulAddBlocked: the cache-blocked path of large products (k above blockMinK, n from
// blockMinN), with ragged panel and column blocks and padded strides, matches the reference to
// rounding and writes nothing outside C's block; below those sizes the products are unblocked.
func TestMulAddBlocked(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, s := range [][3]int{{37, 523, 1031}, {9, 1100, 1300}} {
		m, n, k := s[0], s[1], s[2]
		lda, ldb, ldc := k+3, n+5, n+2
		a, b, c := randSlice(r, m*lda), randSlice(r, k*ldb), randSlice(r, m*ldc)
		alpha := r.NormFloat64()
		want := append([]float64(nil), c...)
		naive(m, n, k, alpha, a, lda, b, ldb, want, ldc)
		got := append([]float64(nil), c...)
		MulAdd(m, n, k, alpha, a, lda, b, ldb, got, ldc)
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-11*(1+math.Abs(want[i])) {
				t.Fatalf("%v: entry %d = %v, want %v", s, i, got[i], want[i])
			}
		}
	}
}
