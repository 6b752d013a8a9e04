package main

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/training/experiment"
)

func TestClusterJSON(t *testing.T) {
	outDir := filepath.Join(t.TempDir(), "results")
	out, _ := mustRun(t, "cluster", "--dataset", "MUTAG", "--subset", "40", "--atoms", "3", "--layers", "5",
		"--epochs", "2", "--runs", "2", "--json", "--quiet", "--output-dir", outDir)
	rep := decodeJSON(t, out)
	for _, key := range []string{"gwf_version", "dataset", "embedding", "runs", "accuracy", "nmi", "ari", "seconds", "epochs", "loss"} {
		if _, ok := rep[key]; !ok {
			t.Errorf("report lacks %q", key)
		}
	}
	if rep["dataset"] != "MUTAG" || rep["embedding"] != string(experiment.DefaultEmbedding) || rep["epochs"] != 2.0 || rep["graphs"] != 40.0 {
		t.Errorf("report header: dataset %v, embedding %v, epochs %v, graphs %v", rep["dataset"], rep["embedding"], rep["epochs"], rep["graphs"])
	}
	if loss, _ := rep["loss"].([]any); len(loss) != 2 {
		t.Errorf("loss of the first run: %v, want 2 epochs", rep["loss"])
	}
	runs, _ := rep["runs"].([]any)
	if len(runs) != 2 {
		t.Fatalf("%d runs, want 2", len(runs))
	}
	for i, r := range runs {
		run := r.(map[string]any)
		if run["seed"] != float64(1+i) {
			t.Errorf("run %d: seed %v, want %d", i, run["seed"], 1+i)
		}
		for _, key := range []string{"accuracy", "nmi", "ari", "rand_index", "accuracy_z", "accuracy_lambda", "seconds"} {
			v, ok := run[key].(float64)
			if !ok || math.IsNaN(v) || v < -1 || (key != "seconds" && v > 1) {
				t.Errorf("run %d: %s = %v", i, key, run[key])
			}
		}
		if run["accuracy"] != run["accuracy_lambda"] {
			t.Errorf("run %d: accuracy %v is not that of lambda, %v", i, run["accuracy"], run["accuracy_lambda"])
		}
		if acc := run["accuracy"].(float64); acc < 0.5 {
			t.Errorf("run %d: accuracy %v below 0.5 with 2 classes (the best matching)", i, acc)
		}
	}
	for _, key := range []string{"accuracy", "nmi", "ari", "seconds"} {
		ms, ok := rep[key].(map[string]any)
		if !ok || ms["mean"] == nil || ms["std"] == nil {
			t.Errorf("%s = %v, want {mean, std}", key, rep[key])
		}
	}
	// --output-dir: the embeddings of each run with their clusters, and the report.
	for _, name := range []string{"embeddings-run0.csv", "embeddings-run1.csv", "report.json"} {
		if _, err := os.Stat(filepath.Join(outDir, name)); err != nil {
			t.Error(err)
		}
	}
	f, err := os.Open(filepath.Join(outDir, "embeddings-run1.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 41 || strings.Join(recs[0], ",") != "graph,label,cluster,lambda0,lambda1,lambda2" {
		t.Errorf("embeddings CSV: %d records, header %v", len(recs), recs[0])
	}
}

func TestClusterTable(t *testing.T) {
	out, _ := mustRun(t, "cluster", "--dataset", "MUTAG", "--subset", "24", "--atoms", "2", "--layers", "3",
		"--epochs", "1", "--embedding", "lambda", "--quiet")
	for _, want := range []string{"clustering lambda", "mean ± std over 1 run(s)", "accuracy (z)", "accuracy (λ)"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestClusterInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, stderr, code := runCLIContext(t, ctx, "cluster", "--dataset", "MUTAG", "--subset", "20", "--atoms", "2", "--layers", "3", "--epochs", "1", "-q")
	if code != cli.ExitInterrupted || !strings.Contains(stderr, "interrupted") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// embed --clusters clusters a trained model's graphs without training: the scores equal those
// of the one-run experiment with the same settings, and --output writes the clusters with the
// dataset's own labels. 'gwf cluster --model', where this once was, says where it went.
func TestEmbedClusters(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	mustRun(t, "fit", "--dataset", "MUTAG", "--subset", "30", "--atoms", "3", "--layers", "5", "--epochs", "2", "--output", model, "-q")
	refit := decodeJSON(t, mustRunOut(t, "cluster", "--dataset", "MUTAG", "--subset", "30", "--atoms", "3", "--layers", "5", "--epochs", "2", "--json", "-q"))
	csvPath, reportPath := filepath.Join(dir, "clusters.csv"), filepath.Join(dir, "scores.json")
	mustRun(t, "embed", "--model", model, "--dataset", "MUTAG", "--subset", "30", "--clusters", "2", "--output", csvPath, "--report", reportPath, "-q")
	b, err := os.ReadFile(reportPath)
	if err != nil {
		t.Fatal(err)
	}
	rep := decodeJSON(t, string(b))
	if rep["accuracy"].(map[string]any)["mean"] != refit["accuracy"].(map[string]any)["mean"] {
		t.Errorf("embed --clusters accuracy %v, the refit's %v", rep["accuracy"], refit["accuracy"])
	}
	if b, err = os.ReadFile(csvPath); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 31 || strings.Join(recs[0], ",") != "graph,label,cluster,lambda0,lambda1,lambda2" {
		t.Fatalf("CSV: %d records, header %v", len(recs), recs[0])
	}
	for _, r := range recs[1:] {
		if r[1] != "-1" && r[1] != "1" {
			t.Errorf("label %q is not one of MUTAG's own (-1, 1)", r[1])
		}
		if r[2] != "0" && r[2] != "1" {
			t.Errorf("cluster %q is not one of 2", r[2])
		}
	}
	// --clusters 0 is the number of classes, as in 'gwf cluster'.
	mustRun(t, "embed", "--model", model, "--dataset", "MUTAG", "--subset", "30", "--clusters", "0", "--output", csvPath, "--report", reportPath, "-q")
	if b, err = os.ReadFile(reportPath); err != nil {
		t.Fatal(err)
	}
	if classes := decodeJSON(t, string(b)); classes["clusters"] != 2.0 {
		t.Errorf("embed --clusters 0: %v clusters, want MUTAG's 2 classes", classes["clusters"])
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"cluster", "--model", model, "--dataset", "MUTAG"}, "gwf embed --model"},
		{[]string{"embed", "--model", model, "--dataset", "MUTAG", "--report", reportPath}, "give --clusters"},
		{[]string{"embed", "--model", model, "--dataset", "MUTAG", "--clusters", "2", "--shard", "0/2", "--output", csvPath}, "every embedding at once"},
		{[]string{"embed", "--model", model, "--dataset", "MUTAG", "--subset", "5", "--clusters", "6"}, "more than the 5 graphs"},
		{[]string{"embed", "--model", model, "--dataset", "MUTAG", "--clusters", "2", "--report", "-"}, "both go to stdout"},
		{[]string{"embed", "--model", model, "--dataset", "MUTAG", "--clusters", "2", "--output", filepath.Join(dir, "e.npy")}, "holds the embeddings alone"},
		{[]string{"cluster", "--dataset", "MUTAG", "--steps", "3"}, "unknown flag"},
	} {
		if _, stderr, code := runCLI(t, tc.args...); code != cli.ExitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, code, stderr, cli.ExitUsage, tc.want)
		}
	}
}

