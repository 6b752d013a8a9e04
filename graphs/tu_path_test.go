package graphs

import (
	"archive/zip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadTUUnlabelled(t *testing.T) {
	fsys := tuTinyFS(t)
	delete(fsys, "TINY/TINY_graph_labels.txt")
	ds, err := ReadTU(fsys, "TINY", "TINY", TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Graphs) != 3 || ds.Classes != nil {
		t.Fatalf("%d graphs, classes %v; want 3 graphs and no classes", len(ds.Graphs), ds.Classes)
	}
	for _, g := range ds.Graphs {
		if g.HasLabel {
			t.Errorf("%s has a label without a labels file", g.Name)
		}
	}
}

// TestReadTUSelect reads graphs 1 and 3 of TINY: the same matrices, features and labels as a
// full read, and a memory limit that the whole dataset exceeds but the selection does not.
func TestReadTUSelect(t *testing.T) {
	fsys := tuTinyFS(t)
	for _, kind := range []FeatureKind{FeaturesNone, FeaturesLabels, FeaturesAttributes} {
		full, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: kind})
		if err != nil {
			t.Fatal(err)
		}
		// Graphs 1 and 3 (3 and 4 nodes, 7 and 4 adjacency lines) take 8·(2·7+2) bytes of nodes and
		// 11 lines while reading, 8·7 more per feature; the whole dataset needs more.
		lim := Limits{MaxNodes: 10, MaxDenseBytes: 128 + 11*tuBytesPerEdge + 8*7*int64(max(full.Graphs[0].Dim(), 0))}
		if _, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: kind, Limits: Limits{MaxNodes: 10, MaxDenseBytes: lim.MaxDenseBytes + 8*2*int64(full.Graphs[0].Dim())}}); err == nil {
			t.Fatalf("%v: the whole dataset passed a limit it exceeds", kind)
		}
		calls := 0
		sub, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: kind, Limits: lim, Select: func(n int) []int {
			calls++
			if n != 3 {
				t.Errorf("Select called with %d graphs, want 3", n)
			}
			return []int{0, 2}
		}})
		if err != nil {
			t.Fatalf("%v: %v", kind, err)
		}
		if calls != 1 || len(sub.Graphs) != 2 {
			t.Fatalf("%v: %d calls, %d graphs; want 1 and 2", kind, calls, len(sub.Graphs))
		}
		if !slices.Equal(sub.Classes, full.Classes) || !slices.Equal(sub.NodeLabels, full.NodeLabels) {
			t.Errorf("%v: classes %v / node labels %v differ from the full read's %v / %v", kind, sub.Classes, sub.NodeLabels, full.Classes, full.NodeLabels)
		}
		for k, g := range []int{0, 2} {
			a, b := sub.Graphs[k], full.Graphs[g]
			if a.Name != b.Name || a.Label != b.Label || !slices.Equal(tuDense(a.Dense()), tuDense(b.Dense())) {
				t.Errorf("%v: graph %s differs from the full read's %s", kind, a.Name, b.Name)
			}
			if (a.F == nil) != (b.F == nil) || (a.F != nil && !slices.Equal(tuDense(a.F), tuDense(b.F))) {
				t.Errorf("%v: features of %s differ from the full read's", kind, a.Name)
			}
		}
	}
	for _, bad := range [][]int{{2, 0}, {0, 0}, {3}, {-1}} {
		_, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Select: func(int) []int { return bad }})
		if err == nil || !strings.Contains(err.Error(), "TUOptions.Select") {
			t.Errorf("Select %v: error %v", bad, err)
		}
	}
}

// tuZip writes the TINY fixture into a zip at dir/name, members under prefix (which may hold a
// double slash, as the TU site's archives do).
func tuZip(t *testing.T, dir, name, prefix string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for file, data := range tuTinyFS(t) {
		w, err := zw.Create(prefix + strings.TrimPrefix(file, "TINY/"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data.Data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadTUPathZip(t *testing.T) {
	want, err := ReadTUPath(filepath.Join("testdata", "tu", "TINY"), TUOptions{Features: FeaturesAttributes})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, prefix := range []string{"TINY//", "TINY/", ""} {
		p := tuZip(t, dir, "tiny.zip", prefix)
		ds, err := ReadTUPath(p, TUOptions{Features: FeaturesAttributes})
		if err != nil {
			t.Fatalf("prefix %q: %v", prefix, err)
		}
		if ds.Name != "TINY" || len(ds.Graphs) != len(want.Graphs) {
			t.Fatalf("prefix %q: %s with %d graphs", prefix, ds.Name, len(ds.Graphs))
		}
		for i, g := range ds.Graphs {
			if !slices.Equal(tuDense(g.Dense()), tuDense(want.Graphs[i].Dense())) || !slices.Equal(tuDense(g.F), tuDense(want.Graphs[i].F)) {
				t.Errorf("prefix %q: %s differs from the folder's", prefix, g.Name)
			}
		}
	}
	// Errors name the archive and the member.
	p := tuZip(t, dir, "bad.zip", "TINY/")
	if _, err := ReadTUPath(p, TUOptions{Features: FeaturesLabels, Limits: Limits{MaxNodes: 3}}); err == nil || !strings.Contains(err.Error(), p+":TINY/TINY_graph_indicator.txt") {
		t.Errorf("error %v does not name the archive and member", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "junk.zip"), []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTUPath(filepath.Join(dir, "junk.zip"), TUOptions{}); err == nil || !strings.Contains(err.Error(), "junk.zip") {
		t.Errorf("junk archive: error %v", err)
	}
}
