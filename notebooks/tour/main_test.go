package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTinyTour(t *testing.T) {
	out := t.TempDir()
	if err := run(context.Background(), options{dataset: "MUTAG", subset: 20, epochs: 1, atoms: 3, layers: 5, out: out}, io.Discard); err != nil {
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
