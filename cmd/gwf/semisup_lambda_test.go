package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
)

// TestSemisupLambdaSVM: --method lambda-svm cross-validates an SVM on the λ of the GWF model
// trained without labels, the epoch chosen among --svm-epochs; --output-dir keeps that model
// for a rerun; --labeled-fraction with --labels-alone scores the same model fitted on the
// labelled graphs alone beside it; the other methods' flags are refused.
func TestSemisupLambdaSVM(t *testing.T) {
	train := writeBlocksTU(t, "TRAIN", 24, 1)
	small := []string{"--method", "lambda-svm", "--epochs", "3", "--atoms", "4", "-q", "--json"}

	dir := filepath.Join(t.TempDir(), "run")
	heldOut := filepath.Join(t.TempDir(), "cv.csv")
	out, _ := mustRun(t, append([]string{"semisup", "--tu", train, "--folds", "3", "--svm-epochs", "2,3", "--output-dir", dir, "--predictions", heldOut}, small...)...)
	rep := decodeJSON(t, out)
	folds, _ := rep["folds"].([]any)
	acc, _ := rep["accuracy"].(map[string]any)
	if rep["method"] != "lambda-svm" || len(folds) != 3 {
		t.Fatalf("report: %v", rep)
	}
	for _, f := range folds {
		if e := f.(map[string]any)["epoch"]; e != 2.0 && e != 3.0 {
			t.Errorf("fold chose epoch %v, not one of --svm-epochs 2,3", e)
		}
	}
	if m, _ := acc["mean"].(float64); m < 0.7 {
		t.Errorf("cross-validated accuracy %v on two block structures, want ≥ 0.7", m)
	}
	b, err := os.ReadFile(heldOut)
	if err != nil {
		t.Fatal(err)
	}
	if rows := strings.Split(strings.TrimSpace(string(b)), "\n"); len(rows) != 25 || rows[0] != "graph,label,predicted,fold" {
		t.Errorf("held-out predictions: %d rows, header %q", len(rows), rows[0])
	}
	again, stderr := mustRun(t, append(append([]string{"semisup", "--tu", train, "--folds", "3", "--svm-epochs", "2,3", "--output-dir", dir}, small...), "-q=false")...)
	if a := decodeJSON(t, again)["accuracy"].(map[string]any); a["mean"] != acc["mean"] {
		t.Errorf("rerun: accuracy %v, first run %v", a["mean"], acc["mean"])
	}
	if !strings.Contains(stderr, "reusing the model trained without labels") {
		t.Errorf("the rerun trained the model again:\n%s", stderr)
	}

	// Reports of two fold seeds pool into one mean ± std over their folds.
	second := filepath.Join(t.TempDir(), "seed2.json")
	first := filepath.Join(t.TempDir(), "seed1.json")
	if err := os.WriteFile(first, []byte(again), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ = mustRun(t, append([]string{"semisup", "--tu", train, "--folds", "3", "--svm-epochs", "2,3", "--fold-seed", "2"}, small...)...)
	if err := os.WriteFile(second, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	pooled := decodeJSON(t, mustRunOut(t, "pool", "--json", first, second))["pooled"].(map[string]any)
	if pooled["folds"] != 6.0 {
		t.Errorf("pooled %v, want 6 folds", pooled)
	}

	out, _ = mustRun(t, append([]string{"semisup", "--tu", train, "--labeled-fraction", "0.5", "--labels-alone"}, small...)...)
	rep = decodeJSON(t, out)
	alone, _ := rep["labels_alone"].(map[string]any)
	if rep["labeled"] != 12.0 || alone == nil || alone["test"] != 12.0 {
		t.Fatalf("fraction report: labelled %v, labels alone %v", rep["labeled"], alone)
	}
	// Weisfeiler-Lehman labels of the one-hot degrees: the model reads them, the report says so.
	out, _ = mustRun(t, append([]string{"semisup", "--tu", train, "--labeled-fraction", "0.5", "--features", "degrees", "--wl-labels", "2"}, small...)...)
	rep = decodeJSON(t, out)
	if spec, _ := rep["svm"].(map[string]any); spec["wl_labels"] != 2.0 || rep["features"] != "--features degrees --wl-labels 2" {
		t.Errorf("--wl-labels 2: svm %v, features %v", rep["svm"], rep["features"])
	}
	text, _ := mustRun(t, "semisup", "--tu", train, "--method", "lambda-svm", "--epochs", "3", "--atoms", "4", "-q", "--labeled-fraction", "0.5", "--labels-alone", "--inner-repeats", "2")
	if !strings.Contains(text, "the same model fitted on the labelled graphs alone") || !strings.Contains(text, "repeated over 2 fold assignments") {
		t.Errorf("text report:\n%s", text)
	}

	for _, bad := range [][]string{
		{"--method", "lambda-svm", "--beta", "0.5"}, {"--method", "lambda-svm", "--hidden", "8"}, {"--method", "lambda-svm", "--templates", "3"},
		{"--method", "lambda-svm", "--labeled-fraction", "1"}, {"--method", "lambda-svm", "--epochs", "3", "--svm-epochs", "4"},
		{"--method", "lambda-svm", "--svm-epochs", "0"}, {"--method", "lambda-svm", "--labels-alone"},
		{"--svm-epochs", "2"}, {"--method", "gwf", "--labels-alone"},
		{"--method", "lambda-svm", "--inner-repeats", "0"}, {"--method", "lambda-svm", "--inner-repeats", "1000"}, {"--inner-repeats", "3"},
		{"--method", "gwf", "--wl-labels", "2"}, {"--method", "lambda-svm", "--features", "degrees", "--wl-labels", "11"},
		{"--method", "lambda-svm", "--wl-labels", "2"}, // the structure alone: no categorical features to label
	} {
		if _, stderr, code := runCLI(t, append([]string{"semisup", "--tu", train}, bad...)...); code != cli.ExitUsage {
			t.Errorf("semisup %v: exit %d, want %d\n%s", bad, code, cli.ExitUsage, stderr)
		}
	}
	// The command's own bounds, not the library's "0: the default", which the flag refuses.
	if _, stderr, _ := runCLI(t, "semisup", "--tu", train, "--method", "lambda-svm", "--inner-repeats", "1000"); !strings.Contains(stderr, "want 1 to 100") {
		t.Errorf("--inner-repeats 1000: %q, want the bounds 1 to 100", stderr)
	}
}
