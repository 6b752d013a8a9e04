package graphs

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// spFixture is testdata/shortest_paths.json, written by testdata/shortest_paths.py.
type spFixture struct {
	Graphs []struct {
		Name      string      `json:"name"`
		Adjacency [][]float64 `json:"adjacency"`
		Distances [][]float64 `json:"distances"`
	} `json:"graphs"`
}

// spDense makes a dense matrix of rows.
func spDense(t *testing.T, rows [][]float64) *mat.Dense {
	t.Helper()
	n := len(rows)
	d := mat.NewDense(n, n, nil)
	for i, r := range rows {
		if len(r) != n {
			t.Fatalf("row %d has %d entries, want %d", i, len(r), n)
		}
		d.SetRow(i, r)
	}
	return d
}

// TestShortestPathsNetworkx compares ShortestPaths with scipy's shortest_path (checked against
// networkx), after FGW's replacement of infinite distances.
func TestShortestPathsNetworkx(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "shortest_paths.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx spFixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	if len(fx.Graphs) < 8 {
		t.Fatalf("fixture has %d graphs, want at least 8", len(fx.Graphs))
	}
	sawAsymmetric := false
	for _, c := range fx.Graphs {
		t.Run(c.Name, func(t *testing.T) {
			g, err := New(c.Name, spDense(t, c.Adjacency), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !g.A.Symmetric() {
				sawAsymmetric = true
			}
			sp, err := ShortestPaths(g)
			if err != nil {
				t.Fatal(err)
			}
			want := spDense(t, c.Distances)
			got := sp.Dense()
			n := g.N()
			for i := range n {
				for j := range n {
					w, x := want.At(i, j), got.At(i, j)
					if math.Abs(w-x) > 1e-12*math.Max(1, math.Abs(w)) {
						t.Errorf("d(%d,%d) = %v, networkx %v", i, j, x, w)
					}
				}
			}
		})
	}
	if !sawAsymmetric {
		t.Error("the fixture has no directed graph")
	}
}

// spRandom is a random graph of n nodes with edge probability p: weights 1 when unit, else
// uniform in (0.05, 5); directed graphs get independent weights in both directions.
func spRandom(tb testing.TB, rng *rand.Rand, n int, p float64, unit, directed bool) *Graph {
	tb.Helper()
	d := mat.NewDense(n, n, nil)
	weight := func() float64 {
		if unit {
			return 1
		}
		return 0.05 + 4.95*rng.Float64()
	}
	for i := range n {
		for j := range n {
			if i == j || (!directed && j < i) || rng.Float64() >= p {
				continue
			}
			w := weight()
			d.Set(i, j, w)
			if !directed {
				d.Set(j, i, w)
			}
		}
	}
	g, err := New("random", d, nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// spFloydWarshall is the brute-force reference: the undirected min-weight reading of a, all
// pairs by Floyd–Warshall, +Inf between components.
func spFloydWarshall(a *mat.Dense) *mat.Dense {
	n, _ := a.Dims()
	d := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			w := math.Inf(1)
			for _, x := range []float64{a.At(i, j), a.At(j, i)} {
				if x > 0 {
					w = math.Min(w, x)
				}
			}
			if i == j {
				w = 0
			}
			d.Set(i, j, w)
		}
	}
	for k := range n {
		for i := range n {
			for j := range n {
				if x := d.At(i, k) + d.At(k, j); x < d.At(i, j) {
					d.Set(i, j, x)
				}
			}
		}
	}
	return d
}

func TestShortestPathsInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(2019, 6))
	for trial := range 200 {
		n := 1 + rng.IntN(30)
		p := []float64{0, 0.05, 0.1, 0.3, 0.8}[trial%5]
		unit, directed := trial%2 == 0, trial%3 == 0
		g := spRandom(t, rng, n, p, unit, directed)
		sp, err := ShortestPaths(g)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		a, d := g.Dense(), sp.Dense()
		ref := spFloydWarshall(a)
		largest := 0.0
		for i := range n {
			for j := range n {
				if r := ref.At(i, j); !math.IsInf(r, 1) {
					largest = math.Max(largest, r)
				}
			}
		}
		far := 10 * largest
		if largest == 0 {
			far = 1
		}
		tol := 1e-12 * math.Max(1, far)
		for i := range n {
			if d.At(i, i) != 0 {
				t.Fatalf("trial %d: d(%d,%d) = %v, want 0", trial, i, i, d.At(i, i))
			}
			for j := range n {
				dij := d.At(i, j)
				if dij != d.At(j, i) {
					t.Fatalf("trial %d: d(%d,%d) = %v ≠ d(%d,%d) = %v", trial, i, j, dij, j, i,
						d.At(j, i))
				}
				if i != j && !(dij > 0) {
					t.Fatalf("trial %d: d(%d,%d) = %v is not positive", trial, i, j, dij)
				}
				want := ref.At(i, j)
				if math.IsInf(want, 1) {
					want = far
				}
				if math.Abs(dij-want) > tol {
					t.Fatalf("trial %d: d(%d,%d) = %v, Floyd–Warshall %v", trial, i, j, dij, want)
				}
				// An edge is a path: no longer than its (smaller) weight; 1 when unweighted.
				for _, w := range []float64{a.At(i, j), a.At(j, i)} {
					if i != j && w > 0 && dij > w+tol {
						t.Fatalf("trial %d: d(%d,%d) = %v exceeds the edge's weight %v", trial,
							i, j, dij, w)
					}
					if i != j && w > 0 && unit && dij != 1 {
						t.Fatalf("trial %d: neighbours %d, %d at distance %v", trial, i, j, dij)
					}
				}
				for k := range n {
					if dij > d.At(i, k)+d.At(k, j)+tol {
						t.Fatalf("trial %d: d(%d,%d) = %v > d(%d,%d) + d(%d,%d) = %v", trial,
							i, j, dij, i, k, k, j, d.At(i, k)+d.At(k, j))
					}
				}
			}
		}
	}
}

