package pairwise

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
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
func fast() layers.SolverOptions {
	o, _ := layers.DefaultSolverOptions("ppa")
	o.Gamma, o.Layers = 0.05, 20
	return o
}

// TestMatrixCrossAndDefaults: Cross of a set with itself holds Matrix's discrepancies (the
// same pairs, the same sources), whatever the workers; the zero Solver is the paper's PPA; an
// unknown solver is refused with its name.
func TestMatrixCrossAndDefaults(t *testing.T) {
	data, _ := twoClasses(t, 3)
	ctx := context.Background()
	d, st, err := Matrix(ctx, data, Options{Solver: fast(), Workers: 1})
	if err != nil || st.GWDs != Pairs(len(data)) {
		t.Fatalf("matrix: %d GWDs, %v", st.GWDs, err)
	}
	c, st, err := Cross(ctx, data, data, Options{Solver: fast(), Workers: 3})
	if err != nil || st.GWDs != len(data)*len(data) {
		t.Fatalf("cross: %d GWDs, %v", st.GWDs, err)
	}
	for i := range data {
		for j := i + 1; j < len(data); j++ {
			if c.At(i, j) != d.At(i, j) {
				t.Errorf("d(%d, %d): cross %v, matrix %v", i, j, c.At(i, j), d.At(i, j))
			}
		}
	}
	paper, _ := layers.DefaultSolverOptions("ppa")
	want, _, err := Matrix(ctx, data[:3], Options{Solver: paper})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := Matrix(ctx, data[:3], Options{})
	if err != nil || got.At(0, 1) != want.At(0, 1) || got.At(1, 2) != want.At(1, 2) {
		t.Errorf("zero solver: %v, %v; the paper's PPA: %v", got, err, want)
	}
	bad := fast()
	bad.Name = "sinkhorn"
	if _, _, err := Matrix(ctx, data, Options{Solver: bad}); err == nil || !strings.Contains(err.Error(), "sinkhorn") {
		t.Errorf("unknown solver: error %v", err)
	}
	if _, _, err := Matrix(ctx, data[:1], Options{}); err == nil {
		t.Error("matrix of one graph: no error")
	}
}

func TestPairOf(t *testing.T) {
	for _, n := range []int{2, 3, 7, 100, 2001} {
		k := 0
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if gi, gj := pairOf(k, n); gi != i || gj != j {
					t.Fatalf("n=%d: pairOf(%d) = (%d, %d), want (%d, %d)", n, k, gi, gj, i, j)
				}
				k++
			}
		}
	}
}
