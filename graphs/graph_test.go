package graphs

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/csr"
)

func TestNewValidateErrors(t *testing.T) {
	sq := func(v ...float64) *mat.Dense { return mat.NewDense(2, 2, v) }
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		c    *mat.Dense
		mu   []float64
		f    *mat.Dense
		want string
	}{
		{"nil adjacency", nil, nil, nil, "no adjacency"},
		{"no nodes", &mat.Dense{}, []float64{}, nil, "no nodes"},
		{"not square", mat.NewDense(2, 3, nil), []float64{0.5, 0.5}, nil, "not square"},
		{"negative entry", sq(0, -1, 1, 0), nil, nil, "(0,1) = -1"},
		{"NaN entry", sq(0, 1, nan, 0), nil, nil, "(1,0) = NaN"},
		{"Inf entry", sq(inf, 1, 1, 0), nil, nil, "(0,0) = +Inf"},
		{"mu length", sq(0, 1, 1, 0), []float64{1}, nil, "mu has 1 entries for 2 nodes"},
		{"mu zero", sq(0, 1, 1, 0), []float64{1, 0}, nil, "mu[1] = 0"},
		{"mu negative", sq(0, 1, 1, 0), []float64{1.5, -0.5}, nil, "mu[1] = -0.5"},
		{"mu NaN", sq(0, 1, 1, 0), []float64{nan, 0.5}, nil, "mu[0] = NaN"},
		{"mu Inf", sq(0, 1, 1, 0), []float64{inf, 0.5}, nil, "mu[0] = +Inf"},
		{"mu not on simplex", sq(0, 1, 1, 0), []float64{0.5, 0.4}, nil, "mu sums to 0.9"},
		{"feature rows", sq(0, 1, 1, 0), nil, mat.NewDense(3, 1, nil), "features have 3 rows for 2 nodes"},
		{"feature NaN", sq(0, 1, 1, 0), nil, mat.NewDense(2, 1, []float64{1, nan}), "feature (1,0) = NaN"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			name := "g-" + strings.ReplaceAll(tc.name, " ", "-")
			g, err := New(name, tc.c, tc.mu, tc.f)
			if err == nil {
				t.Fatalf("New accepted %v", g)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %q does not wrap ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q lacks the name %q or %q", err, name, tc.want)
			}
			// Validate on a graph built by hand says the same (a sparse matrix is square).
			if tc.c != nil && isSquare(tc.c) {
				g := &Graph{Name: name, A: mustCSR(t, tc.c), Mu: tc.mu, F: tc.f}
				if tc.mu == nil {
					g.Mu = UniformMu(g.N())
				}
				if err := g.Validate(); err == nil || !errors.Is(err, ErrInvalid) {
					t.Errorf("Validate: %v, want an ErrInvalid", err)
				}
			}
		})
	}
}

func TestNewValid(t *testing.T) {
	g, err := New("ok", mat.NewDense(2, 2, []float64{0, 1, 2, 0}), nil, mat.NewDense(2, 1, []float64{1, 2}))
	if err != nil {
		t.Fatal(err)
	}
	if g.N() != 2 || g.Dim() != 1 || g.Mu[0] != 0.5 || g.Mu[1] != 0.5 {
		t.Errorf("got N=%d Dim=%d Mu=%v", g.N(), g.Dim(), g.Mu)
	}
}

