package graphs

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func genRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// genEdges counts the pairs i<j with an edge either way, and checks for 0/1 entries and no
// self-loops.
func genEdges(t *testing.T, c *mat.Dense) int {
	t.Helper()
	n, _ := c.Dims()
	e := 0
	for i := 0; i < n; i++ {
		if c.At(i, i) != 0 {
			t.Errorf("self-loop at %d", i)
		}
		for j := 0; j < n; j++ {
			if v := c.At(i, j); v != 0 && v != 1 {
				t.Fatalf("C[%d][%d] = %v, want 0 or 1", i, j, v)
			}
			if i < j && (c.At(i, j) != 0 || c.At(j, i) != 0) {
				e++
			}
		}
	}
	return e
}

func genSymmetric(c *mat.Dense) bool { return mat.Equal(c, c.T()) }

func TestBarabasiAlbert(t *testing.T) {
	for _, tc := range []struct{ n, m int }{{2, 1}, {5, 4}, {30, 1}, {100, 3}, {300, 5}} {
		g, err := BarabasiAlbert(tc.n, tc.m, genRNG(7))
		if err != nil {
			t.Fatalf("n=%d m=%d: %v", tc.n, tc.m, err)
		}
		if g.N() != tc.n || !genSymmetric(g.Dense()) {
			t.Fatalf("n=%d m=%d: N=%d symmetric=%v", tc.n, tc.m, g.N(), genSymmetric(g.Dense()))
		}
		if want := tc.m*(tc.m+1)/2 + tc.m*(tc.n-tc.m-1); genEdges(t, g.Dense()) != want {
			t.Errorf("n=%d m=%d: %d edges, want %d", tc.n, tc.m, genEdges(t, g.Dense()), want)
		}
		for i := 0; i < tc.n; i++ {
			if d := mat.Sum(g.Dense().RowView(i)); d < float64(tc.m) {
				t.Errorf("n=%d m=%d: node %d has degree %v < m", tc.n, tc.m, i, d)
			}
		}
		if err := g.Validate(); err != nil {
			t.Error(err)
		}
	}
}

func TestBarabasiAlbertPreferential(t *testing.T) {
	// Preferential attachment makes hubs: the largest degree of a 2000-node BA(m=2) graph is
	// far above what uniform attachment gives (about 20); BA gives well over 50.
	g, err := BarabasiAlbert(2000, 2, genRNG(1))
	if err != nil {
		t.Fatal(err)
	}
	maxDeg := 0.0
	for i := 0; i < g.N(); i++ {
		maxDeg = math.Max(maxDeg, mat.Sum(g.Dense().RowView(i)))
	}
	if maxDeg < 50 {
		t.Errorf("largest degree %v, want the hubs of preferential attachment", maxDeg)
	}
}

func TestGeneratorsDeterministic(t *testing.T) {
	gens := map[string]func(rng *rand.Rand) (*Graph, error){
		"BA":          func(rng *rand.Rand) (*Graph, error) { return BarabasiAlbert(60, 3, rng) },
		"directed BA": func(rng *rand.Rand) (*Graph, error) { return DirectedBarabasiAlbert(60, 3, rng) },
		"SBM": func(rng *rand.Rand) (*Graph, error) {
			return StochasticBlockModel([]int{20, 30}, [][]float64{{0.5, 0.1}, {0.1, 0.4}}, rng)
		},
	}
	for name, gen := range gens {
		a, err := gen(genRNG(42))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := gen(genRNG(42))
		c, _ := gen(genRNG(43))
		if !mat.Equal(a.Dense(), b.Dense()) {
			t.Errorf("%s: the same seed gave different graphs", name)
		}
		if mat.Equal(a.Dense(), c.Dense()) {
			t.Errorf("%s: seeds 42 and 43 gave the same graph", name)
		}
	}
}

