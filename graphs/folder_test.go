package graphs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// mixedDir is a folder mixing the JSON form, node-link JSON and edge lists, with labels.csv.
var mixedDir = filepath.Join("testdata", "mixed")

func TestReadFolderMixed(t *testing.T) {
	ds, err := ReadFolder(mixedDir, FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	nodes := map[string]int{}
	for _, g := range ds.Graphs {
		names = append(names, g.Name)
		nodes[g.Name] = g.N()
		if g.F != nil {
			t.Errorf("%s: features without asking", g.Name)
		}
	}
	wantNames := []string{"friends.edges", "path.nodelink.json", "pentagon.txt", "square.json", "star.nodelink.json", "triangle.json"}
	if ds.Name != "mixed" || !slices.Equal(names, wantNames) {
		t.Fatalf("dataset %q with graphs %v, want mixed with %v", ds.Name, names, wantNames)
	}
	// The 1-based pentagon has 5 nodes, not an isolated sixth.
	for name, n := range map[string]int{"friends.edges": 4, "path.nodelink.json": 4, "pentagon.txt": 5, "square.json": 4, "star.nodelink.json": 4, "triangle.json": 3} {
		if nodes[name] != n {
			t.Errorf("%s: %d nodes, want %d", name, nodes[name], n)
		}
	}
	if !slices.Equal(ds.ClassNames, []string{"cycle", "tree"}) || ds.Classes != nil {
		t.Fatalf("classes %v / names %v", ds.Classes, ds.ClassNames)
	}
	for _, g := range ds.Graphs {
		want := 1
		if strings.HasSuffix(g.Name, "square.json") || g.Name == "triangle.json" || g.Name == "pentagon.txt" {
			want = 0
		}
		if !g.HasLabel || g.Label != want {
			t.Errorf("%s: label %d (%v), want %d", g.Name, g.Label, g.HasLabel, want)
		}
	}
	star := ds.Graphs[4]
	if star.A.At(0, 3) != 2 || star.A.At(3, 0) != 2 || star.A.At(1, 2) != 0 {
		t.Errorf("star: C =\n%v", mat.Formatted(star.Dense()))
	}
}

// mixedCopy copies the named files of the mixed folder into a temporary one.
func mixedCopy(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(mixedDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReadFolderFeaturesAndSelect(t *testing.T) {
	// Edge lists have no features: asking for them names the file.
	if _, err := ReadFolder(mixedDir, FolderOptions{Features: FeaturesAttributes}); err == nil || !strings.Contains(err.Error(), "friends.edges: no numeric node attributes") {
		t.Errorf("attributes with an edge list: error %v", err)
	}
	dir := mixedCopy(t, "triangle.json", "square.json", "star.nodelink.json", "path.nodelink.json")
	ds, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes, Select: func(n int) []int {
		if n != 4 {
			t.Errorf("Select(%d), want 4 files", n)
		}
		return []int{1, 3}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Graphs) != 2 || ds.Graphs[0].Name != "square.json" || ds.Graphs[1].Name != "triangle.json" {
		t.Fatalf("selected %d graphs", len(ds.Graphs))
	}
	for _, g := range ds.Graphs {
		if g.Dim() != 1 || g.HasLabel {
			t.Errorf("%s: dim %d, label %v", g.Name, g.Dim(), g.HasLabel)
		}
	}
	// A subset is read before the memory check counts it: the two selected graphs fit a limit
	// that the four do not.
	all, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes})
	if err != nil {
		t.Fatal(err)
	}
	lim := Limits{MaxDenseBytes: all.Graphs[1].Bytes() + all.Graphs[3].Bytes()}
	if _, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes, Limits: lim}); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("whole folder under a small limit: error %v", err)
	}
	if _, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes, Limits: lim, Select: func(int) []int { return []int{1, 3} }}); err != nil {
		t.Errorf("subset under the limit: %v", err)
	}
}