func TestClusterClustersFlag(t *testing.T) {
	rep := decodeJSON(t, mustRunOut(t, "cluster", "--dataset", "MUTAG", "--subset", "20", "--atoms", "2", "--layers", "3", "--epochs", "1", "--clusters", "3", "--json", "-q"))
	if rep["clusters"] != 3.0 || rep["classes"] != 2.0 {
		t.Errorf("clusters %v, classes %v; want 3 and 2", rep["clusters"], rep["classes"])
	}
	if _, _, code := runCLI(t, "cluster", "--dataset", "MUTAG", "--subset", "20", "--clusters", "21"); code != cli.ExitUsage {
		t.Errorf("21 clusters of 20 graphs: exit %d, want %d", code, cli.ExitUsage)
	}
}

// TestClusterEncoder: --encoder gin clusters the embeddings of a GIN trained by the GWF term,
// says so in the report, and is refused where it does not apply.
func TestClusterEncoder(t *testing.T) {
	small := []string{"--dataset", "MUTAG", "--subset", "24", "--atoms", "3", "--layers", "4", "--epochs", "2", "-q"}
	gin := decodeJSON(t, mustRunOut(t, append([]string{"cluster", "--encoder", "gin", "--encoder-hidden", "8", "--json"}, small...)...))
	free := decodeJSON(t, mustRunOut(t, append([]string{"cluster", "--json"}, small...)...))
	if gin["trainer"] != "gin 8" || free["trainer"] != nil {
		t.Errorf("trainer %v with --encoder gin, %v without", gin["trainer"], free["trainer"])
	}
	if g, f := gin["loss"].([]any), free["loss"].([]any); len(g) != 2 || g[1] == f[1] {
		t.Errorf("loss per epoch %v with the encoder, %v without: want two epochs of another model", g, f)
	}
	table := mustRunOut(t, append([]string{"cluster", "--encoder", "gcn"}, small...)...)
	if !strings.Contains(table, "embeddings by a gcn 32,32 encoder") {
		t.Errorf("the table does not name the encoder:\n%s", table)
	}
	model := filepath.Join(t.TempDir(), "m.model")
	mustRun(t, "fit", "--dataset", "MUTAG", "--subset", "12", "--atoms", "2", "--layers", "2", "--epochs", "1", "--output", model, "-q")
	for _, args := range [][]string{
		{"--encoder", "gat"},
		{"--encoder", "gin", "--method", "fgwk"},
		{"--encoder", "gin", "--skip-nonfinite"},
		{"--encoder", "gin", "--encoder-hidden", "0"},
		{"--encoder", "gin", "--encoder-lr", "-1"},
		{"--encoder-lr", "0.01"},
		{"--encoder", "gin", "--model", model},
	} {
		if _, _, code := runCLI(t, append(append([]string{"cluster"}, small...), args...)...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, cli.ExitUsage)
		}
	}
}