func TestDegreeMu(t *testing.T) {
	// Node 3 is isolated, node 2 has only a self-loop; the graph is directed.
	c := mat.NewDense(4, 4, []float64{
		0, 2, 0, 0,
		0, 0, 0, 0,
		0, 0, 1, 0,
		0, 0, 0, 0,
	})
	mu := DegreeMu(mustCSR(t, c))
	sum := 0.0
	for i, v := range mu {
		if !(v > 0) {
			t.Errorf("mu[%d] = %v, want > 0", i, v)
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("sum = %v, want 1", sum)
	}
	// (degree+1) ∝ 3, 3, 3, 1 over 10.
	want := []float64{0.3, 0.3, 0.3, 0.1}
	for i := range want {
		if math.Abs(mu[i]-want[i]) > 1e-12 {
			t.Errorf("mu = %v, want %v", mu, want)
			break
		}
	}
	if _, err := New("deg", c, mu, nil); err != nil {
		t.Errorf("DegreeMu is not a valid mu: %v", err)
	}
}

func TestStandardizeFeatures(t *testing.T) {
	a, err := New("a", mat.NewDense(2, 2, []float64{0, 1, 1, 0}), nil, mat.NewDense(2, 2, []float64{1, 5, 3, 5}))
	if err != nil {
		t.Fatal(err)
	}
	b, err := New("b", mat.NewDense(1, 1, []float64{0}), nil, mat.NewDense(1, 2, []float64{5, 5}))
	if err != nil {
		t.Fatal(err)
	}
	mean, scale, err := StandardizeFeatures([]*Graph{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if mean[0] != 3 || mean[1] != 5 || scale[1] != 1 {
		t.Errorf("mean %v, scale %v", mean, scale)
	}
	var col []float64
	for _, g := range []*Graph{a, b} {
		r, _ := g.F.Dims()
		for i := 0; i < r; i++ {
			col = append(col, g.F.At(i, 0))
			if g.F.At(i, 1) != 0 {
				t.Errorf("constant dimension not centred: %v", g.F.At(i, 1))
			}
		}
	}
	s := 0.0
	for _, v := range col {
		s += v * v
	}
	if math.Abs(s/3-1) > 1e-12 || math.Abs(col[0]+col[1]+col[2]) > 1e-12 {
		t.Errorf("standardised column %v", col)
	}
	if m, s, err := StandardizeFeatures([]*Graph{{A: mustCSR(t, mat.NewDense(1, 1, nil))}}); m != nil || s != nil || err != nil {
		t.Error("graphs without features: want nil")
	}
}

// TestStandardizeHugeAndNonFinite: attributes near the largest float64 (whose sums overflow)
// standardize to finite values with mean 0 and std 1; a non-finite attribute is an error that
// names graph, node and dimension, and changes nothing.
func TestStandardizeHugeAndNonFinite(t *testing.T) {
	huge := func(vals ...float64) *Graph {
		n := len(vals)
		g, err := New("g", mat.NewDense(n, n, nil), nil, mat.NewDense(n, 1, vals))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	for _, vals := range [][]float64{{1e308, 1e308, 1.5e308}, {1e308, -1e308, 0}, {math.MaxFloat64, 0, 0}} {
		g := huge(vals...)
		mean, scale, err := StandardizeFeatures([]*Graph{g})
		if err != nil {
			t.Fatalf("%v: %v", vals, err)
		}
		sum, sq := 0.0, 0.0
		for _, v := range g.F.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%v: standardized to %v (mean %v, scale %v)", vals, g.F.RawMatrix().Data, mean, scale)
			}
			sum += v
			sq += v * v
		}
		if math.Abs(sum) > 1e-9 || math.Abs(sq/3-1) > 1e-9 {
			t.Errorf("%v: standardized to %v", vals, g.F.RawMatrix().Data)
		}
	}
	g := huge(1, 2)
	g.F.Set(1, 0, math.Inf(1)) // as a careless caller could, after New's checks
	_, _, err := StandardizeFeatures([]*Graph{huge(3, 4), g})
	if err == nil || !strings.Contains(err.Error(), "graph 1, node 1: feature dimension 0 is +Inf") {
		t.Errorf("an infinite feature: %v", err)
	}
	if g.F.At(0, 0) != 1 {
		t.Error("a refused standardization changed the features")
	}
}

// TestBytesOfGiB: any positive limit stays a limit (1e-10 GiB is one byte, not the default).
func TestBytesOfGiB(t *testing.T) {
	for gib, want := range map[float64]int64{1e-10: 1, 1e-300: 1, 1: 1 << 30, 0.5: 1 << 29, 0: 0, -1: 0, math.NaN(): 0, math.Inf(1): math.MaxInt64, 1e300: math.MaxInt64} {
		if got := BytesOfGiB(gib); got != want {
			t.Errorf("BytesOfGiB(%v) = %d, want %d", gib, got, want)
		}
	}
	_, err := ReadJSON(strings.NewReader(`{"adjacency": [[0]]}`), "one.json", Limits{MaxDenseBytes: BytesOfGiB(1e-10)})
	if err == nil || !strings.Contains(err.Error(), "limit of 1") {
		t.Errorf("a one-node graph under a 1e-10 GiB limit: %v", err)
	}
}

// mustCSR stores a square dense matrix sparse.
func mustCSR(t testing.TB, c *mat.Dense) *csr.Matrix {
	t.Helper()
	a, err := csr.FromDense(c)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func isSquare(c *mat.Dense) bool {
	r, k := c.Dims()
	return r == k
}

func TestUndirectedEdges(t *testing.T) {
	// 0→1 and 1→0 (one pair), 1→2 only (one), 2→2 (a loop, not a pair), 3→0 only (one).
	c := mat.NewDense(4, 4, nil)
	for _, e := range [][2]int{{0, 1}, {1, 0}, {1, 2}, {2, 2}, {3, 0}} {
		c.Set(e[0], e[1], 1)
	}
	g, err := New("g", c, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := g.UndirectedEdges(); e != 3 {
		t.Errorf("%d pairs, want 3", e)
	}
}

func TestNewSparse(t *testing.T) {
	if _, err := NewSparse("nil", nil, nil, nil); err == nil || !errors.Is(err, ErrInvalid) {
		t.Errorf("nil adjacency: %v", err)
	}
	empty, err := csr.Build(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewSparse("empty", empty, nil, nil); err == nil || !strings.Contains(err.Error(), "no nodes") {
		t.Errorf("no nodes: %v", err)
	}
	a, err := csr.Build(3, []csr.Entry{{Row: 0, Col: 1, Val: 2}, {Row: 1, Col: 0, Val: 2}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewSparse("g", a, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.N() != 3 || g.Dense().At(1, 0) != 2 || g.UndirectedEdges() != 1 || g.Bytes() != csr.Bytes(3, 2)+3*8 {
		t.Errorf("N %d, edges %d, bytes %d", g.N(), g.UndirectedEdges(), g.Bytes())
	}
}
