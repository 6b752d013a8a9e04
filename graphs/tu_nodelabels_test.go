package graphs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestTUNodeLabelColumns: one column is the label itself; several are one label per distinct
// tuple, the same in any file; a line of another width, too many columns or huge labels are
// refused.
func TestTUNodeLabelColumns(t *testing.T) {
	var one tuNodeLabels
	if v, err := one.parse(" -3 "); err != nil || v != -3 {
		t.Fatalf("one column: %v, %v", v, err)
	}
	seen := map[int]string{}
	var two tuNodeLabels
	for _, line := range []string{"0, 0", "1, 0", "0, 1", "-1, 0", "0, -1", "2, 3", "3, 2", "1048575, -1048576"} {
		v, err := two.parse(line)
		if err != nil || v < 0 {
			t.Fatalf("%q: %v, %v", line, v, err)
		}
		if other, ok := seen[v]; ok {
			t.Fatalf("%q and %q both give %d", line, other, v)
		}
		seen[v] = line
		var again tuNodeLabels // another file
		if w, _ := again.parse(line); w != v {
			t.Fatalf("%q: %d, then %d", line, v, w)
		}
	}
	for _, bad := range []struct{ lines, want string }{
		{"1, 2\n3", "1 comma-separated fields, want 2"},
		{"1,2,3,4,5,6,7,8,9", "at most 8"},
		{"1, 1048576", "at most 1048575"},
		{"1, x", `field 2 ("x") is not an integer`},
	} {
		var p tuNodeLabels
		var err error
		for _, l := range strings.Split(bad.lines, "\n") {
			if _, err = p.parse(l); err != nil {
				break
			}
		}
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.lines, err, bad.want)
		}
	}
}

// TestReadTUNodeLabelColumns: a dataset whose node labels have two columns (as Cuneiform's)
// reads with one one-hot column per distinct pair, by ReadTU and by the scanner alike.
func TestReadTUNodeLabelColumns(t *testing.T) {
	fsys := tuTinyFS(t)
	// TINY's labels 7 3 3 5 7 3 3 5 7 become pairs; (3, 0) and (3, 1) are now two labels.
	fsys["TINY/TINY_node_labels.txt"].Data = []byte("7, 0\n3, 0\n3, 1\n5, 0\n7, 0\n3, 0\n3, 1\n5, 0\n7, 0\n")
	ds, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: FeaturesLabels})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.NodeLabels) != 4 || ds.Graphs[0].Dim() != 4 {
		t.Fatalf("%d label values %v, feature width %d; want 4", len(ds.NodeLabels), ds.NodeLabels, ds.Graphs[0].Dim())
	}
	dir := t.TempDir()
	for name, f := range fsys {
		path := filepath.Join(dir, filepath.Base(name))
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewTUScanner(dir, TUOptions{Features: FeaturesLabels})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !slices.Equal(s.Dataset().NodeLabels, ds.NodeLabels) {
		t.Fatalf("scanner values %v, reader %v", s.Dataset().NodeLabels, ds.NodeLabels)
	}
	for k := range ds.Graphs {
		g, err := s.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(g.F, ds.Graphs[k].F) {
			t.Fatalf("graph %d: scanner features %v, reader %v", k, mat.Formatted(g.F), mat.Formatted(ds.Graphs[k].F))
		}
	}
}
