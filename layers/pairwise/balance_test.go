package pairwise

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// randomFeatureGraphs are small weighted graphs with a non-uniform mu and d-dimensional features.
func randomFeatureGraphs(t *testing.T, rng *rand.Rand, count, d int) []*graphs.Graph {
	t.Helper()
	var gs []*graphs.Graph
	for g := 0; g < count; g++ {
		n := 2 + rng.IntN(5)
		c := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if i != j && rng.Float64() < 0.5 {
					c.Set(i, j, 3*rng.Float64())
				}
			}
		}
		mu := make([]float64, n)
		sum := 0.0
		for i := range mu {
			mu[i] = 0.1 + rng.Float64()
			sum += mu[i]
		}
		for i := range mu {
			mu[i] /= sum
		}
		var f *mat.Dense
		if d > 0 {
			f = mat.NewDense(n, d, nil)
			for i := 0; i < n; i++ {
				for j := 0; j < d; j++ {
					f.Set(i, j, 5*rng.NormFloat64()+2)
				}
			}
		}
		gr, err := graphs.New("g", c, mu, f)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, gr)
	}
	return gs
}

// bruteForceBalance sums both costs over every ordered pair of graphs, term by term.
func bruteForceBalance(gs []*graphs.Graph) (structure, features float64) {
	for _, s := range gs {
		for _, u := range gs {
			ns, nt := s.N(), u.N()
			for i := 0; i < ns; i++ {
				for j := 0; j < nt; j++ {
					for k := 0; k < ns; k++ {
						for l := 0; l < nt; l++ {
							diff := s.A.At(i, k) - u.A.At(j, l)
							structure += s.Mu[i] * s.Mu[k] * u.Mu[j] * u.Mu[l] * diff * diff
						}
					}
					if s.F != nil {
						_, d := s.F.Dims()
						for q := 0; q < d; q++ {
							diff := s.F.At(i, q) - u.F.At(j, q)
							features += s.Mu[i] * u.Mu[j] * diff * diff
						}
					}
				}
			}
		}
	}
	pairs := float64(len(gs) * len(gs))
	return structure / pairs, features / pairs
}

func TestBalanceFeaturesMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{0, 1, 3} {
		gs := randomFeatureGraphs(t, rng, 6, d)
		b, err := BalanceFeatures(graphs.Slice(gs))
		if err != nil {
			t.Fatal(err)
		}
		s, f := bruteForceBalance(gs)
		if math.Abs(b.Structure-s) > 1e-12*s || math.Abs(b.Features-f) > 1e-12*math.Max(f, 1) {
			t.Errorf("d=%d: closed form %+v, brute force structure %v features %v", d, b, s, f)
		}
		switch {
		case d == 0 && (b.Features != 0 || b.Weight != 1):
			t.Errorf("no features: %+v, want feature cost 0 and weight 1", b)
		case d > 0 && math.Abs(b.Weight*b.Features-b.Structure) > 1e-12*b.Structure:
			t.Errorf("d=%d: weight %v does not equalise %v and %v", d, b.Weight, b.Structure, b.Features)
		}
	}
}

// Rescaling the features by s leaves the weighted feature cost unchanged: the weight absorbs
// the units.
func TestBalanceFeaturesAbsorbsUnits(t *testing.T) {
	gs := randomFeatureGraphs(t, rand.New(rand.NewPCG(5, 6)), 5, 2)
	before, err := BalanceFeatures(graphs.Slice(gs))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		g.F.Scale(100, g.F)
	}
	after, err := BalanceFeatures(graphs.Slice(gs))
	if err != nil {
		t.Fatal(err)
	}
	if r := after.Weight * 1e4 / before.Weight; math.Abs(r-1) > 1e-9 || after.Structure != before.Structure {
		t.Errorf("features ×100: weight %v → %v (want ÷1e4), structure %v → %v", before.Weight, after.Weight, before.Structure, after.Structure)
	}
}

func TestBalanceFeaturesDegenerate(t *testing.T) {
	if _, err := BalanceFeatures(graphs.Slice(nil)); err == nil {
		t.Error("no graphs: no error")
	}
	if _, err := BalanceFeatures(nil); err == nil {
		t.Error("a nil source: no error")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	mixed := append(randomFeatureGraphs(t, rng, 2, 2), randomFeatureGraphs(t, rng, 1, 3)...)
	if _, err := BalanceFeatures(graphs.Slice(mixed)); err == nil {
		t.Error("2- and 3-dimensional features: no error")
	}
	// Constant features: nothing to weigh, weight 1.
	gs := randomFeatureGraphs(t, rng, 3, 2)
	for _, g := range gs {
		r, c := g.F.Dims()
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				g.F.Set(i, j, 4)
			}
		}
	}
	if b, err := BalanceFeatures(graphs.Slice(gs)); err != nil || b.Weight != 1 || b.Features > 1e-12 {
		t.Errorf("constant features: %+v, %v (want weight 1)", b, err)
	}
}
