package cluster

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// blobs draws n points around each center with isotropic Gaussian noise of the given std.
func blobs(rng *rand.Rand, centers [][]float64, n int, std float64) (x [][]float64, labels []int) {
	for c, mu := range centers {
		for range n {
			p := make([]float64, len(mu))
			for j, m := range mu {
				p[j] = m + std*rng.NormFloat64()
			}
			x = append(x, p)
			labels = append(labels, c)
		}
	}
	return x, labels
}

func uniformPoints(rng *rand.Rand, n, d int) [][]float64 {
	x := make([][]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = rng.Float64()
		}
	}
	return x
}

// checkInvariants verifies that a Result is self-consistent: every point sits at a nearest
// center, Inertia is the sum of those squared distances, and no cluster is empty.
func checkInvariants(t *testing.T, x [][]float64, k int, res Result) {
	t.Helper()
	if len(res.Assign) != len(x) || len(res.Centers) != k {
		t.Fatalf("got %d assignments and %d centers, want %d and %d", len(res.Assign), len(res.Centers), len(x), k)
	}
	counts := make([]int, k)
	inertia := 0.0
	for i, p := range x {
		a := res.Assign[i]
		if a < 0 || a >= k {
			t.Fatalf("point %d assigned to %d", i, a)
		}
		counts[a]++
		d := sqDist(p, res.Centers[a])
		for j, c := range res.Centers {
			if dj := sqDist(p, c); dj < d {
				t.Fatalf("point %d: center %d is nearer (%v) than its center %d (%v)", i, j, dj, a, d)
			}
		}
		inertia += d
	}
	for j, c := range counts {
		if c == 0 {
			t.Errorf("cluster %d is empty", j)
		}
	}
	if math.Abs(inertia-res.Inertia) > 1e-9*(1+inertia) {
		t.Errorf("Inertia = %v, recomputed %v", res.Inertia, inertia)
	}
}