// TestShortestPathsHops checks the hop counts of a path and that a constant weight other
// than 1 scales them (through Dijkstra, not breadth-first search).
func TestShortestPathsHops(t *testing.T) {
	for _, w := range []float64{1, 2.5} {
		a := mat.NewDense(5, 5, nil)
		for i := range 4 {
			a.Set(i, i+1, w)
		}
		g, err := New("path", a, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := ShortestPaths(g)
		if err != nil {
			t.Fatal(err)
		}
		if nnz := sp.A.NNZ(); nnz != 20 {
			t.Errorf("w = %v: %d stored entries, want 20", w, nnz)
		}
		for i := range 5 {
			for j := range 5 {
				if got, want := sp.A.At(i, j), w*math.Abs(float64(i-j)); got != want {
					t.Errorf("w = %v: d(%d,%d) = %v, want %v", w, i, j, got, want)
				}
			}
		}
	}
}

func TestShortestPathsKeeps(t *testing.T) {
	a := mat.NewDense(3, 3, []float64{0, 2, 0, 0, 0, 0.5, 0, 0, 0})
	f := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	mu := []float64{0.5, 0.25, 0.25}
	g, err := New("kept", a, mu, f)
	if err != nil {
		t.Fatal(err)
	}
	g.Label, g.HasLabel = 4, true
	before := g.A
	sp, err := ShortestPaths(g)
	if err != nil {
		t.Fatal(err)
	}
	if sp == g || sp.A == g.A {
		t.Fatal("ShortestPaths returned g or its matrix")
	}
	if sp.Name != "kept" || sp.Label != 4 || !sp.HasLabel {
		t.Errorf("name %q, label %d, %v; want kept, 4, true", sp.Name, sp.Label, sp.HasLabel)
	}
	if &sp.Mu[0] != &g.Mu[0] || sp.F != g.F {
		t.Error("Mu and F are not shared")
	}
	if g.A != before || g.A.NNZ() != 2 || g.A.At(0, 1) != 2 || g.A.At(1, 2) != 0.5 {
		t.Error("g's adjacency changed")
	}
	if got := sp.A.At(2, 0); got != 2.5 {
		t.Errorf("d(2,0) = %v, want 2.5", got)
	}
	if err := sp.Validate(); err != nil {
		t.Error(err)
	}
}

// TestShortestPathsSingle covers the graphs of one node and of no edge.
func TestShortestPathsSingle(t *testing.T) {
	g, err := New("one", mat.NewDense(1, 1, []float64{3}), nil, nil) // a self-loop only
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ShortestPaths(g)
	if err != nil {
		t.Fatal(err)
	}
	if sp.N() != 1 || sp.A.NNZ() != 0 {
		t.Errorf("%d nodes, %d entries; want 1, 0", sp.N(), sp.A.NNZ())
	}
	g, err = New("empty", mat.NewDense(3, 3, nil), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sp, err = ShortestPaths(g); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for j := range 3 {
			if want := float64(min(1, (i-j)*(i-j))); sp.A.At(i, j) != want {
				t.Errorf("d(%d,%d) = %v, want %v", i, j, sp.A.At(i, j), want)
			}
		}
	}
}

func TestShortestPathsOverflow(t *testing.T) {
	// Within a component: 1e308 + 1e308 overflows.
	a := mat.NewDense(3, 3, []float64{0, 1e308, 0, 1e308, 0, 1e308, 0, 1e308, 0})
	g, err := New("huge", a, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ShortestPaths(g); err == nil || !strings.Contains(err.Error(), "overflows") ||
		!strings.Contains(err.Error(), `"huge"`) {
		t.Errorf("err = %v, want an overflow naming the graph", err)
	}
	// Between components: 10 × 1e308 overflows.
	a = mat.NewDense(3, 3, []float64{0, 1e308, 0, 1e308, 0, 0, 0, 0, 0})
	if g, err = New("apart", a, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ShortestPaths(g); err == nil || !strings.Contains(err.Error(), "overflows") {
		t.Errorf("err = %v, want an overflow", err)
	}
}

// spPath is the unweighted path of n nodes, built sparse.
func spPath(t *testing.T, n int) *Graph {
	t.Helper()
	var e []csr.Entry
	for i := 0; i+1 < n; i++ {
		e = append(e, csr.Entry{Row: i, Col: i + 1, Val: 1}, csr.Entry{Row: i + 1, Col: i, Val: 1})
	}
	a, err := csr.Build(n, e)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewSparse("long path", a, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestShortestPathsTooLarge checks that a graph whose dense matrix exceeds the memory limit is
// refused before the matrix is allocated.
func TestShortestPathsTooLarge(t *testing.T) {
	g := spPath(t, 20000) // 12·N² ≈ 4.5 GiB > DefaultLimits' 4 GiB
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ShortestPaths(g)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("a 20000-node graph was accepted")
	}
	for _, s := range []string{`"long path"`, "20000 nodes", "Limits.MaxDenseBytes"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %s", err, s)
		}
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
		t.Errorf("%d bytes allocated before refusing", d)
	}
	if _, err := (ShortestPath).Apply([]*Graph{g}); err == nil {
		t.Error("Apply accepted a 20000-node graph")
	}

	// A raised limit, or a small graph against a small limit.
	small := spPath(t, 10)
	need := shortestPathBytes(10)
	if need != csr.Bytes(10, 90) {
		t.Errorf("shortestPathBytes(10) = %d, want %d", need, csr.Bytes(10, 90))
	}
	if _, err := ShortestPathsWithin(small, Limits{MaxDenseBytes: need - 1}); err == nil {
		t.Error("a limit one byte short was accepted")
	}
	if _, err := ShortestPathsWithin(small, Limits{MaxDenseBytes: need}); err != nil {
		t.Error(err)
	}
	if b := shortestPathBytes(math.MaxInt32); b != math.MaxInt64 {
		t.Errorf("shortestPathBytes(MaxInt32) = %d, want saturation", b)
	}
}

func TestShortestPathsInvalid(t *testing.T) {
	if _, err := ShortestPaths(nil); err == nil {
		t.Error("nil graph accepted")
	}
	if _, err := ShortestPaths(&Graph{Name: "bare"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("err = %v, want ErrInvalid", err)
	}
	g := spPath(t, 3)
	g.Mu = []float64{1}
	if _, err := ShortestPaths(g); !errors.Is(err, ErrInvalid) {
		t.Errorf("err = %v, want ErrInvalid", err)
	}
}

func TestParseStructure(t *testing.T) {
	for in, want := range map[string]Structure{
		"adjacency": Adjacency, "adj": Adjacency, "ADJ": Adjacency, " Adjacency ": Adjacency,
		"shortest-path": ShortestPath, "sp": ShortestPath, "SP": ShortestPath,
		"Shortest-Path": ShortestPath,
	} {
		got, err := ParseStructure(in)
		if err != nil || got != want {
			t.Errorf("ParseStructure(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "spd", "shortest path", "laplacian"} {
		_, err := ParseStructure(in)
		if err == nil {
			t.Errorf("ParseStructure(%q) accepted", in)
			continue
		}
		for _, s := range []string{`"adjacency"`, `"adj"`, `"shortest-path"`, `"sp"`} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("error %q does not list %s", err, s)
			}
		}
	}
}

func TestStructureApply(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := []*Graph{spRandom(t, rng, 6, 0.4, true, false), spRandom(t, rng, 8, 0.3, false, true)}
	data[1].Name = "second"
	for _, s := range []Structure{Adjacency, ""} {
		out, err := s.Apply(data)
		if err != nil || len(out) != 2 || &out[0] != &data[0] {
			t.Errorf("%q: Apply returned a different slice (%v)", s, err)
		}
	}
	a0 := data[0].A
	out, err := ShortestPath.Apply(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || &out[0] == &data[0] || data[0].A != a0 {
		t.Fatal("Apply did not return new graphs, or changed data")
	}
	for i, g := range out {
		want, err := ShortestPaths(data[i])
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(g.Dense(), want.Dense()) || g.Name != data[i].Name {
			t.Errorf("graph %d differs from ShortestPaths'", i)
		}
	}
	if _, err := Structure("laplacian").Apply(data); err == nil ||
		!strings.Contains(err.Error(), `"shortest-path"`) {
		t.Errorf("unknown structure: err = %v", err)
	}
	// The total of the matrices is checked before any is computed.
	lim := Limits{MaxDenseBytes: shortestPathBytes(6) + shortestPathBytes(8) - 1}
	if _, err := ShortestPath.ApplyWithin(data, lim); err == nil ||
		!strings.Contains(err.Error(), `"second"`) {
		t.Errorf("over the total limit: err = %v, want one naming \"second\"", err)
	}
	bad := []*Graph{data[0], {Name: "broken", A: data[1].A, Mu: []float64{1}}}
	if _, err := ShortestPath.Apply(bad); err == nil ||
		!strings.Contains(err.Error(), "graph 1") || !strings.Contains(err.Error(), "broken") {
		t.Errorf("invalid graph: err = %v, want one naming graph 1, broken", err)
	}
}

func BenchmarkShortestPaths(b *testing.B) {
	for _, unit := range []bool{true, false} {
		name := "weighted"
		if unit {
			name = "unweighted"
		}
		b.Run(name, func(b *testing.B) {
			g := spRandom(b, rand.New(rand.NewPCG(3, 4)), 500, 0.02, unit, false)
			for b.Loop() {
				if _, err := ShortestPaths(g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
