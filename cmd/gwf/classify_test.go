package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	out, _ := mustRun(t, "classify", "--dataset", "MUTAG", "--subset", "30", "--folds", "3", "--atoms", "3", "--layers", "5",
		"--epochs", "2", "--hidden", "4", "--json", "-q")
	rep := decodeJSON(t, out)
	folds, _ := rep["folds"].([]any)
	if len(folds) != 3 || rep["graphs"] != 30.0 {
		t.Fatalf("report: %v", rep)
	}
	acc := rep["accuracy"].(map[string]any)
	if m, _ := acc["Mean"].(float64); m < 0 || m > 1 {
		t.Errorf("accuracy %v", acc)
	}
	pred := filepath.Join(t.TempDir(), "p.csv")
	mustRun(t, "classify", "--dataset", "MUTAG", "--subset", "30", "--labeled-fraction", "0.5", "--atoms", "3", "--layers", "5",
		"--epochs", "1", "--output", pred, "-q")
	b, err := os.ReadFile(pred)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n != 31 {
		t.Errorf("%d CSV lines, want 31", n)
	}
	for _, args := range [][]string{
		{"--beta", "-1"}, {"--hidden", "8,x"}, {"--labeled-fraction", "1.5"}, {"--folds", "1"},
		{"--activation", "sigmoid"}, {"--output", "x.csv"},
	} {
		if _, _, code := runCLI(t, append([]string{"classify", "--dataset", "MUTAG"}, args...)...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
