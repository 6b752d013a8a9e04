package graphs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFiles writes the named files (slash-separated paths) into a new temporary folder.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestReadFolderCollections: a graph6 file of several lines and a JSON list are read graph by
// graph, named FILE#i in the file's order, beside a file of one graph; labels come from
// labels.csv (FILE#i) or from each node-link graph's own "label"; Select counts graphs.
func TestReadFolderCollections(t *testing.T) {
	nodeLink := func(label string, edges ...string) string {
		return `{"graph": {"label": ` + label + `}, "nodes": [{"id": 0}, {"id": 1}, {"id": 2}], "links": [` + strings.Join(edges, ",") + `]}`
	}
	dir := writeFiles(t, map[string]string{
		"all.g6":     ">>graph6<<Bw\nBg\n\nB?\n", // a triangle, a path, three isolated nodes
		"one.g6":     "Bw\n",
		"labels.csv": "file,label\nall.g6#0,cycle\nall.g6#1,tree\nall.g6#2,none\none.g6,cycle\n",
	})
	ds, err := ReadFolder(dir, FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var edges []int
	for _, g := range ds.Graphs {
		names = append(names, g.Name+"="+ds.ClassText(g.Label))
		edges = append(edges, g.UndirectedEdges())
	}
	if !slices.Equal(names, []string{"all.g6#0=cycle", "all.g6#1=tree", "all.g6#2=none", "one.g6=cycle"}) || !slices.Equal(edges, []int{3, 2, 0, 3}) {
		t.Errorf("graphs %v with %v edges", names, edges)
	}
	ds, err = ReadFolder(dir, FolderOptions{Select: func(n int) []int {
		if n != 4 {
			t.Errorf("Select(%d), want the 4 graphs", n)
		}
		return []int{1, 3}
	}})
	if err != nil || len(ds.Graphs) != 2 || ds.Graphs[0].Name != "all.g6#1" || ds.Graphs[1].Name != "one.g6" {
		t.Errorf("selected: %v", err)
	}

	list := "[" + nodeLink("1", `{"source": 0, "target": 1}`) + ",\n" + nodeLink("2", `{"source": 0, "target": 1}`, `{"source": 1, "target": 2}`) + "]"
	ds, err = ReadFolder(writeFiles(t, map[string]string{"graphs.json": list, "single.json": nodeLink("1")}), FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	names = names[:0]
	for _, g := range ds.Graphs {
		names = append(names, g.Name+"="+ds.ClassText(g.Label))
	}
	if !slices.Equal(names, []string{"graphs.json#0=1", "graphs.json#1=2", "single.json=1"}) || ds.Graphs[1].UndirectedEdges() != 2 {
		t.Errorf("graphs %v", names)
	}

	// A # in the file's own name: the index is after the last one.
	ds, err = ReadFolder(writeFiles(t, map[string]string{"run#2.g6": "Bw\nBg\n", "labels.csv": "run#2.g6#0,a\nrun#2.g6#1,b\n"}), FolderOptions{})
	if err != nil || len(ds.Graphs) != 2 || ds.Graphs[1].Name != "run#2.g6#1" || ds.ClassText(ds.Graphs[1].Label) != "b" || ds.Graphs[1].UndirectedEdges() != 2 {
		t.Errorf("a # in the file name: %v", err)
	}

	// The file alone, for a folder: named after it, labelled by its graphs.
	ds, err = ReadFolder(filepath.Join(writeFiles(t, map[string]string{"graphs.json": list}), "graphs.json"), FolderOptions{})
	if err != nil || ds.Name != "graphs" || len(ds.Graphs) != 2 || ds.Graphs[1].Name != "graphs.json#1" || ds.ClassText(ds.Graphs[1].Label) != "2" {
		t.Errorf("the file alone: %v", err)
	}
	if _, err := ReadFolder(filepath.Join(writeFiles(t, map[string]string{"notes.doc": "x"}), "notes.doc"), FolderOptions{}); err == nil {
		t.Error("a file in no graph format, alone: no error")
	}

	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"empty list", map[string]string{"g.json": " [ ] "}, "an empty list"},
		{"more after the list", map[string]string{"g.json": "[" + nodeLink("1") + "] {}"}, "more after the list"},
		{"not a graph in the list", map[string]string{"g.json": "[" + nodeLink("1") + ", [1, 2]]"}, "g.json#1"},
		{"a bad graph6 line", map[string]string{"all.g6": "Bw\nB!\n"}, "all.g6#1"},
		{"the file labelled, not its graphs", map[string]string{"all.g6": "Bw\nBg\n", "labels.csv": "all.g6,1\n"}, "name each of them (all.g6#0, all.g6#1"},
		{"a graph unlabelled", map[string]string{"all.g6": "Bw\nBg\n", "labels.csv": "all.g6#0,1\n"}, "no label for all.g6#1"},
		{"a graph past the end", map[string]string{"all.g6": "Bw\nBg\n", "labels.csv": "all.g6#0,1\nall.g6#1,2\nall.g6#2,1\n"}, "which holds 2: all.g6#0 to all.g6#1"},
		{"over the memory limit", map[string]string{"all.g6": strings.Repeat("Bw\n", 100)}, "--max-memory"},
	} {
		var lim Limits
		if tc.name == "over the memory limit" {
			lim.MaxDenseBytes = 200
		}
		_, err := ReadFolder(writeFiles(t, tc.files), FolderOptions{Limits: lim})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// FuzzReadFolderCollection: a folder of one file, read as a collection or a graph, gives
// valid graphs or an error, never a panic.
func FuzzReadFolderCollection(f *testing.F) {
	f.Add([]byte("Bw\nBg\n"), false)
	f.Add([]byte(`[{"nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 1}]}, {"adjacency": [[0]]}]`), true)
	f.Add([]byte(" [ ] "), true)
	f.Fuzz(func(t *testing.T, data []byte, asJSON bool) {
		name := "c.g6"
		if asJSON {
			name = "c.json"
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		ds, err := ReadFolder(dir, FolderOptions{Limits: fuzzLimits})
		if err != nil {
			return
		}
		for _, g := range ds.Graphs {
			if !strings.HasPrefix(g.Name, name) {
				t.Fatalf("graph %q of file %s", g.Name, name)
			}
			if err := g.Validate(); err != nil {
				t.Fatalf("%s: %v", g.Name, err)
			}
		}
	})
}