func TestReadFolderErrors(t *testing.T) {
	write := func(dir, name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"empty", map[string]string{"README.md": "x"}, "no graph files"},
		{"a script and its notebook only", map[string]string{"make.py": "import networkx", "make.ipynb": `{"cells": []}`}, "no graph files"},
		{"unknown format", map[string]string{"a.json": `{"adjacency": [[0]]}`, "b.xml": "<graphml/>"}, "b.xml: unknown graph format"},
		{"a pickle", map[string]string{"a.json": `{"adjacency": [[0]]}`, "b.gpickle": "\x80\x04"}, "write each graph as node-link JSON"},
		{"compressed", map[string]string{"a.tar.gz": "\x1f\x8b"}, "a.tar.gz: unknown graph format (want .json for JSON or node-link, .txt/.edges/.edgelist/.el for edge lists, .adjlist for adjacency lists, .graphml for GraphML, .gml for GML, .gexf for GEXF, .g6 for graph6, .npy/.npz for adjacency matrices; any but the last gzip-compressed, ending in .gz): decompress it first"},
		{"a compressed matrix", map[string]string{"a.npy.gz": "\x1f\x8b"}, "numpy.savez_compressed"},
		{"bad graph", map[string]string{"a.json": `{"adjacency": [[0, 1]]}`}, "a.json"},
		{"binary json", map[string]string{"a.json": "\x00\x01"}, "a.json: not a JSON object"},
		{"label for no file", map[string]string{"a.txt": "x y\n", "labels.csv": "b.txt,1\n"}, `labels.csv:1: "b.txt" is not a graph file`},
		{"label missing", map[string]string{"a.txt": "x y\n", "b.txt": "x y\n", "labels.csv": "file,label\na.txt,1\n"}, "no label for b.txt"},
		{"label twice", map[string]string{"a.txt": "x y\n", "labels.csv": "a.txt,1\na.txt,2\n"}, `labels.csv:2: "a.txt" is labelled twice`},
		{"label twice, once without the extension", map[string]string{"a.txt": "x y\n", "labels.csv": "a.txt,1\na,1\n"}, `labels.csv:2: "a.txt" is labelled twice`},
		{"a name of two files", map[string]string{"a.txt": "x y\n", "a.json": `{"adjacency": [[0]]}`, "labels.csv": "a,1\n"}, `labels.csv:1: "a" may be any of a.json, a.txt`},
		{"labels three columns", map[string]string{"a.txt": "x y\n", "labels.csv": "a.txt,1,2\n"}, "labels.csv"},
		{"labels without line ends", map[string]string{"a.txt": "x y\n", "labels.csv": strings.Repeat("\x00", 2<<20)}, "line 1: line too long"},
		{"some files labelled", map[string]string{"a.json": `{"adjacency": [[0]], "label": 1}`, "b.json": `{"adjacency": [[0]]}`}, "a.json has a class label and b.json none"},
		{"feature widths", map[string]string{"a.json": `{"adjacency": [[0]], "features": [[1]]}`, "b.json": `{"adjacency": [[0]], "features": [[1, 2]]}`}, "b.json: 2 node features, but a.json has 1"},
		{"nodes for no file", map[string]string{"a.txt": "0 1\n", "nodes.csv": "b.txt,3\n"}, `nodes.csv:1: "b.txt" is not a graph file`},
		{"nodes of a JSON file", map[string]string{"a.json": `{"adjacency": [[0]]}`, "nodes.csv": "a.json,3\n"}, "not an edge list"},
		{"nodes twice", map[string]string{"a.txt": "0 1\n", "nodes.csv": "a.txt,3\na.txt,3\n"}, "given twice"},
		{"nodes not a count", map[string]string{"a.txt": "0 1\n", "nodes.csv": "a.txt,0\n"}, "not a positive integer"},
		{"nodes over the limit", map[string]string{"a.txt": "0 1\n", "nodes.csv": "a.txt,1000000000\n"}, "over the limit"},
		{"ids beyond the count", map[string]string{"a.txt": "0 5\n", "nodes.csv": "a.txt,3\n"}, "its ids must be 0..2"},
		{"names with a count", map[string]string{"a.txt": "x y\n", "nodes.csv": "a.txt,3\n"}, "its ids must be 0..2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tc.files {
				write(dir, name, text)
			}
			features := FeaturesNone
			if tc.name == "feature widths" {
				features = FeaturesAttributes
			}
			_, err := ReadFolder(dir, FolderOptions{Features: features})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	// Integer labels in labels.csv map to sorted classes, as TU labels do. The notebook that
	// wrote the graphs, beside them, is no graph.
	dir := t.TempDir()
	write(dir, "make_graphs.ipynb", `{"cells": [], "nbformat": 4}`)
	write(dir, "a.txt", "x y\n")
	write(dir, "b.txt", "x y\n")
	write(dir, "labels.csv", "b.txt, -1\na.txt, 2\n")
	ds, err := ReadFolder(dir, FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ds.Classes, []int{-1, 2}) || ds.Graphs[0].Label != 1 || ds.Graphs[1].Label != 0 {
		t.Errorf("classes %v, labels %d %d", ds.Classes, ds.Graphs[0].Label, ds.Graphs[1].Label)
	}
	// A table may name the graphs without their extensions (the names a script gave them).
	write(dir, "labels.csv", "graph,label\nb,-1\na,2\n")
	write(dir, "a.txt", "0 1\n")
	write(dir, "nodes.csv", "a,3\n")
	ds, err = ReadFolder(dir, FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ds.Classes, []int{-1, 2}) || ds.Graphs[0].Label != 1 || ds.Graphs[1].Label != 0 || ds.Graphs[0].N() != 3 {
		t.Errorf("names without extensions: classes %v, labels %d %d, %d nodes in a.txt", ds.Classes, ds.Graphs[0].Label, ds.Graphs[1].Label, ds.Graphs[0].N())
	}
	// Or by paths, as a script that lists the files it wrote does: the last element names the
	// graph; a path to no graph of the folder stays an error.
	write(dir, "labels.csv", "path,label\ndata/graphs/b.txt,-1\nC:\\data\\a.txt,2\n")
	ds, err = ReadFolder(dir, FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Graphs[0].Label != 1 || ds.Graphs[1].Label != 0 {
		t.Errorf("paths: labels %d %d", ds.Graphs[0].Label, ds.Graphs[1].Label)
	}
	write(dir, "labels.csv", "b.txt,-1\na.txt,2\ndata/c.txt,2\n")
	if _, err := ReadFolder(dir, FolderOptions{}); err == nil || !strings.Contains(err.Error(), `labels.csv:3: "data/c.txt" is not a graph file`) {
		t.Errorf("a path to no graph of the folder: %v", err)
	}
}

// TestReadFolderNodeCounts: nodes.csv keeps the isolated nodes that networkx's write_edgelist
// drops: an edge list numbered 0..N−1 gets N nodes, the ones in no edge isolated; files it
// does not list are read as before.
func TestReadFolderNodeCounts(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a.edgelist": "0 1 {}\n1 2 {}\n",
		"b.edgelist": "0 1 {}\n",
		"nodes.csv":  "file,nodes\na.edgelist,5\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := ReadFolder(dir, FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := ds.Graphs[0], ds.Graphs[1]
	if a.N() != 5 || b.N() != 2 {
		t.Fatalf("nodes %d and %d, want 5 and 2", a.N(), b.N())
	}
	for i := 3; i < 5; i++ {
		for j := range 5 {
			if a.A.At(i, j) != 0 {
				t.Errorf("node %d is not isolated", i)
			}
		}
	}
	if a.A.At(1, 2) != 1 || a.A.At(2, 1) != 1 {
		t.Error("edge 1–2 missing")
	}
}

// TestReadFileFormat: ReadFile takes the format it is given over the extension, passes the
// edge-list options on, and refuses an unknown format or extension.
func TestReadFileFormat(t *testing.T) {
	dir := t.TempDir()
	nodeLink := filepath.Join(dir, "g.dat")
	if err := os.WriteFile(nodeLink, []byte(`{"directed": false, "nodes": [{"id": "a"}, {"id": "b"}, {"id": "c"}], "links": [{"source": "a", "target": "b"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := ReadFile(nodeLink, FileOptions{Format: "json"})
	if err != nil || g.N() != 3 {
		t.Fatalf("node-link as json: %v, %v", g, err)
	}
	if _, err := ReadFile(nodeLink, FileOptions{}); err == nil || !strings.Contains(err.Error(), "unknown graph format") {
		t.Errorf("unknown extension: %v", err)
	}
	if _, err := ReadFile(nodeLink, FileOptions{Format: "xml"}); err == nil || !strings.Contains(err.Error(), "unknown graph format") {
		t.Errorf("unknown format: %v", err)
	}
	edges := filepath.Join(dir, "g.edges")
	if err := os.WriteFile(edges, []byte("1 2\n2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err = ReadFile(edges, FileOptions{EdgeList: EdgeListOptions{IDs: OneBased, Nodes: 4}})
	if err != nil || g.N() != 4 || FileFormat(edges) != "edges" {
		t.Fatalf("one-based edge list of 4 nodes: %v, %v", g, err)
	}
}

// TestCheckFormatAndIDs: the format and id names ReadFile and edge lists take, any case; others
// are refused.
func TestCheckFormatAndIDs(t *testing.T) {
	for _, f := range []string{"", "JSON", "edges", "edgelist", "adjlist", "graphml", "gml", "graph6", "matrix"} {
		if err := CheckFormat(f); err != nil {
			t.Errorf("CheckFormat(%q): %v", f, err)
		}
	}
	if err := CheckFormat("xml"); err == nil {
		t.Error("CheckFormat(xml): no error")
	}
	for s, want := range map[string]EdgeIDs{"zero": ZeroBased, "One": OneBased, " names ": NodeNames} {
		if got, err := ParseEdgeIDs(s); err != nil || got != want {
			t.Errorf("ParseEdgeIDs(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if _, err := ParseEdgeIDs("two"); err == nil {
		t.Error("ParseEdgeIDs(two): no error")
	}
}
