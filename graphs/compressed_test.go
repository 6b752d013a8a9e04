package graphs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
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
		{"c.edges.gz", bomb, Limits{MaxNodes: 10}, errDecompressedTooLarge.Error()},
		{"d.json.gz", gzipped(`{"adjacency": [[0, 1], [1, 0]]}` + strings.Repeat(" ", 2<<20)), Limits{MaxNodes: 10}, "d.json.gz: " + errDecompressedTooLarge.Error()},
		{"e.npy.gz", full, Limits{}, "e.npy.gz: unknown graph format"},
	} {
		p := write(tc.name, tc.data)
		_, err := ReadFile(p, FileOptions{Limits: tc.lim})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// The bound counts the content: a file that ends at it reads.
	r := &cappedReader{r: strings.NewReader("abc"), left: 3, max: 3}
	if b, err := io.ReadAll(r); err != nil || string(b) != "abc" {
		t.Errorf("content at the bound: %q, %v", b, err)
	}
	r = &cappedReader{r: strings.NewReader("abcd"), left: 3, max: 3}
	if _, err := io.ReadAll(r); !errors.Is(err, errDecompressedTooLarge) {
		t.Errorf("content past the bound: %v", err)
	}
}
