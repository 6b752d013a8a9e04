package graphs

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

type statisticsFixture struct {
	Names  []string `json:"names"`
	Graphs []struct {
		Name       string    `json:"name"`
		Nodes      int       `json:"nodes"`
		Edges      [][2]int  `json:"edges"`
		Statistics []float64 `json:"statistics"`
	} `json:"graphs"`
}

// TestStatisticsNetworkx: Statistics gives networkx's and numpy's values
// (testdata/statistics_networkx.py) on paths, cycles, stars, random graphs, a disconnected
// graph, a graph without edges and a single node.
func TestStatisticsNetworkx(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "statistics.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx statisticsFixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fx.Names, StatisticNames()) || len(fx.Graphs) < 8 {
		t.Fatalf("fixture names %v (%d graphs), want %v", fx.Names, len(fx.Graphs), StatisticNames())
	}
	for _, c := range fx.Graphs {
		a := mat.NewDense(c.Nodes, c.Nodes, nil)
		for _, uv := range c.Edges {
			a.Set(uv[0], uv[1], 1)
			a.Set(uv[1], uv[0], 1)
		}
		g, err := New(c.Name, a, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Statistics(g)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for k, want := range c.Statistics {
			if math.Abs(got[k]-want) > 1e-9*max(1, math.Abs(want)) {
				t.Errorf("%s: %s = %v, networkx %v", c.Name, fx.Names[k], got[k], want)
			}
		}
	}
}

// TestStatisticsLanczos: on components larger than the dense eigendecomposition takes, the
// Lanczos estimates of the extreme eigenvalues match it.
func TestStatisticsLanczos(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	n := 300
	a := mat.NewDense(n, n, nil)
	for v := 1; v < n; v++ { // a random tree, then random chords: connected
		u := rng.IntN(v)
		a.Set(u, v, 1)
		a.Set(v, u, 1)
	}
	for range 2 * n {
		u, v := rng.IntN(n), rng.IntN(n)
		if u != v {
			a.Set(u, v, 1)
			a.Set(v, u, 1)
		}
	}
	g, err := New("random", a, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := statistics(g, n)
	if err != nil {
		t.Fatal(err)
	}
	approx, err := statistics(g, n-1)
	if err != nil {
		t.Fatal(err)
	}
	for k := StatAdjacencyMax; k <= StatLaplacianMax; k++ {
		if math.Abs(exact[k]-approx[k]) > 1e-6 {
			t.Errorf("%s: Lanczos %v, dense %v", StatisticNames()[k], approx[k], exact[k])
		}
	}
}

// TestStatisticsBadInput: graphs of one node, without edges, with self-loops, directed or
// weighted edges give finite values; a directed edge counts as undirected, a weight as 1.
func TestStatisticsBadInput(t *testing.T) {
	one, err := New("one", mat.NewDense(1, 1, []float64{1}), nil, nil) // a self-loop only
	if err != nil {
		t.Fatal(err)
	}
	s, err := Statistics(one)
	if err != nil {
		t.Fatal(err)
	}
	if s[StatNodes] != 1 || s[StatEdges] != 0 || s[StatComponents] != 1 || s[StatLargestComponent] != 1 {
		t.Errorf("one node: %v", s)
	}
	directed, err := New("directed", mat.NewDense(3, 3, []float64{0, 2.5, 0, 0, 0, 1, 0, 0, 0}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	path, err := New("path", mat.NewDense(3, 3, []float64{0, 1, 0, 1, 0, 1, 0, 1, 0}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	sd, err := Statistics(directed)
	if err != nil {
		t.Fatal(err)
	}
	sp, _ := Statistics(path)
	if !slices.Equal(sd, sp) {
		t.Errorf("directed weighted path %v, undirected path %v", sd, sp)
	}
	if _, err := Statistics(&Graph{Name: "nil"}); err == nil {
		t.Error("a graph without adjacency accepted")
	}
}
