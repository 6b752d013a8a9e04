package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
)

func TestClassify(t *testing.T) {
	out, _ := mustRun(t, "semisup", "--method", "gwf", "--dataset", "MUTAG", "--subset", "30", "--folds", "3", "--atoms", "3", "--layers", "5",
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
	// The nested protocol records each fold's choice, both baselines, and (the β = 0 head a
	// candidate by default) the trained model's own held-out accuracy.
	for _, f := range folds {
		fold, _ := f.(map[string]any)
		if fold["choice"] == nil || fold["beta0"] == nil || fold["logreg"] == nil || fold["joint_accuracy"] == nil {
			t.Errorf("fold without choice, baselines or joint accuracy: %v", fold)
		}
	}
	if b, _ := rep["baselines"].(map[string]any); b["folds"] != 3.0 || b["joint"] == nil {
		t.Errorf("baselines summary %v", rep["baselines"])
	}
	if sel, _ := rep["selection"].(map[string]any); sel["unsupervised"] != true {
		t.Errorf("selection %v: the β = 0 head is not a candidate by default", rep["selection"])
	}
	out, _ = mustRun(t, "semisup", "--method", "gwf", "--dataset", "MUTAG", "--subset", "30", "--folds", "3", "--atoms", "3", "--layers", "5",
		"--epochs", "2", "--hidden", "4", "--json", "-q", "--select-unsupervised=false")
	for i, f := range decodeJSON(t, out)["folds"].([]any) {
		fold := f.(map[string]any)
		if fold["joint_accuracy"] != nil || fold["choice"].(map[string]any)["unsupervised"] != nil {
			t.Errorf("--select-unsupervised=false, fold %d: %v", i+1, fold)
		} else if fold["accuracy"] != folds[i].(map[string]any)["joint_accuracy"] {
			t.Errorf("fold %d: accuracy %v without the β = 0 candidate, joint accuracy %v with it", i+1, fold["accuracy"], folds[i].(map[string]any)["joint_accuracy"])
		}
	}
	out, _ = mustRun(t, "semisup", "--method", "gwf", "--dataset", "MUTAG", "--subset", "30", "--folds", "3", "--atoms", "3", "--layers", "5",
		"--epochs", "2", "--hidden", "4", "--select-beta", "0.1,1", "--select-hidden", "4;0", "--head-steps", "20", "-q", "--json")
	if c, _ := decodeJSON(t, out)["selection"].(map[string]any)["candidates"].([]any); len(c) != 4 {
		t.Errorf("%d candidates, want 2 β × 2 head shapes", len(c))
	}
	out, _ = mustRun(t, "semisup", "--method", "gwf", "--dataset", "MUTAG", "--subset", "30", "--folds", "3", "--atoms", "3", "--layers", "5",
		"--epochs", "2", "--hidden", "4", "--head-steps", "20", "-q")
	for _, want := range []string{"nested", "chosen", "semi-supervised beats the β = 0 head", "chose the β = 0 head in"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
	pred := filepath.Join(t.TempDir(), "p.csv")
	mustRun(t, "semisup", "--method", "gwf", "--dataset", "MUTAG", "--subset", "30", "--labeled-fraction", "0.5", "--atoms", "3", "--layers", "5",
		"--epochs", "1", "--predictions", pred, "-q")
	b, err := os.ReadFile(pred)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n != 31 {
		t.Errorf("%d CSV lines, want 31", n)
	}
	model := filepath.Join(t.TempDir(), "ss.model")
	args := []string{"semisup", "--method", "gwf", "--dataset", "MUTAG", "--subset", "30", "--labeled-fraction", "0.5", "--atoms", "3", "--layers", "5", "--output", model, "-q", "--json"}
	// --model is the deprecated name of --output.
	mustRun(t, "semisup", "--method", "gwf", "--dataset", "MUTAG", "--subset", "30", "--labeled-fraction", "0.5", "--atoms", "3", "--layers", "5", "--model", model, "-q", "--epochs", "1")
	out, _ = mustRun(t, append(args, "--epochs", "2", "--resume")...)
	if h, _ := decodeJSON(t, out)["history"].([]any); len(h) != 2 {
		t.Errorf("resumed to %d epochs, want 2", len(h))
	}
	for _, args := range [][]string{
		{"--resume"}, {"--model", "m.json"},
		{"--beta", "-1"}, {"--hidden", "8,x"}, {"--labeled-fraction", "1.5"}, {"--folds", "1"},
		{"--activation", "sigmoid"}, {"--head-input", "x"}, {"--output", "x.model"},
		{"--select-beta", "0.1,x"}, {"--select-hidden", "8;x"}, {"--validation", "1"}, {"--validation", "0", "--refit"}, {"--select-decay", "-1"},
		{"--encoder", "gin", "--no-gwf", "--baselines"}, {"--encoder", "gin", "--encoder-lr", "-1"}, {"--select-encoder-lr", "0.01,0.05"},
		{"--validation", "0", "--select-unsupervised"}, {"--no-gwf", "--select-unsupervised"},
	} {
		if _, _, code := runCLI(t, append([]string{"semisup", "--method", "gwf", "--dataset", "MUTAG"}, args...)...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, cli.ExitUsage)
		}
	}
	// Without the GWF term nothing trains without labels: no baselines unless asked for.
	out, _ = mustRun(t, "semisup", "--method", "gwf", "--dataset", "MUTAG", "--subset", "30", "--folds", "3", "--encoder", "gin", "--no-gwf",
		"--epochs", "2", "--hidden", "4", "--head-steps", "20", "-q", "--json")
	if rep := decodeJSON(t, out); rep["baselines"] != nil || len(rep["folds"].([]any)) != 3 {
		t.Errorf("--no-gwf: %v", rep)
	}
}

// TestClassifyNeedsClasses: unlabelled data, or data of one class, are refused with a message
// that says why, before any training.
func TestClassifyNeedsClasses(t *testing.T) {
	unlabelled := writeFeaturedTU(t, "UNL", 6, 5, []int{1}, 0)
	if err := os.Remove(filepath.Join(unlabelled, "UNL_graph_labels.txt")); err != nil {
		t.Fatal(err)
	}
	one := writeFeaturedTU(t, "ONE", 6, 5, []int{1}, 0)
	writeFile(t, one, "ONE_graph_labels.txt", strings.Repeat("3\n", 6))
	for dir, want := range map[string]string{unlabelled: "has no class labels", one: "at least two classes"} {
		for _, extra := range [][]string{{"--folds", "3"}, {"--labeled-fraction", "1"}} {
			args := append([]string{"semisup", "--method", "gwf", "--tu", dir, "--atoms", "2", "--layers", "2", "--epochs", "1"}, extra...)
			if _, stderr, code := runCLI(t, args...); code != cli.ExitError || !strings.Contains(stderr, want) {
				t.Errorf("%v: exit %d, %q (want %q)", args, code, stderr, want)
			}
		}
	}
}

// TestClassifyOutputDir: --output-dir keeps the folds and the report; a rerun after a lost
// fold reuses the others and gives the same report.
func TestClassifyOutputDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cv")
	args := []string{"semisup", "--method", "gwf", "--dataset", "MUTAG", "--subset", "30", "--folds", "3", "--atoms", "3", "--layers", "5",
		"--epochs", "2", "--hidden", "4", "--head-steps", "20", "--json", "--output-dir", dir}
	first, _ := mustRun(t, append(args, "-q")...)
	report, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil || string(report) != first {
		t.Fatalf("report.json (%v) is not the printed report:\n%s\nprinted:\n%s", err, report, first)
	}
	if err := os.Remove(filepath.Join(dir, "fold2.json")); err != nil {
		t.Fatal(err)
	}
	again, stderr := mustRun(t, args...)
	for _, want := range []string{"fold 1: reusing", "fold 3: reusing"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("log lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "fold 2: reusing") {
		t.Errorf("fold 2 reused although its file was removed:\n%s", stderr)
	}
	a, b := decodeJSON(t, first)["folds"].([]any), decodeJSON(t, again)["folds"].([]any)
	for i := range a {
		fa, fb := a[i].(map[string]any), b[i].(map[string]any)
		if fa["accuracy"] != fb["accuracy"] || fmt.Sprint(fa["predictions"]) != fmt.Sprint(fb["predictions"]) || fmt.Sprint(fa["beta0"]) != fmt.Sprint(fb["beta0"]) {
			t.Errorf("fold %d rerun: %v\nwant %v", i+1, fb, fa)
		}
	}
	if _, _, code := runCLI(t, "semisup", "--method", "gwf", "--dataset", "MUTAG", "--labeled-fraction", "0.5", "--output-dir", dir); code != cli.ExitUsage {
		t.Errorf("--output-dir with --labeled-fraction: exit %d, want %d", code, cli.ExitUsage)
	}
}

// TestClassifyShards: two shards sharing an --output-dir run the folds between them; a last
// run without --shard reuses every fold and reports what one unsharded run reports.
func TestClassifyShards(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cv")
	args := []string{"semisup", "--method", "gwf", "--dataset", "MUTAG", "--subset", "30", "--folds", "3", "--atoms", "3", "--layers", "5",
		"--epochs", "2", "--hidden", "4", "--head-steps", "20", "--json", "--output-dir", dir}
	one, _ := mustRun(t, append(slices.Clone(args[:len(args)-2]), "-q")...)
	shard0, _ := mustRun(t, append(args, "--shard", "0/2", "-q")...)
	shard1, _ := mustRun(t, append(args, "--shard", "1/2", "-q")...)
	for out, want := range map[string][]any{shard0: {1.0, 3.0}, shard1: {2.0}} {
		var got []any
		for _, f := range decodeJSON(t, out)["folds"].([]any) {
			got = append(got, f.(map[string]any)["fold"])
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("shard ran folds %v, want %v", got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "report.json")); err == nil {
		t.Error("a shard wrote report.json")
	}
	all, stderr := mustRun(t, args...)
	if n := strings.Count(stderr, "reusing"); n != 3 {
		t.Errorf("the run after the shards reused %d folds, want 3:\n%s", n, stderr)
	}
	a, b := decodeJSON(t, one), decodeJSON(t, all)
	if fmt.Sprint(a["accuracy"]) != fmt.Sprint(b["accuracy"]) || fmt.Sprint(a["baselines"]) != fmt.Sprint(b["baselines"]) {
		t.Errorf("sharded then joined: %v, %v; one run: %v, %v", b["accuracy"], b["baselines"], a["accuracy"], a["baselines"])
	}
	for _, bad := range [][]string{{"--shard", "0/2"}, {"--shard", "2/2", "--output-dir", dir}, {"--shard", "0/4", "--folds", "3", "--output-dir", dir},
		{"--shard", "0/2", "--output-dir", dir, "--labeled-fraction", "0.5"}} {
		if _, _, code := runCLI(t, append([]string{"semisup", "--method", "gwf", "--dataset", "MUTAG"}, bad...)...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d", bad, code, cli.ExitUsage)
		}
	}
}
