package main

import (
	"path/filepath"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
)

// TestGWMoreFormats: gwf gw reads graph6, adjacency lists and NumPy adjacency matrices by
// their extensions, and --input-format names them.
func TestGWMoreFormats(t *testing.T) {
	dir := filepath.Join("..", "..", "graphs", "testdata", "formats")
	out, _ := mustRun(t, "gw", filepath.Join(dir, "petersen.g6"), filepath.Join(dir, "petersen.g6"), "--solver", "cg", "--json", "-q")
	if rep := decodeJSON(t, out); rep["objective"] != 0.0 {
		t.Fatalf("the Petersen graph against itself: objective %v", rep["objective"])
	}
	out, _ = mustRun(t, "gw", filepath.Join(dir, "unweighted.adjlist"), filepath.Join(dir, "unweighted.npy"), "--solver", "cg", "--json", "-q")
	if rep := decodeJSON(t, out); rep["objective"] != 0.0 {
		t.Fatalf("a path with an isolated node, as an adjacency list and as a matrix: objective %v", rep["objective"])
	}
	if _, _, code := runCLI(t, "gw", filepath.Join(dir, "petersen.g6"), filepath.Join(dir, "petersen.g6"), "--input-format", "g7"); code != cli.ExitUsage {
		t.Fatalf("--input-format g7: exit %d", code)
	}
}
