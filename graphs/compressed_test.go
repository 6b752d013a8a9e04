package graphs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestReadGzipFolder: a folder of gzip-compressed graph files (g.json.gz, as networkx writes
// where the path ends in .gz) reads as the folder of the files themselves, labels.csv naming
// them as before (triangle.json names triangle.json.gz).
func TestReadGzipFolder(t *testing.T) {
	want, err := ReadFolder(mixedDir, FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	entries, err := os.ReadDir(mixedDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(mixedDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		name := e.Name()
		if name != folderLabels {
			name, b = name+".gz", gzipped(string(b))
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadFolder(dir, FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Graphs) != len(want.Graphs) || strings.Join(got.ClassNames, ",") != strings.Join(want.ClassNames, ",") {
		t.Fatalf("%d graphs of classes %v, want %d of %v", len(got.Graphs), got.ClassNames, len(want.Graphs), want.ClassNames)
	}
	for i, g := range got.Graphs {
		w := want.Graphs[i]
		if g.Name != w.Name+".gz" || g.Label != w.Label || !mat.Equal(g.Dense(), w.Dense()) {
			t.Errorf("%s (label %d) differs from %s (label %d)", g.Name, g.Label, w.Name, w.Label)
		}
	}
}

// TestReadFileGzip: every text format reads the same compressed; a graph6 file of several
// graphs is a collection compressed too.
func TestReadFileGzip(t *testing.T) {
	dir := filepath.Join("testdata", "formats")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	for _, e := range entries {
		name := e.Name()
		if format := FileFormat(name); format == "" || format == "matrix" || name == "expected.json" {
			continue
		}
		opt := FileOptions{EdgeList: EdgeListOptions{IDs: NodeNames}} // as a folder reads them
		want, err := ReadFile(filepath.Join(dir, name), opt)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(tmp, name+".gz")
		if err := os.WriteFile(p, gzipped(string(b)), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(p, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !mat.Equal(got.Dense(), want.Dense()) {
			t.Errorf("%s: compressed reads otherwise", name)
		}
	}
	coll := t.TempDir()
	if err := os.WriteFile(filepath.Join(coll, "c.g6.gz"), gzipped("Bw\nCF\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := ReadFolder(coll, FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Graphs) != 2 || ds.Graphs[0].Name != "c.g6.gz#0" || ds.Graphs[0].N() != 3 || ds.Graphs[1].N() != 4 {
		t.Errorf("a compressed graph6 collection: %d graphs, first %q", len(ds.Graphs), ds.Graphs[0].Name)
	}
	// Given alone, the file is a dataset named after it, without its extensions.
	ds, err = ReadFolder(filepath.Join(coll, "c.g6.gz"), FolderOptions{})
	if err != nil || ds.Name != "c" || len(ds.Graphs) != 2 {
		t.Errorf("the collection file alone: %v, %+v", err, ds)
	}
}

// TestReadFileGzipErrors: a .gz file that is not gzip, a truncated one, one that unpacks past
// what the limits allow, and a compressed NumPy file get clear errors.
func TestReadFileGzipErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	full := gzipped("0 1\n1 2\n")
	bomb := gzipped(strings.Repeat("\n", 4<<20) + "0 1\n")
	for _, tc := range []struct {
		name string
		data []byte
		lim  Limits
		want string
	}{
		{"a.edges.gz", []byte("0 1\n"), Limits{}, "a.edges.gz: named .gz but not gzip-compressed"},
		{"b.edges.gz", full[:len(full)-6], Limits{}, "b.edges.gz"},
		{"c.edges.gz", bomb, Limits{MaxNodes: 10}, "c.edges.gz: expands past 2 MB (its gzip trailer says 5 MB), more than --max-nodes allows"},
		{"d.json.gz", gzipped(`{"adjacency": [[0, 1], [1, 0]]}` + strings.Repeat(" ", 2<<20)), Limits{MaxNodes: 10}, "d.json.gz: expands past 2 MB (its gzip trailer says 3 MB), more than --max-nodes allows"},
		{"e.npy.gz", full, Limits{}, "e.npy.gz: unknown graph format"},
	} {
		p := write(tc.name, tc.data)
		_, err := ReadFile(p, FileOptions{Limits: tc.lim})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// The bound counts the content: a file that ends at it reads.
	bound := textBound{bytes: 3, flag: "--max-memory"}
	r := &cappedReader{r: strings.NewReader("abc"), left: 3, bound: bound}
	if b, err := io.ReadAll(r); err != nil || string(b) != "abc" {
		t.Errorf("content at the bound: %q, %v", b, err)
	}
	r = &cappedReader{r: strings.NewReader("abcd"), left: 3, bound: bound}
	var big *decompressedTooLarge
	if _, err := io.ReadAll(r); !errors.As(err, &big) {
		t.Errorf("content past the bound: %v", err)
	}
}

// TestGzipBombsWithinMemory: compressed files that expand past the memory limit's share for
// text are refused, whatever the node limit allows: by the gzip trailer before anything is
// decompressed, and as they are read where the trailer understates the size (a file of two
// members, the trailer the last one's). Before, the bound followed the node limit alone and
// allowed four times the memory limit: --max-memory did not hold.
func TestGzipBombsWithinMemory(t *testing.T) {
	const mib = 1 << 20
	lim := Limits{MaxDenseBytes: 8 * mib} // JSON: 2 MiB and 1 MiB of slack; markup: 1 MiB and 1 MiB
	graph := `{"nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 1}]}`
	huge := `{"graph": {"x": [` + strings.Repeat("0,", 3*mib) + `0]}, ` + graph[1:]
	twoMembers := append(gzipped(graph[:len(graph)-1]+strings.Repeat(" ", 6*mib)), gzipped("}")...)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"a.json.gz", gzipped(huge), "a.json.gz: expands past 4 MB (its gzip trailer says 7 MB), more than --max-memory allows"},
		{"b.json.gz", twoMembers, "b.json.gz: expands past 4 MB, more than --max-memory allows"},
		{"c.graphml.gz", gzipped(strings.Repeat("\x00", 6*mib)), "c.graphml.gz: expands past 3 MB (its gzip trailer says 7 MB), more than --max-memory allows"},
		{"d.gml.gz", append(gzipped("graph [\n"+strings.Repeat(" ", 6*mib)), gzipped("]")...), "d.gml.gz: expands past 3 MB, more than --max-memory allows"},
		{"e.json.gz", gzipped("[" + strings.Repeat(graph+",", 6*mib/len(graph)) + graph + "]"), "e.json.gz: expands past 4 MB (its gzip trailer says 7 MB), more than --max-memory allows"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, tc.name), tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadFolder(dir, FolderOptions{Limits: lim})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// Within the bound, the same graph reads.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "g.json.gz"), gzipped(graph+strings.Repeat(" ", mib)), 0o644); err != nil {
		t.Fatal(err)
	}
	if ds, err := ReadFolder(dir, FolderOptions{Limits: lim}); err != nil || ds.Graphs[0].N() != 2 {
		t.Errorf("a graph within the bound: %v", err)
	}
}

// TestReadJSONHoldsTextOnce: a JSON graph file is read into memory once and decoded in place,
// a compressed one sized by its trailer; a long graph attribute is not copied. Before, the
// folder reader held the text, encoding/json's Decoder a growing copy, and the "graph"
// attributes two more: about five times the file.
func TestReadJSONHoldsTextOnce(t *testing.T) {
	text := `{"graph": {"label": 1, "x": [` + strings.Repeat("0,", 4<<20) + `0]}, "nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 1}]}`
	dir := t.TempDir()
	for name, b := range map[string][]byte{"g.json": []byte(text), "g.json.gz": gzipped(text)} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		g, err := ReadFile(p, FileOptions{})
		runtime.ReadMemStats(&after)
		if err != nil || g.N() != 2 || !g.HasLabel {
			t.Fatalf("%s: %v", name, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(text))*3/2 {
			t.Errorf("%s: reading %d bytes of text allocated %d", name, len(text), alloc)
		}
	}
}