func TestDirectedBarabasiAlbert(t *testing.T) {
	const n, m = 80, 3
	d, err := DirectedBarabasiAlbert(n, m, genRNG(5))
	if err != nil {
		t.Fatal(err)
	}
	if genSymmetric(d.Dense()) {
		t.Fatal("directed BA is symmetric")
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if d.A.At(i, j) == 1 && d.A.At(j, i) == 1 {
				t.Fatalf("edge %d↔%d both ways", i, j)
			}
			if d.A.At(i, j) == 1 && j > i {
				t.Fatalf("edge %d→%d points from an older node to a newer one", i, j)
			}
		}
		// Every node after the seed clique makes exactly m edges.
		if out := mat.Sum(d.Dense().RowView(i)); i > m && out != m {
			t.Errorf("node %d has out-degree %v, want %d", i, out, m)
		}
	}
	if want := m*(m+1)/2 + m*(n-m-1); genEdges(t, d.Dense()) != want {
		t.Errorf("%d edges, want %d", genEdges(t, d.Dense()), want)
	}
	s := Symmetrized(d)
	u, err := BarabasiAlbert(n, m, genRNG(5))
	if err != nil {
		t.Fatal(err)
	}
	if !genSymmetric(s.Dense()) || !mat.Equal(s.Dense(), u.Dense()) {
		t.Error("Symmetrized(directed BA) is not the undirected BA graph of the same seed")
	}
	if err := s.Validate(); err != nil {
		t.Error(err)
	}
}

func TestSymmetrized(t *testing.T) {
	g, err := New("w", mat.NewDense(2, 2, []float64{1, 2, 3, 0}), []float64{0.25, 0.75}, mat.NewDense(2, 1, []float64{5, 6}))
	if err != nil {
		t.Fatal(err)
	}
	g.Label, g.HasLabel = 4, true
	s := Symmetrized(g)
	if !mat.Equal(s.Dense(), mat.NewDense(2, 2, []float64{2, 5, 5, 0})) {
		t.Errorf("C + Cᵀ =\n%v", mat.Formatted(s.Dense()))
	}
	if s.Name != "w" || s.Label != 4 || !s.HasLabel || s.Mu[1] != 0.75 || !mat.Equal(s.F, g.F) {
		t.Errorf("lost data: %+v", s)
	}
	// The result shares nothing with g.
	s.Mu[0], s.F.RawRowView(0)[0] = 9, 9
	if g.Mu[0] != 0.25 || g.F.At(0, 0) != 5 || g.A.At(0, 1) != 2 {
		t.Error("Symmetrized aliases its input")
	}
}

func TestStochasticBlockModel(t *testing.T) {
	sizes := []int{150, 0, 250}
	p := [][]float64{{0.3, 0.5, 0.02}, {0.5, 1, 0.5}, {0.02, 0.5, 0.1}}
	g, err := StochasticBlockModel(sizes, p, genRNG(3))
	if err != nil {
		t.Fatal(err)
	}
	if g.N() != 400 || !genSymmetric(g.Dense()) {
		t.Fatalf("N=%d symmetric=%v", g.N(), genSymmetric(g.Dense()))
	}
	genEdges(t, g.Dense()) // 0/1, no self-loops
	density := func(r0, r1, c0, c1 int) float64 {
		sum, pairs := 0.0, 0
		for i := r0; i < r1; i++ {
			for j := c0; j < c1; j++ {
				if i != j {
					sum += g.A.At(i, j)
					pairs++
				}
			}
		}
		return sum / float64(pairs)
	}
	for _, tc := range []struct {
		name           string
		r0, r1, c0, c1 int
		want           float64
	}{
		{"block 0", 0, 150, 0, 150, 0.3},
		{"block 2", 150, 400, 150, 400, 0.1},
		{"between", 0, 150, 150, 400, 0.02},
	} {
		// Over thousands of pairs the standard error is below 0.006.
		if d := density(tc.r0, tc.r1, tc.c0, tc.c1); math.Abs(d-tc.want) > 0.03 {
			t.Errorf("%s: density %.3f, want about %.2f", tc.name, d, tc.want)
		}
	}
	// p = 1 and p = 0 are exact.
	full, err := StochasticBlockModel([]int{3, 2}, [][]float64{{1, 0}, {0, 1}}, genRNG(1))
	if err != nil {
		t.Fatal(err)
	}
	if genEdges(t, full.Dense()) != 3+1 || full.A.At(0, 3) != 0 {
		t.Errorf("p=1/p=0 blocks:\n%v", mat.Formatted(full.Dense()))
	}
}

