package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTinyTable2: a tiny run of the fixed protocol writes the cross-validation table, the
// fraction study and its plot, and reuses its finished folds.
func TestTinyTable2(t *testing.T) {
	if testing.Short() {
		t.Skip("trains several models")
	}
	out := t.TempDir()
	c, err := parse([]string{"--datasets", "MUTAG", "--solvers", "ppa", "--features", "MUTAG=labels", "--folds", "3", "--subset", "30", "--epochs", "1", "--atoms", "3", "--layers", "5",
		"--nested=false", "--fractions", "0.2,0.6", "--seeds", "2", "--output-dir", out})
	if err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), c, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"report.md", "table2.csv", "fractions.csv", "fractions.png"} {
		if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(out, "fractions.csv"))
	if n := strings.Count(string(b), "\n"); n != 1+2*2 {
		t.Errorf("%d fraction rows, want 5", n)
	}
	b, _ = os.ReadFile(filepath.Join(out, "table2.csv"))
	if n := strings.Count(string(b), "\n"); n != 1+3 {
		t.Errorf("%d fold rows, want 4", n)
	}
	// The finished folds are kept and reused: a rerun with the same settings trains nothing
	// (a cancelled context would stop any training at once).
	if _, err := os.Stat(filepath.Join(out, "cells", "MUTAG-ppa-labels", "fold1.json")); err != nil {
		t.Fatalf("no cell file: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c.FractionsDataset = ""
	if err := run(ctx, c, io.Discard); err != nil {
		t.Errorf("rerun did not reuse the folds: %v", err)
	}
	c.Fractions, c.FractionsDataset = []float64{1.5}, "MUTAG"
	if err := run(context.Background(), c, io.Discard); err == nil || !strings.Contains(err.Error(), "1.5") {
		t.Errorf("fraction 1.5: %v", err)
	}
}

// TestTinyNested: the nested protocol over two repeats and three embeddings (free z, a GIN
// encoder with and without the GWF term) writes every fold with its choice and its baselines,
// and reuses its finished folds.
func TestTinyNested(t *testing.T) {
	if testing.Short() {
		t.Skip("trains several models")
	}
	out := t.TempDir()
	c, err := parse([]string{"--datasets", "MUTAG", "--solvers", "ppa", "--features", "", "--folds", "3", "--subset", "30", "--epochs", "2", "--atoms", "3", "--layers", "5",
		"--validation", "0.2", "--cv-seeds", "2", "--encoders", "none,gin,gin-alone", "--fractions-dataset", "", "--output-dir", out})
	if err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), c, io.Discard); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(out, "table2.csv"))
	if n := strings.Count(string(b), "\n"); n != 1+3*2*3 {
		t.Errorf("%d fold rows, want 19:\n%s", n, b)
	}
	report, _ := os.ReadFile(filepath.Join(out, "report.md"))
	for _, want := range []string{"β = 0", "logistic regression", "beats", "free z", "GIN encoder + GWF term", "GIN encoder alone", "the trained model alone"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, cell := range []string{"MUTAG-ppa-nested-seed1", "MUTAG-ppa-nested-seed2", "MUTAG-ppa-gin-nested-seed1", "MUTAG-ppa-gin-nested-seed2"} {
		if _, err := os.Stat(filepath.Join(out, "cells", cell, "fold3.json")); err != nil {
			t.Errorf("no cell file: %v", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := run(ctx, c, io.Discard); err != nil {
		t.Errorf("rerun did not reuse the folds: %v", err)
	}
	c.Variants = []string{"gat"}
	if err := run(context.Background(), c, io.Discard); err == nil {
		t.Error("--encoders gat: no error")
	}
}

// TestFlags: the defaults are the paper's nested protocol; --detach counts only when given;
// a bad fraction is the user's error.
func TestFlags(t *testing.T) {
	c, err := parse(nil)
	if err != nil || !c.Nested || c.Folds != 10 || c.DetachGiven || c.Features.Of("PROTEINS") != "attributes-bal" || len(c.Fractions) != 5 {
		t.Errorf("defaults %+v (%v)", c, err)
	}
	if c, err := parse([]string{"--detach=false"}); err != nil || !c.DetachGiven || c.Head.Detach {
		t.Errorf("--detach=false: %+v (%v)", c.Head, err)
	}
	if _, err := parse([]string{"--fractions", "0.2,x"}); err == nil {
		t.Error("--fractions 0.2,x: no error")
	}
}
