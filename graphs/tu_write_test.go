package graphs

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// tuwGraphs are random BA and SBM graphs, labelled 0..2 in turn, with 2 random features when
// features is set.
func tuwGraphs(t *testing.T, n int, features bool) []*Graph {
	t.Helper()
	var gs []*Graph
	for i := range n {
		rng := rand.New(rand.NewPCG(7, uint64(i)))
		var g *Graph
		var err error
		if i%2 == 0 {
			g, err = BarabasiAlbert(4+rng.IntN(6), 2, rng)
		} else {
			g, err = StochasticBlockModel([]int{3, 2 + rng.IntN(3)}, [][]float64{{0.8, 0.1}, {0.1, 0.8}}, rng)
		}
		if err != nil {
			t.Fatal(err)
		}
		g.Label, g.HasLabel = i%3, true
		if features {
			f := mat.NewDense(g.N(), 2, nil)
			for u := range g.N() {
				f.Set(u, 0, rng.NormFloat64())
				f.Set(u, 1, float64(u)/3)
			}
			g.F = f
		}
		gs = append(gs, g)
	}
	return gs
}

// TestTUWriterRoundTrip writes graphs and reads them back with ReadTUPath: same adjacency,
// labels and features, plain and gzip.
func TestTUWriterRoundTrip(t *testing.T) {
	for _, gz := range []bool{false, true} {
		gs := tuwGraphs(t, 9, true)
		dir := filepath.Join(t.TempDir(), "SYN")
		w, err := NewTUWriter(dir, "SYN", TUWriteOptions{Gzip: gz})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			if err := w.Write(g); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Fatalf("gzip=%v: the folder exists before Close (err %v)", gz, err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if gz {
			if _, err := os.Stat(filepath.Join(dir, "SYN_A.txt.gz")); err != nil {
				t.Fatal(err)
			}
		}
		ds, err := ReadTUPath(dir, TUOptions{Features: FeaturesAttributes})
		if err != nil {
			t.Fatal(err)
		}
		if len(ds.Graphs) != len(gs) || !slices.Equal(ds.Classes, []int{0, 1, 2}) {
			t.Fatalf("gzip=%v: read %d graphs, classes %v", gz, len(ds.Graphs), ds.Classes)
		}
		for i, g := range ds.Graphs {
			want := gs[i]
			if !mat.Equal(g.Dense(), want.Dense()) || !mat.Equal(g.F, want.F) || g.Label != want.Label || !g.HasLabel {
				t.Errorf("gzip=%v: graph %d differs after the round trip", gz, i)
			}
		}
		entries, _ := os.ReadDir(filepath.Dir(dir))
		if len(entries) != 1 {
			t.Errorf("gzip=%v: %d entries beside the dataset, want none (temporary folder left?)", gz, len(entries)-1)
		}
	}
}

// TestTUWriterErrors: an existing folder, a weighted edge, a label or feature mismatch and an
// empty dataset are refused, and a failed writer leaves nothing behind.
func TestTUWriterErrors(t *testing.T) {
	parent := t.TempDir()
	if _, err := NewTUWriter(parent, "X", TUWriteOptions{}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("existing folder: err = %v", err)
	}
	if _, err := NewTUWriter(filepath.Join(parent, "X"), "a/b", TUWriteOptions{}); err == nil {
		t.Error("a name with a slash was accepted")
	}
	gs := tuwGraphs(t, 2, false)
	weighted := *gs[1]
	wc := gs[1].Dense()
	wc.Set(0, 1, 2)
	wc.Set(1, 0, 2)
	weighted.A = mustCSR(t, wc)
	unlabelled := *gs[1]
	unlabelled.HasLabel = false
	featured := tuwGraphs(t, 2, true)[1]
	for name, second := range map[string]*Graph{"weight": &weighted, "label": &unlabelled, "features": featured} {
		dir := filepath.Join(parent, name)
		w, err := NewTUWriter(dir, "X", TUWriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(gs[0]); err != nil {
			t.Fatal(err)
		}
		if err := w.Write(second); err == nil || !strings.Contains(err.Error(), "graph 2") {
			t.Errorf("%s: err = %v, want an error naming graph 2", name, err)
		}
		if err := w.Close(); err == nil {
			t.Errorf("%s: Close after a failed Write succeeded", name)
		}
	}
	w, err := NewTUWriter(filepath.Join(parent, "empty"), "X", TUWriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "no graphs") {
		t.Errorf("empty dataset: err = %v", err)
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 0 {
		t.Errorf("failed writers left %d entries behind", len(entries))
	}
}

// TestWriteTU: the one-call writer reads back as written, and a graph it cannot write leaves no
// folder.
func TestWriteTU(t *testing.T) {
	parent := t.TempDir()
	gs := tuwGraphs(t, 3, true)
	dir := filepath.Join(parent, "ok")
	if err := WriteTU(dir, "OK", gs, TUWriteOptions{}); err != nil {
		t.Fatal(err)
	}
	ds, err := ReadTUPath(dir, TUOptions{Features: FeaturesAttributes})
	if err != nil || len(ds.Graphs) != 3 || ds.Graphs[2].N() != gs[2].N() {
		t.Fatalf("read back: %v", err)
	}
	bad := filepath.Join(parent, "bad")
	if err := WriteTU(bad, "BAD", []*Graph{gs[0], tuwGraphs(t, 1, false)[0]}, TUWriteOptions{}); err == nil {
		t.Fatal("graphs with and without features written as one dataset")
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Fatalf("a failed WriteTU left %s: %v", bad, err)
	}
}
