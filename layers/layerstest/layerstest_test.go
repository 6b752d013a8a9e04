package layerstest

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestRelErr(t *testing.T) {
	b := [][]float64{{1, -4}, {2, 0}}
	if got := RelErr([]float64{1, -4, 2, 0.4}, b); math.Abs(got-0.1) > 1e-15 {
		t.Fatalf("RelErr = %v, want 0.1", got)
	}
	for _, a := range [][]float64{{1, -4, 2}, {1, -4, 2, 0, 5}} {
		if got := RelErr(a, b); !math.IsInf(got, 1) {
			t.Fatalf("%d values against 4: %v, want +Inf", len(a), got)
		}
	}
	if got := ScalarRelErr(1.5, -3); got != 1.5 {
		t.Fatalf("ScalarRelErr = %v, want 1.5", got)
	}
}

func TestRandomGraph(t *testing.T) {
	c, f, mu := RandomGraph(rand.New(rand.NewPCG(1, 2)), 7, 0.5, 2, false, 3)
	if !mat.Equal(c, c.T()) || f == nil || len(mu) != 7 {
		t.Fatalf("symmetric %v, features %v, %d masses", mat.Equal(c, c.T()), f != nil, len(mu))
	}
	sum := 0.0
	for i, m := range mu {
		sum += m
		if !(m > 0) || c.At(i, i) != 0 {
			t.Fatalf("node %d: mass %v, self-loop %v", i, m, c.At(i, i))
		}
	}
	if math.Abs(sum-1) > 1e-12 || mat.Max(c) > 2 || mat.Min(c) < 0 {
		t.Fatalf("masses sum to %v, weights in [%v, %v]", sum, mat.Min(c), mat.Max(c))
	}
	if _, f, _ := RandomGraph(rand.New(rand.NewPCG(1, 2)), 4, 1, 1, true, 0); f != nil {
		t.Fatal("features without d")
	}
	v, h, mus, z := RandomModel(rand.New(rand.NewPCG(3, 4)), []int{3, 5}, 2)
	if len(v) != 2 || len(h) != 2 || len(mus[1]) != 5 || len(z) != 2 {
		t.Fatalf("model: %d V, %d H, %d masses of atom 2, %d z", len(v), len(h), len(mus[1]), len(z))
	}
}
