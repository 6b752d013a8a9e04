package baselines

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/cluster"
)

// twoClasses: graphs of two block structures (two communities vs a star-like core-periphery),
// 12–15 nodes, labelled 0 and 1.
func twoClasses(t *testing.T, perClass int) ([]*graphs.Graph, []int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(21, 22))
	var data []*graphs.Graph
	var truth []int
	for i := 0; i < 2*perClass; i++ {
		n := 12 + rng.IntN(4)
		var g *graphs.Graph
		var err error
		if i%2 == 0 {
			g, err = graphs.StochasticBlockModel([]int{n / 2, n - n/2}, [][]float64{{0.9, 0.05}, {0.05, 0.9}}, rng)
		} else {
			g, err = graphs.StochasticBlockModel([]int{3, n - 3}, [][]float64{{0.9, 0.8}, {0.8, 0.02}}, rng)
		}
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, g)
		truth = append(truth, i%2)
	}
	return data, truth
}

// fast is a quick PPA configuration (γ = 0.05, M = 20).
func fast() training.Config {
	c := training.DefaultConfig()
	c.Gamma, c.Layers = 0.05, 20
	return c
}

func TestBaselinesSeparateTwoStructures(t *testing.T) {
	data, truth := twoClasses(t, 12)
	ctx := context.Background()
	fgwk, st, err := FGWK(ctx, data, 2, Options{Config: fast(), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.GWDs != len(data)*(len(data)-1)/2 {
		t.Errorf("fgwk: %d GWDs, want %d", st.GWDs, len(data)*(len(data)-1)/2)
	}
	if acc, _ := cluster.Accuracy(truth, fgwk); acc < 0.9 {
		t.Errorf("fgwk accuracy %.2f on a clear two-structure problem", acc)
	}
	km, st, err := GWBKMeans(ctx, data, 2, GWBKMOptions{Options: Options{Config: fast(), Seed: 1}, Iterations: 5})
	if err != nil {
		t.Fatal(err)
	}
	if st.GWDs < 2*len(data) {
		t.Errorf("gwb-km: %d GWDs, want at least one assignment round (%d)", st.GWDs, 2*len(data))
	}
	if acc, _ := cluster.Accuracy(truth, km); acc < 0.9 {
		t.Errorf("gwb-km accuracy %.2f on a clear two-structure problem", acc)
	}
}

func TestBaselinesIndependentOfWorkers(t *testing.T) {
	data, _ := twoClasses(t, 6)
	ctx := context.Background()
	var prevF, prevK []int
	for _, w := range []int{1, 3} {
		f, _, err := FGWK(ctx, data, 2, Options{Config: fast(), Seed: 4, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		k, _, err := GWBKMeans(ctx, data, 2, GWBKMOptions{Options: Options{Config: fast(), Seed: 4, Workers: w}, Iterations: 3})
		if err != nil {
			t.Fatal(err)
		}
		if prevF != nil && (!slices.Equal(f, prevF) || !slices.Equal(k, prevK)) {
			t.Errorf("results differ between 1 and %d workers", w)
		}
		prevF, prevK = f, k
	}
}

func TestBaselinesErrors(t *testing.T) {
	data, _ := twoClasses(t, 2)
	ctx := context.Background()
	if _, _, err := FGWK(ctx, data, 0, Options{}); err == nil {
		t.Error("fgwk with 0 clusters")
	}
	if _, _, err := GWBKMeans(ctx, data, len(data)+1, GWBKMOptions{}); err == nil {
		t.Error("gwb-km with more clusters than graphs")
	}
	bad := fast()
	bad.Solver = "sinkhorn"
	if _, _, err := FGWK(ctx, data, 2, Options{Config: bad}); err == nil || !strings.Contains(err.Error(), "sinkhorn") {
		t.Errorf("unknown solver: error %v", err)
	}
	bad = fast()
	bad.GWBLayers = -1
	if _, _, err := GWBKMeans(ctx, data, 2, GWBKMOptions{Options: Options{Config: bad}}); err == nil {
		t.Error("gwb-km with -1 barycenter layers: no error")
	}
	if _, _, err := FGWK(ctx, data[:1], 1, Options{}); err == nil {
		t.Error("fgwk of one graph")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := FGWK(cancelled, data, 2, Options{Config: fast()}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled fgwk: %v", err)
	}
}
