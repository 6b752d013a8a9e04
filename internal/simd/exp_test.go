package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps is the distance between a and b in units in the last place of b.
func ulps(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / (math.Nextafter(b, math.Inf(1)) - b)
}

// expKernels are the implementations under test: the one in use and the portable one.
var expKernels = map[string]func(dst, c, t []float64, shift, scale float64){"ExpScaled": ExpScaled, "Go": expScaledGo}

// TestExpScaledAccuracy compares the kernels with math.Exp over the solvers' range (and beyond),
// for every tail length.
func TestExpScaledAccuracy(t *testing.T) {
	for name, kernel := range expKernels {
		t.Run(name, func(t *testing.T) { testExpAccuracy(t, kernel) })
	}
}

func testExpAccuracy(t *testing.T, kernel func(dst, c, t []float64, shift, scale float64)) {
	r := rand.New(rand.NewPCG(5, 6))
	worst := 0.0
	for trial := 0; trial < 2000; trial++ {
		n := 1 + trial%11
		c, tr, dst := make([]float64, n), make([]float64, n), make([]float64, n)
		for j := range c {
			c[j] = r.Float64()*800 - 50
			tr[j] = 1
		}
		shift, scale := r.Float64()*10-5, 1.0
		kernel(dst, c, tr, shift, scale)
		for j := range dst {
			x := shift - c[j]
			want := math.Exp(x)
			if x < -708 {
				want = 0
			}
			if want == 0 {
				if dst[j] != 0 {
					t.Fatalf("exp(%v) = %v, want 0", x, dst[j])
				}
				continue
			}
			u := ulps(dst[j], want)
			worst = max(worst, u)
			if u > 2 {
				t.Fatalf("exp(%v) = %v, want %v (%.1f ulp)", x, dst[j], want, u)
			}
		}
	}
	t.Logf("worst error %.2f ulp", worst)
}

// TestExpScaledSpecial checks the scaling by t, the clamps and NaN.
func TestExpScaledSpecial(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	c := []float64{0, 1, 800, -800, nan, inf, -inf, 2, 3, 700}
	tr := []float64{2, 0.5, 1, 1, 1, 1, 1, 0, 1, 1e-10}
	// The last would be subnormal (9.9e-315): flushed to 0.
	want := []float64{2, 0.5 * math.Exp(-1), 0, inf, nan, 0, inf, 0, math.Exp(-3), 0}
	for name, kernel := range expKernels {
		dst := make([]float64, len(c))
		kernel(dst, c, tr, 0, 1)
		for j, w := range want {
			switch {
			case math.IsNaN(w):
				if !math.IsNaN(dst[j]) {
					t.Errorf("%s: entry %d = %v, want NaN", name, j, dst[j])
				}
			case ulps(dst[j], w) > 2 && !(w == 0 && dst[j] == 0):
				t.Errorf("%s: entry %d (c = %v, t = %v) = %v, want %v", name, j, c[j], tr[j], dst[j], w)
			}
		}
	}
}

func TestExpScaledDoesNotWritePastEnd(t *testing.T) {
	buf := []float64{0, 0, 0, 0, 0, 0, 7, 7}
	ExpScaled(buf[:6], make([]float64, 6), []float64{1, 1, 1, 1, 1, 1}, 0, 1)
	if buf[6] != 7 || buf[7] != 7 || buf[5] != 1 {
		t.Fatalf("buffer = %v", buf)
	}
}

func BenchmarkExpScaled(b *testing.B) {
	n := 40
	c, tr, dst := make([]float64, n), make([]float64, n), make([]float64, n)
	for j := range c {
		c[j] = float64(j) * 0.01
		tr[j] = 1
	}
	for b.Loop() {
		ExpScaled(dst, c, tr, 0, 100)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/exp")
}

// TestExpAdd checks both kernels against math.Exp, with and without y, for every tail length.
func TestExpAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, kernel := range []func(dst []float64, a float64, x, y []float64){ExpAdd, expAddGo} {
		for n := 1; n <= 13; n++ {
			for _, withY := range []bool{false, true} {
				x := make([]float64, n)
				for j := range x {
					x[j] = r.Float64()*1500 - 800
				}
				var y []float64
				if withY {
					y = randSlice(r, n)
				}
				a := r.NormFloat64()
				dst := make([]float64, n+1)
				dst[n] = 3
				kernel(dst[:n], a, x, y)
				if dst[n] != 3 {
					t.Fatalf("n=%d: wrote past the end", n)
				}
				for j := 0; j < n; j++ {
					v := a + x[j]
					if withY {
						v += y[j]
					}
					want := math.Exp(v)
					if v < -708 {
						want = 0
					}
					if ulps(dst[j], want) > 2 && !(want == 0 && dst[j] == 0) {
						t.Fatalf("n=%d y=%v: exp(%v) = %v, want %v", n, withY, v, dst[j], want)
					}
				}
			}
		}
	}
}
