package layers

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// withCodes gives sp random categorical codes (cols columns, values below values) and returns
// it with their one-hot encoding, one block of values columns per code column.
func withCodes(rng *rand.Rand, sp Space, cols, values int) (codes, oneHot Space) {
	n := sp.N()
	c := mat.NewDense(n, cols, nil)
	h := mat.NewDense(n, cols*values, nil)
	for i := range n {
		for k := range cols {
			v := rng.IntN(values)
			c.Set(i, k, float64(1000+7*v)) // any distinct values are codes
			h.Set(i, k*values+v, 1)
		}
	}
	codes, oneHot = sp, sp
	codes.F, codes.Metric = c, Hamming
	oneHot.F = h
	return codes, oneHot
}

// TestHammingIsHalfSquaredEuclideanOfOneHot: the Hamming cost of codes at weight w is the
// squared Euclidean cost of their one-hot encoding at weight w/2, so every solver returns the
// same discrepancy for both.
func TestHammingIsHalfSquaredEuclideanOfOneHot(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for _, name := range SolverNames() {
		for trial := range 3 {
			sa, ha := withCodes(rng, randomSpace(rng, 7+trial, 0.4, 1, false, 0), 3, 4)
			sb, hb := withCodes(rng, randomSpace(rng, 9, 0.4, 1, false, 0), 3, 4)
			const w = 0.8
			opt, err := DefaultSolverOptions(name)
			if err != nil {
				t.Fatal(err)
			}
			opt.FeatureWeight = w
			s, err := NewSolver(opt)
			if err != nil {
				t.Fatal(err)
			}
			_, got, err := GWD(s, sa, sb)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			opt.FeatureWeight = w / 2
			s2, err := NewSolver(opt)
			if err != nil {
				t.Fatal(err)
			}
			_, want, err := GWD(s2, ha, hb)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Errorf("%s trial %d: Hamming %v, one-hot squared Euclidean %v", name, trial, got, want)
			}
		}
	}
}

// TestHammingMixedRefused: two sides compared by different metrics, or by an unknown one, are
// refused as input errors.
func TestHammingMixedRefused(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 1))
	sa, _ := withCodes(rng, randomSpace(rng, 5, 0.5, 1, false, 0), 2, 3)
	sb, _ := withCodes(rng, randomSpace(rng, 5, 0.5, 1, false, 0), 2, 3)
	sb.Metric = SquaredEuclidean
	_, _, err := GWD(DefaultCG(), sa, sb)
	if !errors.Is(err, ErrInput) {
		t.Fatalf("mixed metrics: got %v, want ErrInput", err)
	}
	sb.Metric = FeatureMetric(7)
	sa.Metric = FeatureMetric(7)
	if _, _, err := GWD(DefaultCG(), sa, sb); !errors.Is(err, ErrInput) {
		t.Fatalf("unknown metric: got %v, want ErrInput", err)
	}
}
