package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTinyFig3: the notebook at a tiny size writes both figures, the CSV (one row per setting,
// solver and layer) and the report.
func TestTinyFig3(t *testing.T) {
	out := t.TempDir()
	o := options{pairs: 3, nodes: 12, edges: 2, layers: 6, seed: 1, out: out}
	if err := run(context.Background(), o, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"fig3-undirected.png", "fig3-directed.png", "report.md"} {
		if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	csv, err := os.ReadFile(filepath.Join(out, "fig3.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(csv), "\n"); lines != 1+2*2*6 {
		t.Errorf("%d CSV lines, want %d", lines, 1+2*2*6)
	}
	if err := run(context.Background(), options{pairs: 1, nodes: 12, edges: 2, layers: 6, out: out}, io.Discard); err == nil {
		t.Error("one pair: no error")
	}
}
