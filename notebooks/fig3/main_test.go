package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/notebooks/nbkit"
)

// TestFlags: the flags set the sizes; the defaults are the paper's.
func TestFlags(t *testing.T) {
	c, out := parse([]string{"--pairs", "4", "--nodes=20", "--out", "/tmp/x"})
	want := nbkit.Fig3Paper()
	want.Pairs, want.Nodes = 4, 20
	if c != want || out != "/tmp/x" {
		t.Errorf("%+v, %q; want %+v, /tmp/x", c, out, want)
	}
}

// TestTinyFig3: the program at a tiny size writes both figures, the CSV (one row per setting,
// solver and layer) and the report with the command that reproduces it.
func TestTinyFig3(t *testing.T) {
	out := t.TempDir()
	c := nbkit.Fig3Config{Pairs: 3, Nodes: 12, Edges: 2, Layers: 6, Seed: 1}
	if err := run(context.Background(), c, out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"fig3-undirected.png", "fig3-directed.png"} {
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
	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--pairs 3 --nodes 12 --edges 2 --layers 6", "![fig3-directed](fig3-directed.png)", "| PPA |"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	c.Pairs = 1
	if err := run(context.Background(), c, t.TempDir(), io.Discard); err == nil {
		t.Error("one pair: no error")
	}
}
