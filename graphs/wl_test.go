package graphs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// wlFixture is testdata/wl_codes.json, written by testdata/wl_codes.py, or
// wl_edge_codes.json (wl_edge_codes.py), whose edges carry a third number, their label.
type wlFixture struct {
	Iterations int `json:"iterations"`
	Graphs     []struct {
		Name   string     `json:"name"`
		Nodes  int        `json:"nodes"`
		Edges  [][]int    `json:"edges"`
		Labels []string   `json:"labels"`
		Hashes [][]string `json:"hashes"`
	} `json:"graphs"`
}

// TestWLCodesNetworkx: at every iteration, gwf's codes split the nodes of all the fixture's
// graphs exactly as networkx's Weisfeiler-Lehman subgraph hashes do (a bijection between the
// two), and column 0 splits them by node label.
func TestWLCodesNetworkx(t *testing.T) {
	checkWLNetworkx(t, "wl_codes.json", WLCodes)
}

// TestWLCodesWithEdgesNetworkx: the same with edge labels, against networkx's hashes with
// edge_attr.
func TestWLCodesWithEdgesNetworkx(t *testing.T) {
	checkWLNetworkx(t, "wl_edge_codes.json", WLCodesWithEdges)
}

func checkWLNetworkx(t *testing.T, fixture string, wl func(*Graph, int) (*mat.Dense, error)) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", fixture))
	if err != nil {
		t.Fatal(err)
	}
	var fx wlFixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	if len(fx.Graphs) < 10 || fx.Iterations < 3 {
		t.Fatalf("fixture has %d graphs and %d iterations", len(fx.Graphs), fx.Iterations)
	}
	h := fx.Iterations
	// ours[t][code] is networkx's hash that code met first, theirs the reverse.
	ours := make([]map[float64]string, h+1)
	theirs := make([]map[string]float64, h+1)
	for t := range ours {
		ours[t], theirs[t] = map[float64]string{}, map[string]float64{}
	}
	for _, c := range fx.Graphs {
		n := c.Nodes
		a := mat.NewDense(n, n, nil)
		e := mat.NewDense(n, n, nil)
		for _, uv := range c.Edges {
			a.Set(uv[0], uv[1], 1)
			a.Set(uv[1], uv[0], 1)
			if len(uv) == 3 {
				e.Set(uv[0], uv[1], EdgeLabelCode(uv[2]))
				e.Set(uv[1], uv[0], EdgeLabelCode(uv[2]))
			}
		}
		f := mat.NewDense(n, 5, nil)
		for v, l := range c.Labels {
			k, err := strconv.Atoi(l)
			if err != nil {
				t.Fatal(err)
			}
			f.Set(v, k, 1)
		}
		g, err := New(c.Name, a, nil, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Edges) > 0 && len(c.Edges[0]) == 3 {
			if g.EdgeLabels, err = csr.FromDense(e); err != nil {
				t.Fatal(err)
			}
		}
		codes, err := wl(g, h)
		if err != nil {
			t.Fatal(err)
		}
		if r, cols := codes.Dims(); r != n || cols != h+1 {
			t.Fatalf("%s: codes are %d×%d, want %d×%d", c.Name, r, cols, n, h+1)
		}
		for v := range n {
			for it := 0; it <= h; it++ {
				want := c.Labels[v]
				if it > 0 {
					want = c.Hashes[v][it-1]
				}
				code := codes.At(v, it)
				if w, ok := ours[it][code]; ok && w != want {
					t.Errorf("iteration %d: code %v is networkx's %s and %s", it, code, w, want)
				}
				if o, ok := theirs[it][want]; ok && o != code {
					t.Errorf("iteration %d: networkx's %s is code %v and %v", it, want, o, code)
				}
				ours[it][code], theirs[it][want] = want, code
			}
		}
	}
	if len(ours[h]) < 20 {
		t.Errorf("only %d distinct codes at iteration %d: the fixture does not exercise the refinement", len(ours[h]), h)
	}
}

// TestWLCodesBadInput: iterations out of range are refused; a graph without features starts
// from one label.
func TestWLCodesBadInput(t *testing.T) {
	g, err := New("p3", mat.NewDense(3, 3, []float64{0, 1, 0, 1, 0, 1, 0, 1, 0}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []int{-1, MaxWLIterations + 1} {
		if _, err := WLCodes(g, h); err == nil {
			t.Errorf("h = %d accepted", h)
		}
	}
	codes, err := WLCodes(g, 1)
	if err != nil {
		t.Fatal(err)
	}
	if codes.At(0, 0) != codes.At(1, 0) || codes.At(0, 1) != codes.At(2, 1) || codes.At(0, 1) == codes.At(1, 1) {
		t.Errorf("path codes %v: want one label, then ends apart from the middle", mat.Formatted(codes))
	}
	if Categorical([]*Graph{g}) {
		t.Error("a graph without features is called categorical")
	}
}
