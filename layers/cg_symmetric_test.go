package layers

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// symmetricGraphs are graphs with many automorphisms, on which the product coupling is a
// stationary point of CG far from the optimum.
func symmetricGraphs() map[string][][2]int {
	g := map[string][][2]int{}
	for _, n := range []int{6, 8, 11} {
		var e [][2]int
		for i := range n {
			e = append(e, [2]int{i, (i + 1) % n})
		}
		g[fmt.Sprintf("C%d", n)] = e
	}
	for _, mn := range [][2]int{{3, 3}, {3, 4}, {2, 5}} {
		var e [][2]int
		for i := range mn[0] {
			for j := range mn[1] {
				e = append(e, [2]int{i, mn[0] + j})
			}
		}
		g[fmt.Sprintf("K%d,%d", mn[0], mn[1])] = e
	}
	for _, rc := range [][2]int{{3, 3}, {3, 4}, {4, 4}} {
		var e [][2]int
		for r := range rc[0] {
			for c := range rc[1] {
				if c+1 < rc[1] {
					e = append(e, [2]int{r*rc[1] + c, r*rc[1] + c + 1})
				}
				if r+1 < rc[0] {
					e = append(e, [2]int{r*rc[1] + c, (r+1)*rc[1] + c})
				}
			}
		}
		g[fmt.Sprintf("grid%dx%d", rc[0], rc[1])] = e
	}
	var petersen [][2]int
	for i := range 5 {
		petersen = append(petersen, [2]int{i, (i + 1) % 5}, [2]int{i, i + 5}, [2]int{5 + i, 5 + (i+2)%5})
	}
	g["Petersen"] = petersen
	return g
}

// relabelled returns the graph of edges with its nodes renamed by perm, as a uniform Space.
func relabelled(edges [][2]int, perm []int) Space {
	n := len(perm)
	c := mat.NewDense(n, n, nil)
	for _, e := range edges {
		c.Set(perm[e[0]], perm[e[1]], 1)
		c.Set(perm[e[1]], perm[e[0]], 1)
	}
	mu := make([]float64, n)
	for i := range mu {
		mu[i] = 1 / float64(n)
	}
	return Space{C: c, Mu: mu}
}

func nodeCount(edges [][2]int) int {
	n := 0
	for _, e := range edges {
		n = max(n, e[0]+1, e[1]+1)
	}
	return n
}

// TestCGSymmetricGraphs: the default CG finds the isomorphism (objective 0 to 1e-12) between a
// symmetric graph and any relabelling of it, where the product start alone stays above 0.
func TestCGSymmetricGraphs(t *testing.T) {
	testRelabelled(t, symmetricGraphs(), 5)
}

// TestCGRelabelledGraphs: the same on networkx's graphs (testdata/named_graphs.py): more
// vertex-transitive graphs, lattices and trees, and graphs without symmetry whose nodes all
// look alike (the Frucht and Tutte graphs, random regular graphs).
func TestCGRelabelledGraphs(t *testing.T) {
	b, err := os.ReadFile("testdata/named_graphs.json")
	if err != nil {
		t.Fatal(err)
	}
	var g map[string][][2]int
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	testRelabelled(t, g, 3)
}

// testRelabelled solves each graph against relabellings of itself.
func testRelabelled(t *testing.T, graphs map[string][][2]int, relabellings int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(39, 5))
	single := DefaultCG()
	single.Anchors = 0
	stuck := 0
	for _, name := range slices.Sorted(maps.Keys(graphs)) {
		edges := graphs[name]
		n := nodeCount(edges)
		a := relabelled(edges, identity(n))
		for trial := range relabellings {
			b := relabelled(edges, rng.Perm(n))
			tr, f, err := GWD(DefaultCG(), a, b)
			if err != nil {
				t.Fatal(err)
			}
			if f > 1e-12 {
				t.Errorf("%s, relabelling %d: GW = %v, want 0", name, trial, f)
			}
			checkTransport(t, tr, a.Mu, b.Mu, 1e-12)
			if _, f0, _ := GWD(single, a, b); f0 > 1e-12 {
				stuck++
			}
		}
	}
	if stuck == 0 {
		t.Error("the product start alone found every isomorphism: the test cannot fail")
	}
	t.Logf("the product start alone stayed above 0 on %d pairs", stuck)
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// TestCGLaterStartsBounded: a later start runs at most laterIterFactor times the first start's
// iterations (at least laterMinIter), so that one on a Frank-Wolfe plateau does not multiply
// the cost of a solve.
func TestCGLaterStartsBounded(t *testing.T) {
	single := DefaultCG()
	single.Anchors = 0
	for trial := range 30 {
		// Barabási–Albert pairs as `gwf bench --curve` draws them; trial 0 is its N = 50 pair,
		// where a later start crawled for 900 iterations before the bound.
		rng := rand.New(rand.NewPCG(5, uint64(50+trial)))
		ga, err := graphs.BarabasiAlbert(50, 2, rng)
		if err != nil {
			t.Fatal(err)
		}
		gb, err := graphs.BarabasiAlbert(50, 2, rng)
		if err != nil {
			t.Fatal(err)
		}
		a, b := Space{C: ga.Dense(), Mu: ga.Mu}, Space{C: gb.Dense(), Mu: gb.Mu}
		r1, err := Discrepancy(single, a, b)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Discrepancy(DefaultCG(), a, b)
		if err != nil {
			t.Fatal(err)
		}
		later := max(50, 4*r1.Layers) // laterMinIter, laterIterFactor
		if r.Layers > r1.Layers+DefaultAnchors*later {
			t.Errorf("trial %d: %d iterations in all, the first start %d: a later start ran past %d", trial, r.Layers, r1.Layers, later)
		}
		// Within rounding: the kept start's objective is recomputed from its plan.
		if r.Objective > r1.Objective*(1+1e-12) {
			t.Errorf("trial %d: all starts %v, the first alone %v", trial, r.Objective, r1.Objective)
		}
	}
}

