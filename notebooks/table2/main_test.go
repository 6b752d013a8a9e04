package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/notebooks/internal/nb"
	"github.com/gwf-graphs/gwf/semisup"
)

// TestTinyTable2: a tiny run writes the cross-validation table, the fraction study and its plot.
func TestTinyTable2(t *testing.T) {
	if testing.Short() {
		t.Skip("trains several models")
	}
	out := t.TempDir()
	o := options{datasets: []string{"MUTAG"}, solvers: []string{"ppa"}, features: nb.Features{"MUTAG": "labels"}, folds: 3, subset: 30, epochs: 1, atoms: 3, layers: 5,
		beta: 0.1, fractionsData: "MUTAG", fractions: []float64{0.2, 0.6}, seeds: 2, out: out}
	if err := run(context.Background(), o, io.Discard); err != nil {
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
	o.fractionsData = ""
	if err := run(ctx, o, io.Discard); err != nil {
		t.Errorf("rerun did not reuse the folds: %v", err)
	}
	if err := run(context.Background(), options{folds: 3, epochs: 1, atoms: 3, layers: 5, seeds: 1, fractions: []float64{1.5}, out: out}, io.Discard); err == nil {
		t.Error("fraction 1.5: no error")
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
	o := options{datasets: []string{"MUTAG"}, solvers: []string{"ppa"}, features: nb.Features{}, folds: 3, subset: 30, epochs: 2, atoms: 3, layers: 5,
		beta: 0.1, seeds: 1, out: out, nested: true, validation: 0.2, unsup: true, cvSeeds: 2, variants: []string{"none", "gin", "gin-alone"}}
	if err := run(context.Background(), o, io.Discard); err != nil {
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
	if err := run(ctx, o, io.Discard); err != nil {
		t.Errorf("rerun did not reuse the folds: %v", err)
	}
	o.variants = []string{"gat"}
	if err := run(context.Background(), o, io.Discard); err == nil {
		t.Error("--encoders gat: no error")
	}
}

// TestVariantDetach: each embedding detaches as semisup.DefaultDetach says (free z yes, an
// encoder no), unless --detach is given.
func TestVariantDetach(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		variant string
		detach  *bool
		want    bool
	}{
		{"none", nil, true}, {"gin", nil, false}, {"gcn-alone", nil, false},
		{"none", &no, false}, {"gin", &yes, true},
	} {
		sc, err := withVariant(semisup.DefaultConfig(), tc.variant, tc.detach)
		if err != nil || sc.Detach != tc.want {
			t.Errorf("%s (detach %v): %v, %v; want %v", tc.variant, tc.detach, sc.Detach, err, tc.want)
		}
	}
}
