package graphs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// scanAll reads every graph of dir with a TUScanner, skipping those skip names.
func scanAll(t *testing.T, dir string, opt TUOptions, skip func(int) bool) (*Dataset, []*Graph) {
	t.Helper()
	s, err := NewTUScanner(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var gs []*Graph
	for i := 0; ; i++ {
		var g *Graph
		var err error
		if skip != nil && skip(i) {
			err = s.Skip()
		} else {
			g, err = s.Next()
		}
		if errors.Is(err, io.EOF) {
			if i != s.Len() {
				t.Errorf("EOF after %d graphs, Len %d", i, s.Len())
			}
			return s.Dataset(), gs
		}
		if err != nil {
			t.Fatal(err)
		}
		if g != nil {
			gs = append(gs, g)
		}
	}
}

// sameGraphs compares graphs field by field.
func sameGraphs(t *testing.T, what string, got, want []*Graph) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d graphs, want %d", what, len(got), len(want))
	}
	for i, g := range got {
		w := want[i]
		if g.Name != w.Name || !mat.Equal(g.Dense(), w.Dense()) || !slices.Equal(g.Mu, w.Mu) || g.Label != w.Label || g.HasLabel != w.HasLabel ||
			(g.F == nil) != (w.F == nil) || (g.F != nil && !mat.Equal(g.F, w.F)) {
			t.Fatalf("%s: graph %d (%s) differs from ReadTU's %s", what, i, g.Name, w.Name)
		}
	}
}

// TestTUScannerMatchesReadTU: on the TINY fixture (every feature kind), bundled MUTAG (gzip) and
// a written corpus, the scanner gives ReadTUPath's graphs, also with graphs skipped.
func TestTUScannerMatchesReadTU(t *testing.T) {
	written := filepath.Join(t.TempDir(), "W")
	w, err := NewTUWriter(written, "W", TUWriteOptions{Gzip: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range tuwGraphs(t, 11, true) {
		if err := w.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		dir string
		opt TUOptions
	}{
		{filepath.Join("testdata", "tu", "TINY"), TUOptions{}},
		{filepath.Join("testdata", "tu", "TINY"), TUOptions{Features: FeaturesLabels, DegreeMu: true}},
		{filepath.Join("testdata", "tu", "TINY"), TUOptions{Features: FeaturesAttributes}},
		{filepath.Join("testdata", "tu", "TINY"), TUOptions{Features: FeaturesBoth, NodeLabels: []int{3, 7}}},
		{filepath.Join("testdata", "tu", "TINY"), TUOptions{Features: FeaturesLabels, NodeLabels: []int{1, 3, 7}}},
		{filepath.Join("datasets", "tu", "MUTAG"), TUOptions{Features: FeaturesLabels}},
		{filepath.Join("datasets", "tu", "MUTAG"), TUOptions{Features: FeaturesDegrees}},
		{filepath.Join("testdata", "tu", "TINY"), TUOptions{Features: FeaturesDegrees, DegreeMu: true}},
		{written, TUOptions{Features: FeaturesAttributes}},
	}
	for _, c := range cases {
		want, err := ReadTUPath(c.dir, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		ds, got := scanAll(t, c.dir, c.opt, nil)
		what := c.dir + " " + c.opt.Features.String()
		sameGraphs(t, what, got, want.Graphs)
		if ds.Name != want.Name || !slices.Equal(ds.Classes, want.Classes) || !slices.Equal(ds.NodeLabels, want.NodeLabels) ||
			ds.Encoding.Kind != want.Encoding.Kind || !slices.Equal(ds.Encoding.NodeLabels, want.Encoding.NodeLabels) ||
			ds.Encoding.Attributes != want.Encoding.Attributes {
			t.Errorf("%s: dataset %s %v %v, want %s %v %v", what, ds.Name, ds.Classes, ds.NodeLabels, want.Name, want.Classes, want.NodeLabels)
		}
		odd := func(i int) bool { return i%2 == 1 }
		_, evens := scanAll(t, c.dir, c.opt, odd)
		var wantEvens []*Graph
		for i, g := range want.Graphs {
			if !odd(i) {
				wantEvens = append(wantEvens, g)
			}
		}
		sameGraphs(t, what+" skipping", evens, wantEvens)
	}
}

// TestTUScannerErrors: an adjacency file not grouped by graph, a crossing edge and a missing
// file are errors naming the file; limits apply per graph.
func TestTUScannerErrors(t *testing.T) {
	write := func(a string) string {
		dir := filepath.Join(t.TempDir(), "X")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range map[string]string{"X_A.txt": a, "X_graph_indicator.txt": "1\n1\n2\n2\n"} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	for what, a := range map[string]string{
		"not grouped":  "3, 4\n4, 3\n1, 2\n",
		"crossing":     "1, 3\n",
		"out of range": "1, 9\n",
	} {
		// The order is checked on opening; the ranges when the graphs are read.
		s, err := NewTUScanner(write(a), TUOptions{})
		if err == nil {
			_, err1 := s.Next()
			_, err2 := s.Next()
			err = errors.Join(err1, err2)
			s.Close()
		}
		if err == nil || !strings.Contains(err.Error(), "X_A.txt:") {
			t.Errorf("%s: err = %v, want one naming X_A.txt and the line", what, err)
		}
	}
	s, err := NewTUScanner(write("1, 2\n"), TUOptions{Limits: Limits{MaxNodes: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Next(); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("node limit: err = %v", err)
	}
	s.Close()
	if _, err := NewTUScanner(write("1, 2\n"), TUOptions{Features: FeaturesAttributes}); err == nil {
		t.Error("features asked for without the file: no error")
	}
	if _, err := NewTUScanner(t.TempDir(), TUOptions{}); err == nil {
		t.Error("an empty folder: no error")
	}
	// Text past the last node of the attribute file is refused at the last graph, as ReadTU
	// refuses it, with its line.
	for attrs, want := range map[string]string{
		"1\n2\n3\n4\n5\n":   "X_node_attributes.txt:5: more attribute lines",
		"1\n2\n3\n4\n\n5\n": "X_node_attributes.txt:5: empty line",
	} {
		dir := write("1, 2\n")
		if err := os.WriteFile(filepath.Join(dir, "X_node_attributes.txt"), []byte(attrs), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := NewTUScanner(dir, TUOptions{Features: FeaturesAttributes})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Next(); err != nil {
			t.Fatalf("graph 1: %v", err)
		}
		if _, err := s.Next(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("attributes %q: err = %v, want %q", attrs, err, want)
		}
		s.Close()
	}
}
