package main

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
)

// gwf plot draws each picture of a trained model as a PNG, for its training data and for
// other graphs (transform mode), and refuses incomplete command lines.
func TestPlot(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	mustRun(t, fitArgs(model, "--subset", "30", "--epochs", "2")...)
	for name, args := range map[string][]string{
		"tsne.png":        {"tsne", "--dataset", "MUTAG", "--subset", "30", "--tsne-iter", "30"},
		"tsne-other.png":  {"tsne", "--dataset", "MUTAG", "--subset", "20", "--subset-seed", "7", "--steps", "1", "--embedding", "z", "--tsne-iter", "30"},
		"tsne-folder.png": {"tsne", "--graphs", mixedGraphs, "--steps", "1", "--tsne-iter", "30"},
		"atoms.png":       {"atoms", "--top", "2"},
		"atoms-data.png":  {"atoms", "--dataset", "MUTAG", "--subset", "30"},
		"loss.png":        {"loss"},
	} {
		out := filepath.Join(dir, name)
		mustRun(t, append(append([]string{"plot"}, args...), "--model", model, "--output", out, "-q")...)
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
			t.Errorf("%s: %v", name, b)
		}
	}
	for _, args := range [][]string{
		{"plot", "tsne", "--model", model, "--output", filepath.Join(dir, "x.png")},                // no data
		{"plot", "loss", "--model", model},                                                         // no output
		{"plot", "atoms", "--model", model, "--output", filepath.Join(dir, "x.png"), "--top", "0"}, // no atoms
		{"plot", "tnse", "--model", model},                                                         // a typo
	} {
		if _, _, code := runCLI(t, args...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, cli.ExitUsage)
		}
	}
}
