package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/notebooks/internal/nb"
)

// TestTinyTable1: the notebook at a tiny size builds gwf, runs both solvers on a MUTAG subset,
// and writes the table and one CSV row per run; a second call reuses the cells.
func TestTinyTable1(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gwf")
	}
	out := t.TempDir()
	o := options{datasets: []string{"MUTAG"}, solvers: []string{"ppa", "badmm"}, features: nb.Features{"MUTAG": "labels"}, runs: 2, subset: 30, epochs: 1,
		extra: []string{"--atoms", "3", "--layers", "5", "-q"}, out: out}
	if err := run(context.Background(), o, io.Discard); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| gwf PPA, λ |", "| gwf BADMM, z |", "MUTAG (labels)", "--features MUTAG=labels"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	csv, err := os.ReadFile(filepath.Join(out, "table1.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(csv), "\n"); n != 1+2*2 {
		t.Errorf("%d CSV lines, want 5:\n%s", n, csv)
	}
	if _, err := os.Stat(filepath.Join(out, "MUTAG-ppa-labels", "report.json")); err != nil {
		t.Errorf("the cell directory does not name its features: %v", err)
	}
	o.gwf = "/nonexistent/gwf" // the cells exist: nothing is run
	if err := run(context.Background(), o, io.Discard); err != nil {
		t.Errorf("rerun did not reuse the cells: %v", err)
	}
}
