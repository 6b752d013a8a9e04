package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs/collection/dataflags"
)

// TestTinyFig4: a tiny run writes the t-SNE picture, the curves, the atoms, the CSV and the report.
func TestTinyFig4(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	out := t.TempDir()
	o := options{datasets: []string{"MUTAG"}, subset: 30, epochs: 2, atoms: 3, layers: 5, seed: 1, tsneIter: 50, out: out}
	if err := run(context.Background(), o, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"mutag-tsne.png", "mutag-loss.png", "mutag-time.png", "mutag-atom1.png", "mutag-atom3.png", "report.md"} {
		if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	csv, err := os.ReadFile(filepath.Join(out, "training.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(csv), "\n"); n != 1+2 {
		t.Errorf("%d CSV lines, want 3", n)
	}
	if err := run(context.Background(), options{datasets: []string{"MUTAG"}, epochs: 0, out: out}, io.Discard); err == nil {
		t.Error("0 epochs: no error")
	}
}

// TestFig4OnAGraphFolder: with the CLI's --graphs (or --tu, --dataset) the notebook draws that
// collection instead of its datasets.
func TestFig4OnAGraphFolder(t *testing.T) {
	out := t.TempDir()
	o := options{datasets: []string{""}, epochs: 1, atoms: 2, layers: 5, seed: 1, tsneIter: 20, out: out}
	o.collection = dataflags.Flags{Graphs: filepath.Join("..", "..", "graphs", "testdata", "mixed"), Features: "none", LimitFlags: dataflags.LimitFlags{MaxNodes: 100, MaxMemory: 1}}
	if err := run(context.Background(), o, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "report.md")); err != nil {
		t.Fatal(err)
	}
}
