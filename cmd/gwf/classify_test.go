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
	acc, _ := rep["accuracy"].(map[string]any)
	if m, ok := acc["mean"].(float64); !ok || m < 0 || m > 1 {
		t.Errorf("accuracy %v", rep["accuracy"])
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
	model := filepath.Join(t.TempDir(), "ss.model")
	args := []string{"classify", "--dataset", "MUTAG", "--subset", "30", "--labeled-fraction", "0.5", "--atoms", "3", "--layers", "5", "--model", model, "-q", "--json"}
	mustRun(t, append(args, "--epochs", "1")...)
	out, _ = mustRun(t, append(args, "--epochs", "2", "--resume")...)
	if h, _ := decodeJSON(t, out)["history"].([]any); len(h) != 2 {
		t.Errorf("resumed to %d epochs, want 2", len(h))
	}
	for _, args := range [][]string{
		{"--resume"}, {"--model", "m.json"},
		{"--beta", "-1"}, {"--hidden", "8,x"}, {"--labeled-fraction", "1.5"}, {"--folds", "1"},
		{"--activation", "sigmoid"}, {"--head-input", "x"}, {"--output", "x.csv"},
	} {
		if _, _, code := runCLI(t, append([]string{"classify", "--dataset", "MUTAG"}, args...)...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
