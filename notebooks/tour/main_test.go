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
	o, err := parse([]string{"--subset", "20", "--epochs", "1", "--atoms", "3", "--layers", "5", "--output-dir", out})
	if err != nil {
		t.Fatal(err)
	}
	if o.Data.Dataset != "MUTAG" || o.Data.Subset != 20 || o.Epochs != 1 {
		t.Fatalf("parsed %+v", o.TourConfig)
	}
	if err := run(context.Background(), o, io.Discard); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## 4. Clusters", "| lambda |", "![trace](trace.png)", "--dataset MUTAG --subset 20"} {
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

// TestTourOnAGraphFolder: the program takes the CLI's data flags, so it runs on a folder of
// graph files as well; a bad data flag is the user's error.
func TestTourOnAGraphFolder(t *testing.T) {
	o, err := parse([]string{"--graphs", filepath.Join("..", "..", "graphs", "testdata", "mixed"), "--epochs", "1", "--atoms", "2", "--layers", "5", "--output-dir", t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), o, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := parse([]string{"--dataset", "NOSUCH"}); err == nil {
		t.Error("--dataset NOSUCH: no error")
	}
}