func TestGeneratorErrors(t *testing.T) {
	rng := genRNG(1)
	p2 := [][]float64{{0.5, 0.1}, {0.1, 0.5}}
	cases := []struct {
		name string
		gen  func() (*Graph, error)
		want string
	}{
		{"BA n<1", func() (*Graph, error) { return BarabasiAlbert(0, 1, rng) }, "want n > m"},
		{"BA m<1", func() (*Graph, error) { return BarabasiAlbert(5, 0, rng) }, "m = 0"},
		{"BA m negative", func() (*Graph, error) { return BarabasiAlbert(5, -2, rng) }, "m = -2"},
		{"BA m=n", func() (*Graph, error) { return BarabasiAlbert(3, 3, rng) }, "want n > m"},
		{"BA m>n", func() (*Graph, error) { return BarabasiAlbert(3, 7, rng) }, "want n > m"},
		{"BA huge n", func() (*Graph, error) { return BarabasiAlbert(1<<40, 2, rng) }, "dense generator"},
		{"BA nil rng", func() (*Graph, error) { return BarabasiAlbert(5, 2, nil) }, "nil random"},
		{"directed BA m=n", func() (*Graph, error) { return DirectedBarabasiAlbert(2, 2, rng) }, "want n > m"},
		{"SBM no blocks", func() (*Graph, error) { return StochasticBlockModel(nil, nil, rng) }, "no blocks"},
		{"SBM negative size", func() (*Graph, error) { return StochasticBlockModel([]int{3, -1}, p2, rng) }, "block 1 has negative size -1"},
		{"SBM all empty", func() (*Graph, error) { return StochasticBlockModel([]int{0, 0}, p2, rng) }, "all blocks are empty"},
		{"SBM huge", func() (*Graph, error) { return StochasticBlockModel([]int{1 << 62, 1 << 62}, p2, rng) }, "dense generator"},
		{"SBM p rows", func() (*Graph, error) { return StochasticBlockModel([]int{2, 2}, p2[:1], rng) }, "p has 1 rows for 2 blocks"},
		{"SBM p ragged", func() (*Graph, error) {
			return StochasticBlockModel([]int{2, 2}, [][]float64{{0.5, 0.1}, {0.1}}, rng)
		}, "p row 1 has 1 entries"},
		{"SBM p above 1", func() (*Graph, error) {
			return StochasticBlockModel([]int{2, 2}, [][]float64{{1.5, 0.1}, {0.1, 0.5}}, rng)
		}, "p[0][0] = 1.5 is not a probability"},
		{"SBM p negative", func() (*Graph, error) {
			return StochasticBlockModel([]int{2, 2}, [][]float64{{0.5, -0.1}, {-0.1, 0.5}}, rng)
		}, "p[0][1] = -0.1"},
		{"SBM p NaN", func() (*Graph, error) {
			return StochasticBlockModel([]int{2}, [][]float64{{math.NaN()}}, rng)
		}, "p[0][0] = NaN"},
		{"SBM p asymmetric", func() (*Graph, error) {
			return StochasticBlockModel([]int{2, 2}, [][]float64{{0.5, 0.1}, {0.2, 0.5}}, rng)
		}, "not symmetric"},
		{"SBM nil rng", func() (*Graph, error) { return StochasticBlockModel([]int{2, 2}, p2, nil) }, "nil random"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := tc.gen()
			if err == nil {
				t.Fatalf("accepted: N=%d", g.N())
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q lacks %q", err, tc.want)
			}
		})
	}
}
