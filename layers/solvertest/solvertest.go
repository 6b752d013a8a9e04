package solvertest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/layerstest"
)

// Contract says what a solver promises beyond what every solver does.
type Contract struct {
	// RowTol bounds |Σ_j T_ij − μs_i| / μs_i; ColTol bounds |Σ_i T_ij − μt_j| / μt_j, where the
	// solver meets the column masses (0: it need not).
	RowTol, ColTol float64
}

// Run checks solver s against the contract every solver keeps and c.
func Run(t *testing.T, s layers.Solver, c Contract) {
	t.Helper()
	t.Run("transports", func(t *testing.T) { transports(t, s, c) })
	t.Run("self", func(t *testing.T) { self(t, s) })
	t.Run("reused state", func(t *testing.T) { reusedState(t, s) })
	t.Run("shapes", func(t *testing.T) { shapes(t, s) })
	t.Run("allocations", func(t *testing.T) { allocations(t, s) })
}

func space(rng *rand.Rand, n int, p float64, directed bool, d int) layers.Space {
	c, f, mu := layerstest.RandomGraph(rng, n, p, 1, directed, d)
	return layers.Space{C: c, F: f, Mu: mu}
}

// transports: directed and undirected graphs, with and without features, of different sizes.
func transports(t *testing.T, s layers.Solver, c Contract) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, directed := range []bool{false, true} {
		for _, d := range []int{0, 2} {
			src, dst := space(rng, 9, 0.4, directed, d), space(rng, 6, 0.5, directed, d)
			name := fmt.Sprintf("directed=%v features=%d", directed, d)
			var st layers.State
			if err := layers.Solve(context.Background(), s, &st, src, dst); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if obj := st.Objective(); math.IsNaN(obj) || math.IsInf(obj, 0) || obj < -1e-9 {
				t.Errorf("%s: objective %v", name, obj)
			}
			checkMasses(t, name, st.Transport(), src.Mu, dst.Mu, c)
		}
	}
}

func checkMasses(t *testing.T, name string, tr *mat.Dense, mus, mut []float64, c Contract) {
	t.Helper()
	r, k := tr.Dims()
	if r != len(mus) || k != len(mut) {
		t.Fatalf("%s: transport %d×%d for %d and %d nodes", name, r, k, len(mus), len(mut))
	}
	cols := make([]float64, k)
	for i := range r {
		row := 0.0
		for j := range k {
			v := tr.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Fatalf("%s: T[%d,%d] = %v", name, i, j, v)
			}
			row += v
			cols[j] += v
		}
		if math.Abs(row-mus[i]) > c.RowTol*mus[i] {
			t.Errorf("%s: row %d sums to %v, want %v", name, i, row, mus[i])
		}
	}
	if c.ColTol == 0 {
		return
	}
	for j, v := range cols {
		if math.Abs(v-mut[j]) > c.ColTol*mut[j] {
			t.Errorf("%s: column %d sums to %v, want %v", name, j, v, mut[j])
		}
	}
}

// self: an undirected graph is closer to itself than to a denser graph of the same size.
func self(t *testing.T, s layers.Solver) {
	rng := rand.New(rand.NewPCG(13, 14))
	a, b := space(rng, 10, 0.3, false, 0), space(rng, 10, 0.7, false, 0)
	_, same, err := layers.GWD(s, a, a)
	if err != nil {
		t.Fatal(err)
	}
	_, other, err := layers.GWD(s, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if !(same < other) {
		t.Errorf("GWD(a, a) = %v is not below GWD(a, b) = %v", same, other)
	}
}

// reusedState: a State that solved problems of other sizes gives what a fresh one gives.
func reusedState(t *testing.T, s layers.Solver) {
	rng := rand.New(rand.NewPCG(15, 16))
	big1, big2 := space(rng, 14, 0.4, false, 1), space(rng, 12, 0.4, false, 1)
	src, dst := space(rng, 7, 0.5, false, 1), space(rng, 5, 0.5, false, 1)
	var fresh, used layers.State
	if err := layers.Solve(context.Background(), s, &fresh, src, dst); err != nil {
		t.Fatal(err)
	}
	if err := layers.Solve(context.Background(), s, &used, big1, big2); err != nil {
		t.Fatal(err)
	}
	if err := layers.Solve(context.Background(), s, &used, src, dst); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(fresh.Transport(), used.Transport()) || fresh.Objective() != used.Objective() {
		t.Errorf("a reused State gives objective %v, a fresh one %v", used.Objective(), fresh.Objective())
	}
}

// shapes: masses that do not match the structure, and features of two widths, are refused.
func shapes(t *testing.T, s layers.Solver) {
	rng := rand.New(rand.NewPCG(17, 18))
	a, b := space(rng, 5, 0.5, false, 2), space(rng, 4, 0.5, false, 3)
	var st layers.State
	if err := layers.Solve(context.Background(), s, &st, a, b); err == nil {
		t.Error("features of widths 2 and 3 accepted")
	}
	short := a
	short.Mu = a.Mu[:4]
	if err := layers.Solve(context.Background(), s, &st, short, a); err == nil {
		t.Error("4 masses for 5 nodes accepted")
	}
}

// allocations: solving again a problem of the same sizes allocates nothing.
func allocations(t *testing.T, s layers.Solver) {
	rng := rand.New(rand.NewPCG(19, 20))
	src, dst := space(rng, 12, 0.3, false, 0), space(rng, 10, 0.3, false, 0)
	var st layers.State
	var err error
	solve := func() {
		if e := layers.Solve(context.Background(), s, &st, src, dst); e != nil {
			err = e
		}
	}
	solve()
	if n := testing.AllocsPerRun(5, solve); n > 0 {
		t.Errorf("%v allocations per solve in the steady state", n)
	}
	if err != nil {
		t.Fatal(err)
	}
}
