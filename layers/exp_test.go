package layers

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestExpFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	worst := 0.0
	check := func(x float64) {
		want := math.Exp(x)
		got := expFast(x)
		if want == 0 || math.IsInf(want, 0) {
			if got != want {
				t.Fatalf("exp(%v) = %v, want %v", x, got, want)
			}
			return
		}
		rel := math.Abs(got-want) / want
		worst = math.Max(worst, rel)
		if rel > 1e-15 {
			t.Fatalf("exp(%v) = %v, want %v (relative error %g)", x, got, want, rel)
		}
	}
	for i := 0; i < 1_000_000; i++ {
		check(-750 * rng.Float64())
		check(20 * (rng.Float64() - 0.5))
		check(709 * rng.Float64())
	}
	for _, x := range []float64{0, -0, 1, -1, math.Ln2, -708, -708.5, -745, -746, 709, 709.5, 710, math.Inf(-1), math.Inf(1)} {
		check(x)
	}
	if !math.IsNaN(expFast(math.NaN())) {
		t.Error("exp(NaN) is not NaN")
	}
	t.Logf("worst relative error %.3g", worst)
}

var expSink float64

func BenchmarkExp(b *testing.B) {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = -30 * float64(i) / 1024
	}
	b.Run("math", func(b *testing.B) {
		for b.Loop() {
			for _, x := range xs {
				expSink += math.Exp(x)
			}
		}
	})
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			for _, x := range xs {
				expSink += expFast(x)
			}
		}
	})
}