func TestKMeansRecoversBlobs(t *testing.T) {
	tests := []struct {
		name    string
		centers [][]float64
	}{
		{"two in 2D", [][]float64{{0, 0}, {10, 10}}},
		{"three in 2D", [][]float64{{0, 0}, {10, 0}, {0, 10}}},
		{"four in 5D", [][]float64{{0, 0, 0, 0, 0}, {8, 0, 0, 0, 0}, {0, 0, 8, 0, 0}, {0, 0, 0, 0, 8}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := range uint64(5) {
				rng := rand.New(rand.NewPCG(seed, 99))
				x, truth := blobs(rng, tt.centers, 40, 0.5)
				k := len(tt.centers)
				res, err := KMeans(x, KMeansOptions{K: k, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				checkInvariants(t, x, k, res)
				s, err := Evaluate(truth, res.Assign)
				if err != nil {
					t.Fatal(err)
				}
				if s.Accuracy != 1 || s.ARI != 1 {
					t.Errorf("seed %d: scores %+v, want perfect recovery", seed, s)
				}
			}
		})
	}
}

func TestKMeansDeterministic(t *testing.T) {
	x := uniformPoints(rand.New(rand.NewPCG(1, 2)), 150, 4)
	for _, seed := range []uint64{0, 1, 42} {
		opt := KMeansOptions{K: 5, Restarts: 4, Seed: seed}
		a, err := KMeans(x, opt)
		if err != nil {
			t.Fatal(err)
		}
		b, err := KMeans(x, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("seed %d: two runs differ:\n%+v\n%+v", seed, a, b)
		}
	}
}

func TestKMeansRestartsNeverWorse(t *testing.T) {
	x := uniformPoints(rand.New(rand.NewPCG(8, 9)), 200, 3)
	for seed := range uint64(10) {
		one, err := KMeans(x, KMeansOptions{K: 6, Restarts: 1, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		many, err := KMeans(x, KMeansOptions{K: 6, Restarts: 10, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, x, 6, many)
		if many.Inertia > one.Inertia {
			t.Errorf("seed %d: 10 restarts inertia %v > 1 restart %v", seed, many.Inertia, one.Inertia)
		}
	}
}

func TestKMeansEdgeCases(t *testing.T) {
	tests := []struct {
		name        string
		x           [][]float64
		k           int
		wantInertia float64
	}{
		{"duplicates, K > distinct points", [][]float64{{1, 1}, {1, 1}, {1, 1}, {1, 1}}, 3, 0},
		{"K equals n", [][]float64{{0}, {1}, {5}, {9}}, 4, 0},
		{"K = 1 is the mean", [][]float64{{0, 0}, {2, 0}, {0, 2}, {2, 2}}, 1, 8},
		{"single point", [][]float64{{3, -4}}, 1, 0},
		{"two duplicate pairs", [][]float64{{0}, {0}, {4}, {4}}, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := range uint64(5) {
				res, err := KMeans(tt.x, KMeansOptions{K: tt.k, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				checkInvariants(t, tt.x, tt.k, res)
				if math.Abs(res.Inertia-tt.wantInertia) > 1e-12 {
					t.Errorf("seed %d: Inertia = %v, want %v", seed, res.Inertia, tt.wantInertia)
				}
				if res.Iterations < 1 || res.Iterations > DefaultMaxIter {
					t.Errorf("seed %d: Iterations = %d", seed, res.Iterations)
				}
			}
		})
	}
}

func TestKMeansOptions(t *testing.T) {
	x := uniformPoints(rand.New(rand.NewPCG(4, 4)), 100, 2)
	res, err := KMeans(x, KMeansOptions{K: 4, MaxIter: 1, Restarts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Iterations != 1 {
		t.Errorf("MaxIter 1: Iterations = %d", res.Iterations)
	}
	// Inertia never increases, so a relative change ≤ 1 always holds: Tol 1 stops after the
	// first iteration that leaves no cluster empty.
	res, err = KMeans(x, KMeansOptions{K: 4, Tol: 1, Restarts: 3})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, x, 4, res)
	if res.Iterations != 1 {
		t.Errorf("Tol 1: Iterations = %d, want 1", res.Iterations)
	}
	// Zero options take the defaults, so they match explicit defaults exactly.
	a, err := KMeans(x, KMeansOptions{K: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, err := KMeans(x, KMeansOptions{K: 4, Seed: 3, Restarts: DefaultRestarts, MaxIter: DefaultMaxIter, Tol: DefaultTol})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("zero options differ from explicit defaults")
	}
}

func TestKMeansDoesNotModifyInput(t *testing.T) {
	x := [][]float64{{0, 0}, {1, 0}, {10, 10}, {11, 10}}
	orig := [][]float64{{0, 0}, {1, 0}, {10, 10}, {11, 10}}
	if _, err := KMeans(x, KMeansOptions{K: 2}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(x, orig) {
		t.Errorf("input modified: %v", x)
	}
}

func TestKMeansErrors(t *testing.T) {
	ok := [][]float64{{0, 0}, {1, 1}, {2, 2}}
	tests := []struct {
		name    string
		x       [][]float64
		opt     KMeansOptions
		wantMsg string
	}{
		{"no points", nil, KMeansOptions{K: 1}, "at least one point"},
		{"empty slice", [][]float64{}, KMeansOptions{K: 1}, "at least one point"},
		{"K zero", ok, KMeansOptions{K: 0}, "K = 0"},
		{"K negative", ok, KMeansOptions{K: -2}, "K = -2"},
		{"K too large", ok, KMeansOptions{K: 4}, "exceeds the number of points 3"},
		{"ragged", [][]float64{{0, 0}, {1}, {2, 2}}, KMeansOptions{K: 1}, "point 1 has 1 dimensions"},
		{"zero dimensions", [][]float64{{}, {}}, KMeansOptions{K: 1}, "zero dimensions"},
		{"NaN", [][]float64{{0, 0}, {1, math.NaN()}}, KMeansOptions{K: 1}, "point 1 coordinate 1 is NaN"},
		{"+Inf", [][]float64{{math.Inf(1), 0}, {1, 1}}, KMeansOptions{K: 1}, "point 0 coordinate 0 is +Inf"},
		{"-Inf", [][]float64{{0, 0}, {1, math.Inf(-1)}}, KMeansOptions{K: 1}, "is -Inf"},
		{"negative restarts", ok, KMeansOptions{K: 1, Restarts: -1}, "Restarts = -1"},
		{"negative max iter", ok, KMeansOptions{K: 1, MaxIter: -5}, "MaxIter = -5"},
		{"negative tol", ok, KMeansOptions{K: 1, Tol: -1e-3}, "Tol"},
		{"NaN tol", ok, KMeansOptions{K: 1, Tol: math.NaN()}, "Tol"},
		{"overflow", [][]float64{{1e200}, {-1e200}}, KMeansOptions{K: 1}, "overflow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := KMeans(tt.x, tt.opt)
			if err == nil {
				t.Fatalf("no error; result %+v", res)
			}
			if !strings.HasPrefix(err.Error(), "cluster: ") || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q, want one containing %q", err, tt.wantMsg)
			}
		})
	}
}