// TestPPAStaysAtSymmetricStart: the paper's PPA from the product coupling keeps a 6-cycle's
// transport to itself invariant under the rotations and reflections, and ends at objective 4/9
// (the uniform coupling's), where CG reaches 0: why 'gwf gw' defaults to CG.
func TestPPAStaysAtSymmetricStart(t *testing.T) {
	c6 := relabelled(symmetricGraphs()["C6"], []int{0, 1, 2, 3, 4, 5})
	_, obj, err := GWD(DefaultPPA(), c6, c6)
	if err != nil {
		t.Fatal(err)
	}
	if want := 4.0 / 9; obj < want-1e-9 || obj > want+1e-9 {
		t.Errorf("PPA: objective %v, want the symmetric fixed point 4/9", obj)
	}
	if _, obj, err = GWD(DefaultCG(), c6, c6); err != nil || obj > 1e-12 {
		t.Errorf("CG: objective %v (%v), want 0", obj, err)
	}
}

// TestJitterLeavesSymmetricStart: a jittered start takes PPA off the product coupling where
// the graphs' symmetries keep it there: an 8-cycle and a 4-node path against themselves reach
// the match (objective 0), BADMM ends far below the fixed point; the jitter is bounded, and
// CG, which has anchored starts, refuses it.
func TestJitterLeavesSymmetricStart(t *testing.T) {
	path := [][2]int{{0, 1}, {1, 2}, {2, 3}}
	for name, edges := range map[string][][2]int{"C8": symmetricGraphs()["C8"], "P4": path} {
		g := relabelled(edges, []int{0, 1, 2, 3, 4, 5, 6, 7}[:nodeCount(edges)])
		p := DefaultPPA()
		_, stuck, err := GWD(p, g, g)
		if err != nil {
			t.Fatal(err)
		}
		p.Jitter = 0.01
		_, obj, err := GWD(p, g, g)
		if err != nil || obj > 1e-9 || !(stuck > 0.1) {
			t.Errorf("%s: PPA %v from the product coupling, %v jittered (%v); want the fixed point, then 0", name, stuck, obj, err)
		}
	}
	c6 := relabelled(symmetricGraphs()["C6"], []int{0, 1, 2, 3, 4, 5})
	b := DefaultBADMM()
	_, stuck, _ := GWD(b, c6, c6)
	b.Jitter = 0.01
	if _, obj, err := GWD(b, c6, c6); err != nil || !(obj < stuck/10) {
		t.Errorf("BADMM on C6: %v jittered (%v), %v from the product coupling", obj, err, stuck)
	}
	for _, bad := range []float64{-0.1, MaxJitter + 0.1, math.NaN()} {
		if err := (PPA{Gamma: 0.01, Layers: 1, Inner: 1, Weight: 1, Jitter: bad}).Check(); !errors.Is(err, ErrInput) {
			t.Errorf("jitter %v: %v, want ErrInput", bad, err)
		}
	}
	if _, err := NewSolver(SolverOptions{Name: "cg", Layers: 10, FeatureWeight: 1, Jitter: 0.01}); !errors.Is(err, ErrInput) {
		t.Errorf("cg with a jitter: %v, want ErrInput", err)
	}
}
