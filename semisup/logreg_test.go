package semisup

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// blobs: n points per class around well separated centres in d dimensions.
func blobs(n, d, classes int, seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 2))
	x := mat.NewDense(n*classes, d, nil)
	var y []int
	for c := 0; c < classes; c++ {
		for i := 0; i < n; i++ {
			r := c*n + i
			for j := 0; j < d; j++ {
				v := rng.NormFloat64()
				if j == c%d {
					v += 4
				}
				x.Set(r, j, 10+0.1*v) // an offset and a small scale that standardization undoes
			}
			y = append(y, c)
		}
	}
	return x, y
}

func TestLogRegSeparatesBlobs(t *testing.T) {
	x, y := blobs(30, 4, 3, 1)
	lr, err := FitLogReg(x, y, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	ok := 0
	for i, p := range lr.Predict(x) {
		if p == y[i] {
			ok++
		}
	}
	if acc := float64(ok) / float64(len(y)); acc < 0.95 {
		t.Errorf("training accuracy %v on separated blobs", acc)
	}
	// A stronger penalty gives smaller weights.
	small, err := FitLogReg(x, y, 3, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if mat.Norm(small.W, 2) >= mat.Norm(lr.W, 2) {
		t.Errorf("‖W‖ = %v at C = 0.01, %v at C = 1", mat.Norm(small.W, 2), mat.Norm(lr.W, 2))
	}
}

// TestLogRegGradient compares the objective's gradient with central finite differences.
func TestLogRegGradient(t *testing.T) {
	x, y := blobs(5, 3, 3, 2)
	p := logRegProblem(x, y, 3, 0.3)
	rng := rand.New(rand.NewPCG(3, 3))
	w := make([]float64, 3*3+3)
	for i := range w {
		w[i] = rng.NormFloat64() * 0.1
	}
	g := make([]float64, len(w))
	p.Grad(g, w)
	const h = 1e-6
	for i := range w {
		a, b := append([]float64(nil), w...), append([]float64(nil), w...)
		a[i] += h
		b[i] -= h
		fd := (p.Func(a) - p.Func(b)) / (2 * h)
		if math.Abs(fd-g[i]) > 1e-6 {
			t.Errorf("∂/∂p%d: analytic %v, finite differences %v", i, g[i], fd)
		}
	}
}

func TestChooseCAndErrors(t *testing.T) {
	x, y := blobs(10, 3, 2, 4)
	c, err := ChooseC(x, y, 2, []float64{0.01, 1, 100}, 5, 1)
	if err != nil || (c != 0.01 && c != 1 && c != 100) {
		t.Errorf("C = %v, %v", c, err)
	}
	if _, err := ChooseC(x, y, 2, nil, 5, 1); err == nil {
		t.Error("empty grid: no error")
	}
	for _, tc := range []struct {
		y       []int
		classes int
		c       float64
	}{{y[:3], 2, 1}, {y, 1, 1}, {y, 2, 0}, {y, 2, math.Inf(1)}, {append(append([]int(nil), y[:len(y)-1]...), 5), 2, 1}} {
		if _, err := FitLogReg(x, tc.y, tc.classes, tc.c); err == nil {
			t.Errorf("%d labels, %d classes, C = %v: no error", len(tc.y), tc.classes, tc.c)
		}
	}
}