// TestClusterOutputAssignments: without --model, --output writes every run's cluster of each
// graph; a rerun that reuses the runs from --output-dir writes the same; fgwk too.
func TestClusterOutputAssignments(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "clusters.csv")
	args := []string{"cluster", "--dataset", "MUTAG", "--subset", "14", "--runs", "2", "--epochs", "1", "--atoms", "2", "--layers", "5",
		"--output-dir", filepath.Join(dir, "runs"), "--output", out, "-q"}
	mustRun(t, args...)
	first, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(first)), "\n")
	if len(lines) != 15 || lines[0] != "graph,label,cluster_run0,cluster_run1" || !strings.HasPrefix(lines[1], "MUTAG#") {
		t.Fatalf("assignments:\n%s", first)
	}
	mustRun(t, args...) // both runs reused
	again, _ := os.ReadFile(out)
	if string(again) != string(first) {
		t.Fatalf("reused runs wrote\n%s\nthe first time\n%s", again, first)
	}
	fgwk, _ := mustRun(t, "cluster", "--dataset", "MUTAG", "--subset", "10", "--method", "fgwk", "--layers", "5", "--clusters", "2", "--output", "-", "-q")
	if rows := strings.Split(strings.TrimSpace(fgwk), "\n"); len(rows) != 11 || rows[0] != "graph,label,cluster" {
		t.Fatalf("fgwk assignments on stdout:\n%s", fgwk)
	}
	if _, _, code := runCLI(t, "cluster", "--dataset", "MUTAG", "--output", filepath.Join(dir, "c.npz")); code != cli.ExitUsage {
		t.Errorf("--output .npz without --model: exit %d", code)
	}
}

// Every interruptible command turns a cancelled run into exit status 130 and says what it did
// not write; a command that does not watch signals (gw) is not affected by the context.
func TestInterruptedSaysWhatIsLost(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(t.TempDir(), "d.npy")
	_, stderr, code := runCLIContext(t, ctx, "pairwise", "--dataset", "MUTAG", "--subset", "6", "--output", out, "-q")
	if code != cli.ExitInterrupted || !strings.Contains(stderr, "interrupted: no discrepancies written") {
		t.Errorf("pairwise: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("pairwise wrote %s after the interrupt (%v)", out, err)
	}
	_, stderr, code = runCLIContext(t, ctx, "pairwise", "--dataset", "MUTAG", "--subset", "6", "--output", out, "--layers", "-1")
	if code != cli.ExitUsage {
		t.Errorf("a usage error after an interrupt: exit %d, want %d: %s", code, cli.ExitUsage, stderr)
	}
}
