package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTinyTable1: the program at a tiny size runs both solvers on a MUTAG subset through the
// library, and writes the table and one CSV row per run; a second call reuses every run.
func TestTinyTable1(t *testing.T) {
	out := t.TempDir()
	c := parse([]string{"--datasets", "MUTAG", "--features", "MUTAG=labels", "--runs", "2", "--subset", "30", "--epochs", "1", "--atoms", "3", "--layers", "5", "--output-dir", out})
	var log bytes.Buffer
	if err := run(context.Background(), c, &log); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| gwf PPA, λ |", "| gwf BADMM, z |", "MUTAG (labels, 30 graphs)", "--features MUTAG=labels", "--atoms 3 --layers 5"} {
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
	for _, name := range []string{"report.json", "run1.json", "embeddings-run1.csv"} {
		if _, err := os.Stat(filepath.Join(out, "MUTAG-ppa-labels", name)); err != nil {
			t.Errorf("the cell directory (named by its features) lacks %s: %v", name, err)
		}
	}
	if strings.Contains(log.String(), "reusing") {
		t.Errorf("first call reused runs:\n%s", log.String())
	}
	log.Reset()
	if err := run(context.Background(), c, &log); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(log.String(), "reusing"); n != 2 {
		t.Errorf("rerun reused %d of 2 cells:\n%s", n, log.String())
	}
	again, err := os.ReadFile(filepath.Join(out, "table1.csv"))
	if err != nil || !bytes.Equal(again, csv) {
		t.Errorf("rerun changed table1.csv (%v):\n%s\nvs\n%s", err, again, csv)
	}
	// A cell without its report (killed before the end): its saved runs are reused.
	if err := os.Remove(filepath.Join(out, "MUTAG-ppa-labels", "report.json")); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	if err := run(context.Background(), c, &log); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(log.String(), "reusing"); n != 1+2 {
		t.Errorf("rerun reused %d of 1 cell and 2 runs:\n%s", n, log.String())
	}
}

// TestDefaults: without flags the program runs the paper's protocol.
func TestDefaults(t *testing.T) {
	c := parse(nil)
	if c.Runs != 5 || len(c.Datasets) != 4 || c.Features.Of("AIDS") != "attributes-bal" || c.Keep != "results/table1" {
		t.Errorf("%+v", c)
	}
}
