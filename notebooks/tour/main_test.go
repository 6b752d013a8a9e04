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

func TestTinyTour(t *testing.T) {
	out := t.TempDir()
	data := dataflags.Flags{Dataset: "MUTAG", Features: "none", Subset: 20, SubsetSeed: 1, LimitFlags: dataflags.LimitFlags{MaxNodes: 100, MaxMemory: 1}}
	if err := run(context.Background(), options{data: data, epochs: 1, atoms: 3, layers: 5, out: out}, io.Discard); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## 4. Clusters", "| lambda |", "![trace](trace.png)"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, f := range []string{"trace.png", "loss.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestTourOnAGraphFolder: the notebook takes the CLI's data flags, so it runs on a folder of
// graph files as well.
func TestTourOnAGraphFolder(t *testing.T) {
	data := dataflags.Flags{Graphs: filepath.Join("..", "..", "graphs", "testdata", "mixed"), Features: "none", LimitFlags: dataflags.LimitFlags{MaxNodes: 100, MaxMemory: 1}}
	if err := run(context.Background(), options{data: data, epochs: 1, atoms: 2, layers: 5, out: t.TempDir()}, io.Discard); err != nil {
		t.Fatal(err)
	}
}
