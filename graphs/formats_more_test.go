package graphs

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/matfile"
)

// TestReadMoreFormatsFixtures: networkx's adjacency lists, graph6 files and NumPy adjacency
// matrices (testdata/formats_fixtures.py) read as networkx reads them back.
func TestReadMoreFormatsFixtures(t *testing.T) {
	for ext, read := range map[string]func(path string, directed bool) (*Graph, error){
		".adjlist": func(p string, d bool) (*Graph, error) {
			return ReadFile(p, FileOptions{EdgeList: EdgeListOptions{Directed: d}})
		},
		".g6":  func(p string, _ bool) (*Graph, error) { return ReadFile(p, FileOptions{Format: "graph6"}) },
		".npy": func(p string, _ bool) (*Graph, error) { return ReadFile(p, FileOptions{}) },
	} {
		for _, want := range formatFixtures(t, ext) {
			path := filepath.Join(formatsDir, want.File)
			g, err := read(path, want.Directed)
			if err != nil {
				t.Fatal(err)
			}
			checkFixture(t, g, want, false)
			// A folder reads them by extension too.
			if g2, err := readGraphFile(path, FolderOptions{Directed: want.Directed}, DefaultLimits()); err != nil || g2.N() != g.N() {
				t.Errorf("%s as a folder's file: %v", want.File, err)
			}
		}
	}
}

// TestReadMoreFormatsErrors: bad input gets a clear error.
func TestReadMoreFormatsErrors(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"", "empty"},
		{":Fa@x^", "sparse6"},
		{"&DI?AO?", "digraph6"},
		{"IheA@GUAo\nIheA@GUAo", "more than one line"},
		{"IheA@GU", "characters of edges for 10 nodes"},
		{"I he", "graph6 uses the characters"},
		{"~", "cut short"},
		{"?", "0 nodes"},
		{"~~??~???", "exceed the limit"},
	} {
		_, err := ReadGraph6(strings.NewReader(tc.in), "g.g6", Limits{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("graph6 %q: error %v, want %q", tc.in, err, tc.want)
		}
	}
	dir := t.TempDir()
	for name, m := range map[string]*mat.Dense{
		"wide.npy":     mat.NewDense(2, 3, nil),
		"negative.npy": mat.NewDense(2, 2, []float64{0, -1, -1, 0}),
		"nan.npz":      mat.NewDense(2, 2, []float64{0, math.NaN(), 1, 0}),
	} {
		p := filepath.Join(dir, name)
		f, _ := matfile.FormatOf(p)
		var buf bytes.Buffer
		if err := matfile.Write(&buf, f, m, nil); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadFile(p, FileOptions{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := ReadFile(filepath.Join(formatsDir, "weighted.npy"), FileOptions{Limits: Limits{MaxNodes: 3}}); err == nil {
		t.Error("a 5-node matrix under a limit of 3 nodes: no error")
	}
	if _, err := ReadAdjList(strings.NewReader("a b {'weight': 2}\n"), "g.adjlist", EdgeListOptions{}); err == nil {
		t.Error("an attribute dict in an adjacency list: no error")
	}
	if _, err := ReadAdjList(strings.NewReader("0 1\n"), "g.adjlist", EdgeListOptions{IDs: OneBased}); err == nil {
		t.Error("OneBased ids: no error")
	}
	if _, err := ReadAdjList(strings.NewReader("# nothing\n"), "g.adjlist", EdgeListOptions{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("no nodes: error %v", err)
	}
}
