package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCostRowMatchesGo: the kernel equals the Go loop bit for bit, with and without D, for
// every tail length, and ignores NaN in the minimum.
func TestCostRowMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for n := 1; n <= 13; n++ {
		for _, withD := range []bool{false, true} {
			row, ft := randSlice(r, n+2), randSlice(r, n)
			var d []float64
			if withD {
				d = randSlice(r, n)
			}
			fi := r.NormFloat64()
			if n == 7 {
				row[3] = math.NaN()
			}
			want := append([]float64(nil), row...)
			wantMin := costRowGo(want[:n], fi, ft, d)
			gotMin := CostRow(row[:n], fi, ft, d)
			if gotMin != wantMin {
				t.Fatalf("n=%d d=%v: min %v, want %v", n, withD, gotMin, wantMin)
			}
			for j := range want {
				if row[j] != want[j] && !(math.IsNaN(row[j]) && math.IsNaN(want[j])) {
					t.Fatalf("n=%d d=%v: row[%d] = %v, want %v", n, withD, j, row[j], want[j])
				}
			}
		}
	}
}

func TestMulScaledMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for n := 1; n <= 13; n++ {
		x, y := randSlice(r, n), randSlice(r, n)
		x[n/2] = 1e-300 // x·y·0.3 is subnormal or 0 for |y| < 7e-9: flushed either way
		y[n/2] = -1e-10
		got, want := make([]float64, n+1), make([]float64, n+1)
		got[n], want[n] = 5, 5
		MulScaled(got[:n], 0.3, x, y)
		mulScaledGo(want[:n], 0.3, x, y)
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("n=%d: entry %d = %v, want %v", n, j, got[j], want[j])
			}
		}
		if got[n/2] != 0 {
			t.Fatalf("n=%d: subnormal %v not flushed", n, got[n/2])
		}
	}
}

// TestMaxKernels: MaxAdd and MaxInto match the Go loops for every tail length, skip NaN
// sums, and handle −Inf.
func TestMaxKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for n := 1; n <= 13; n++ {
		x, y := randSlice(r, n), randSlice(r, n)
		x[n/2] = math.NaN()
		if n > 2 {
			y[0] = math.Inf(-1)
		}
		if got, want := MaxAdd(x, y), maxAddGo(x, y, 0); got != want {
			t.Fatalf("n=%d: MaxAdd = %v, want %v", n, got, want)
		}
		mx, mxGo := randSlice(r, n+1), make([]float64, n+1)
		copy(mxGo, mx)
		MaxInto(mx[:n], 0.25, x)
		maxIntoGo(mxGo[:n], 0.25, x)
		for j := range mx {
			if mx[j] != mxGo[j] {
				t.Fatalf("n=%d: MaxInto entry %d = %v, want %v", n, j, mx[j], mxGo[j])
			}
		}
	}
	if got := MaxAdd([]float64{math.NaN()}, []float64{1}); !math.IsInf(got, -1) {
		t.Errorf("MaxAdd of a NaN sum = %v, want −Inf", got)
	}
}
