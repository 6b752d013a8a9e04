package synthetic

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

func spec(m Model) Spec {
	return Spec{Model: m, Graphs: 12, MinNodes: 6, MaxNodes: 14, Classes: 3, PIn: 0.6, POut: 0.05, Seed: 3}
}

// TestWriteReadBack writes both models, reads them back and checks every graph against Graph(i),
// the labels and the node-count range; a second write with the same seed gives the same bytes.
func TestWriteReadBack(t *testing.T) {
	for _, m := range []Model{SBM, BA} {
		s := spec(m)
		dir := filepath.Join(t.TempDir(), "C")
		var last int
		if err := Write(context.Background(), dir, "C", s, graphs.TUWriteOptions{}, func(n int) { last = n }); err != nil {
			t.Fatal(err)
		}
		if last != s.Graphs {
			t.Errorf("%s: progress ended at %d", m, last)
		}
		ds, err := graphs.ReadTUPath(dir, graphs.TUOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ds.Graphs) != s.Graphs || ds.NumClasses() != s.Classes {
			t.Fatalf("%s: %d graphs, %d classes", m, len(ds.Graphs), ds.NumClasses())
		}
		for i, g := range ds.Graphs {
			want, err := s.Graph(i)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(g.Dense(), want.Dense()) || g.Label != i%s.Classes {
				t.Errorf("%s: graph %d differs from Graph(%d) or has label %d", m, i, i, g.Label)
			}
			if n := g.N(); n < s.MinNodes || n > s.MaxNodes {
				t.Errorf("%s: graph %d has %d nodes", m, i, n)
			}
		}
		again := filepath.Join(t.TempDir(), "C")
		if err := Write(context.Background(), again, "C", s, graphs.TUWriteOptions{}, nil); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"C_A.txt", "C_graph_indicator.txt", "C_graph_labels.txt"} {
			a, _ := os.ReadFile(filepath.Join(dir, f))
			b, _ := os.ReadFile(filepath.Join(again, f))
			if string(a) != string(b) || len(a) == 0 {
				t.Errorf("%s: %s differs between two writes with one seed (or is empty)", m, f)
			}
		}
	}
}

// TestSBMClassesDiffer: graphs of class 0 (one block) are denser than those of class 2 (three
// blocks) at PIn >> POut, so the classes are told apart by structure.
func TestSBMClassesDiffer(t *testing.T) {
	s := spec(SBM)
	s.Graphs, s.MinNodes, s.MaxNodes = 60, 12, 12
	density := make([]float64, s.Classes)
	for i := range s.Graphs {
		g, err := s.Graph(i)
		if err != nil {
			t.Fatal(err)
		}
		density[i%s.Classes] += mat.Sum(g.Dense())
	}
	if !(density[0] > density[1] && density[1] > density[2]) {
		t.Errorf("edge mass by class %v, want decreasing with the number of blocks", density)
	}
}

func TestValidate(t *testing.T) {
	bad := map[string]func(*Spec){
		"model":   func(s *Spec) { s.Model = "er" },
		"graphs":  func(s *Spec) { s.Graphs = 0 },
		"classes": func(s *Spec) { s.Classes = 0 },
		"nodes":   func(s *Spec) { s.MinNodes, s.MaxNodes = 5, 4 },
		"ba":      func(s *Spec) { s.Model, s.MinNodes = BA, 3 },
		"p":       func(s *Spec) { s.PIn = 1.5 },
	}
	for name, edit := range bad {
		s := spec(SBM)
		edit(&s)
		if err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), "synthetic: ") {
			t.Errorf("%s: err = %v", name, err)
		}
		if err := Write(context.Background(), filepath.Join(t.TempDir(), "x"), "x", s, graphs.TUWriteOptions{}, nil); err == nil {
			t.Errorf("%s: Write accepted the spec", name)
		}
	}
	if _, err := spec(SBM).Graph(12); err == nil {
		t.Error("Graph(12) of 12 graphs succeeded")
	}
}

// TestWriteCancelled leaves nothing behind.
func TestWriteCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	parent := t.TempDir()
	if err := Write(ctx, filepath.Join(parent, "C"), "C", spec(BA), graphs.TUWriteOptions{}, nil); err == nil {
		t.Fatal("a cancelled write succeeded")
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("%d entries left behind", len(entries))
	}
}
