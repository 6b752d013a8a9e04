package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTinyFig4: a tiny run writes the t-SNE picture, the curves, the atoms, the CSV and the
// report; the features are the paper's unless --features says otherwise.
func TestTinyFig4(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	out := t.TempDir()
	o, err := parse([]string{"--datasets", "MUTAG", "--features", "MUTAG=labels", "--subset", "30", "--epochs", "2", "--atoms", "3", "--layers", "5", "--tsne-iter", "50", "--output-dir", out})
	if err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), o, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"mutag-tsne.png", "mutag-loss.png", "mutag-time.png", "mutag-atom1.png", "mutag-atom3.png"} {
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
	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil || !strings.Contains(string(report), `--features "MUTAG=labels"`) || !strings.Contains(string(report), "![mutag-tsne](mutag-tsne.png)") {
		t.Errorf("report (%v):\n%s", err, report)
	}
	o.Epochs = 0
	if err := run(context.Background(), o, io.Discard); err == nil {
		t.Error("0 epochs: no error")
	}
	if def, err := parse(nil); err != nil || def.Features.Of("PROTEINS_full") != "attributes-bal" || def.Features.Of("IMDB-BINARY") != "none" {
		t.Errorf("default features %v (%v)", def.Features, err)
	}
}

// TestFig4OnAGraphFolder: with the CLI's --graphs (or --tu, --dataset) the program draws that
// collection instead of its datasets.
func TestFig4OnAGraphFolder(t *testing.T) {
	out := t.TempDir()
	o, err := parse([]string{"--graphs", filepath.Join("..", "..", "graphs", "testdata", "mixed"), "--epochs", "1", "--atoms", "2", "--layers", "5", "--tsne-iter", "20", "--output-dir", out})
	if err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), o, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "report.md")); err != nil {
		t.Fatal(err)
	}
}
