package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
)

// TestClassifySVMDefault: with no flag but the data, classify runs the fgw-svm classifier
// under nested cross-validation with the node labels MUTAG has.
func TestClassifySVMDefault(t *testing.T) {
	// --budget 0: every candidate is counted, however fast the machine (a budget's plan keeps
	// fewer on a loaded one).
	out, _ := mustRun(t, "classify", "--dataset", "MUTAG", "--subset", "24", "--folds", "3", "--inner-folds", "2", "--budget", "0", "-q", "--json")
	var rep crossval.SVMReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Method != methodSVM || len(rep.Folds) != 3 || rep.Features != "--features labels --edge-labels" {
		t.Fatalf("method %q, %d folds, features %q", rep.Method, len(rep.Folds), rep.Features)
	}
	if rep.Version != versionString() { // what made the report, for who reads it later
		t.Errorf("report of gwf version %q, want %q", rep.Version, versionString())
	}
	if len(rep.Settings.Candidates) != 85 {
		t.Fatalf("%d candidates, want 2 structures × (5 feature weights × (labels, WL-2, WL-4, WL-2 and WL-4 with the bonds) + the structure alone + 5 × WL-2 and WL-4 from the degrees), the graph statistics and WL subtree counts after 1 to 4 iterations (of the labels, with the bonds, from the degrees)", len(rep.Settings.Candidates))
	}
	wl, edges, free, vector := map[int]int{}, map[int]int{}, map[int]int{}, map[fgwsvm.Kind]int{}
	for _, c := range rep.Settings.Candidates {
		switch {
		case c.Kind != "":
			vector[c.Kind]++
		case c.WithoutFeatures:
			free[c.WL]++
		case c.EdgeLabels:
			edges[c.WL]++
		default:
			wl[c.WL]++
		}
	}
	if wl[0] != 10 || wl[2] != 10 || wl[4] != 10 || edges[2] != 10 || edges[4] != 10 || free[0] != 2 || free[2] != 10 || free[4] != 10 ||
		vector[fgwsvm.KindStatistics] != 1 || vector[fgwsvm.KindWLSubtree] != 12 {
		t.Fatalf("candidates by WL iterations %v, want 10 each of 0, 2 and 4; with edge labels %v; label-free %v; vectors %v", wl, edges, free, vector)
	}
	// Without screening, the ten best candidates vote in each fold, the best first, less
	// those more than two standard errors below it.
	if rep.Settings.Vote != 10 || rep.Settings.VoteWithin != fgwsvm.DefaultVoteWithin {
		t.Fatalf("vote of %d within %v, want 10 within %v", rep.Settings.Vote, rep.Settings.VoteWithin, fgwsvm.DefaultVoteWithin)
	}
	for _, f := range rep.Folds {
		v := f.Chosen()
		if len(v) > 10 || v[0] != f.Choice || v[len(v)-1].Validation > f.Choice.Validation {
			t.Fatalf("fold %d: %d voters, first %v, choice %v", f.Fold, len(v), v[0], f.Choice)
		}
	}
	// --wl fixes the iterations; --predictions writes each held-out graph's prediction, which
	// the folds' accuracies count.
	preds := filepath.Join(t.TempDir(), "cv.csv")
	out, _ = mustRun(t, "classify", "--dataset", "MUTAG", "--subset", "24", "--folds", "3", "--inner-folds", "2", "--wl", "3", "--structure", "sp", "--budget", "0", "-q", "--json", "--predictions", preds)
	rep = crossval.SVMReport{}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if c := rep.Folds[0].Choice.Candidate; len(rep.Settings.Candidates) != 14 || rep.Settings.Candidates[0].WL != 3 || (c.WL != 3 && c.Kind != fgwsvm.KindStatistics) {
		t.Fatalf("--wl 3: candidates %v, fold choice %v", rep.Settings.Candidates, rep.Folds[0].Choice)
	}
	if rep.Accuracy.Mean < 0.5 || rep.Accuracy.Mean > 1 {
		t.Fatalf("accuracy %v", rep.Accuracy.Mean)
	}
	rows := readCSV(t, preds)
	right, perFold := map[string]int{}, map[string]int{}
	for _, r := range rows[1:] {
		perFold[r[3]]++
		if r[1] == r[2] {
			right[r[3]]++
		}
	}
	if len(rows) != 25 || strings.Join(rows[0], ",") != "graph,label,predicted,fold" || len(perFold) != 3 {
		t.Fatalf("--predictions: %d rows, header %v, folds %v", len(rows), rows[0], perFold)
	}
	if c := rep.Confusion; c == nil || len(c.Counts) != 2 || c.Counts[0][0]+c.Counts[0][1]+c.Counts[1][0]+c.Counts[1][1] != 24 || c.Classes[0] != "-1" {
		t.Fatalf("confusion %+v, want MUTAG's classes -1 and 1 and the 24 held-out graphs", c)
	}
	for _, f := range rep.Folds {
		k := strconv.Itoa(f.Fold)
		if perFold[k] != f.Test || math.Abs(float64(right[k])-f.Accuracy*float64(f.Test)) > 1e-9 {
			t.Errorf("fold %d: %d of %d rows right, the report says %v of %d", f.Fold, right[k], perFold[k], f.Accuracy, f.Test)
		}
	}
	for _, f := range rep.Folds {
		if f.Choice.C <= 0 || f.Choice.Gamma <= 0 {
			t.Fatalf("fold %d chose %+v", f.Fold, f.Choice)
		}
	}
}

// TestClassifySVMThenPredict: a classifier saved by classify predicts another folder and
// scores it against its labels; the fraction protocol writes its predictions.
func TestClassifySVMThenPredict(t *testing.T) {
	train := writeBlocksTU(t, "TRAIN", 24, 1)
	unseen := writeBlocksTU(t, "UNSEEN", 10, 2)
	model := filepath.Join(t.TempDir(), "blocks.classifier")
	mustRun(t, "classify", "--tu", train, "--labeled-fraction", "1", "--output", model, "--structure", "adjacency", "-q")
	out, _ := mustRun(t, "predict", "--model", model, "--tu", unseen, "--json", "-q")
	var got struct {
		Classes     []int `json:"classes"`
		Predictions []struct {
			Label     int `json:"label"`
			Predicted int `json:"predicted"`
		} `json:"predictions"`
		Score *crossval.PredictionScore `json:"score"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Classes) != 2 || got.Classes[0] != -1 || len(got.Predictions) != 10 || got.Score == nil || got.Score.Graphs != 10 {
		t.Fatalf("classes %v, %d predictions, score %+v", got.Classes, len(got.Predictions), got.Score)
	}
	if got.Score.Accuracy < 0.8 || len(got.Score.PerClass) != 2 {
		t.Fatalf("score %+v on two block structures", got.Score)
	}
	csvOut, _ := mustRun(t, "predict", "--model", model, "--tu", unseen, "-q")
	if !strings.HasPrefix(csvOut, "graph,label,predicted\n") {
		t.Fatalf("CSV header: %q", strings.SplitN(csvOut, "\n", 2)[0])
	}
	if _, _, code := runCLI(t, "predict", "--model", model, "--tu", unseen, "--steps", "3"); code != cli.ExitUsage {
		t.Fatalf("--steps with an fgw-svm classifier: exit %d", code)
	}

	preds := filepath.Join(t.TempDir(), "p.csv")
	out, _ = mustRun(t, "classify", "--tu", train, "--labeled-fraction", "0.5", "--structure", "sp", "--predictions", preds, "-q", "--json")
	if rows := readCSV(t, preds); len(rows) != 25 || rows[0][2] != "predicted" {
		t.Fatalf("predictions file: %d rows, header %v", len(rows), rows[0])
	}
	if rep := decodeJSON(t, out); rep["labeled"] != 12.0 {
		t.Fatalf("labelled %v, want 12", rep["labeled"])
	}
}

func TestClassifySVMUsage(t *testing.T) {
	for _, bad := range [][]string{
		{"--beta", "0.5"},       // a GWF setting
		{"--atoms", "4"},        // a GWF setting
		{"--structure", "ring"}, // not a structure
		{"--inner-folds", "1"},  // too few
		{"--inner-repeats", "0"},
		{"--inner-repeats", "1000"}, // more than the library takes
		{"--method", "gwf", "--inner-repeats", "2"},
		{"--vote", "-1"},
		{"--vote", "1000"}, // more than the candidates
		{"--method", "gwf", "--vote", "2"},
		{"--method", "svm"},     // not a method
		{"--output", "x.model"}, // needs --labeled-fraction 1
		{"--method", "gwf", "--structure", "ring"},
		{"--wl", "two"}, // not a number
		{"--wl", "11"},  // too many
		{"--workers", "-1"},
		{"--method", "gwf", "--wl", "2"},
	} {
		if _, _, code := runCLI(t, append([]string{"classify", "--dataset", "MUTAG", "--subset", "20"}, bad...)...); code != cli.ExitUsage {
			t.Errorf("classify %v: exit %d, want %d", bad, code, cli.ExitUsage)
		}
	}
}

// TestClassifySVMBadLabels: a class of one graph cannot be cross-validated, more folds than
// graphs, a single class and node features of two widths are refused, each with a message
// that says so.
func TestClassifySVMBadLabels(t *testing.T) {
	dir := t.TempDir()
	labels := "a.json,x\nb.json,x\nc.json,x\nd.json,y\ne.json,y\nf.json,z\n"
	for i, name := range []string{"a", "b", "c", "d", "e", "f"} {
		adj := `[[0,1,1],[1,0,1],[1,1,0]]`
		if i >= 3 {
			adj = `[[0,1,0],[1,0,1],[0,1,0]]`
		}
		writeFile(t, dir, name+".json", `{"adjacency": `+adj+`}`)
	}
	writeFile(t, dir, "labels.csv", labels)
	_, stderr, code := runCLI(t, "classify", "--graphs", dir, "--folds", "2", "-q")
	if code == 0 || !strings.Contains(stderr, "single graph") {
		t.Fatalf("a class of one graph: exit %d, %q", code, stderr)
	}
	writeFile(t, dir, "labels.csv", strings.ReplaceAll(labels, "z", "y"))
	if _, stderr, code := runCLI(t, "classify", "--graphs", dir, "--folds", "7", "-q"); code != cli.ExitUsage {
		t.Fatalf("more folds than graphs: exit %d, %q", code, stderr)
	}
	writeFile(t, dir, "labels.csv", strings.NewReplacer("y", "x", "z", "x").Replace(labels))
	if _, stderr, code := runCLI(t, "classify", "--graphs", dir, "--folds", "2", "-q"); code == 0 || !strings.Contains(stderr, "same class") {
		t.Fatalf("one class: exit %d, %q", code, stderr)
	}
	// Node features of two widths are an error, not a reason to read the graphs without.
	writeFile(t, dir, "labels.csv", labels)
	writeFile(t, dir, "a.json", `{"adjacency": [[0,1,1],[1,0,1],[1,1,0]], "features": [[1],[2],[3]]}`)
	writeFile(t, dir, "b.json", `{"adjacency": [[0,1,1],[1,0,1],[1,1,0]], "features": [[1,0],[2,0],[3,0]]}`)
	if _, stderr, code := runCLI(t, "classify", "--graphs", dir, "--folds", "2", "-q"); code == 0 || !strings.Contains(stderr, "2 node features") {
		t.Fatalf("features of two widths: exit %d, %q", code, stderr)
	}
}

// TestClassifySVMOutputDir: the matrices, the scored folds and the report are kept; a rerun
// takes the kept folds (the same report, nothing computed), and without them it reuses the
// matrices.
func TestClassifySVMOutputDir(t *testing.T) {
	train := writeBlocksTU(t, "TRAIN", 24, 1)
	dir := t.TempDir()
	args := []string{"classify", "--tu", train, "--folds", "3", "--structure", "adjacency", "--output-dir", dir, "--json"}
	first, _ := mustRun(t, args...)
	if files, _ := filepath.Glob(filepath.Join(dir, "*.npy")); len(files) != 16 {
		t.Fatalf("kept %v, want one matrix per candidate (the structure alone and 5 weights of degrees, of WL-2 and of WL-4 labels)", files)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.json")); err != nil {
		t.Fatal(err)
	}
	again, stderr := mustRun(t, args...)
	if strings.Count(stderr, " of 3: kept in") != 3 || strings.Contains(stderr, "computing") {
		t.Fatalf("the rerun did not take the 3 kept folds:\n%s", stderr)
	}
	folds, _ := filepath.Glob(filepath.Join(dir, "svm-fold*.json"))
	for _, f := range folds {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	if _, stderr := mustRun(t, args...); len(folds) != 3 || strings.Count(stderr, "reusing") != 16 || strings.Contains(stderr, "computing") {
		t.Fatalf("%d folds kept; without them the rerun did not reuse every matrix:\n%s", len(folds), stderr)
	}
	var a, b crossval.SVMReport
	if err := json.Unmarshal([]byte(first), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(again), &b); err != nil {
		t.Fatal(err)
	}
	if a.Accuracy != b.Accuracy || len(a.Folds) != len(b.Folds) {
		t.Fatalf("rerun: %+v, first %+v", b.Accuracy, a.Accuracy)
	}
}

// TestPoolSVMReports: fgw-svm reports of two fold seeds pool into one mean over their folds;
// other settings, and a report of the other classifier, are refused.
func TestPoolSVMReports(t *testing.T) {
	train := writeBlocksTU(t, "TRAIN", 24, 1)
	dir := t.TempDir()
	args := []string{"classify", "--tu", train, "--folds", "3", "--structure", "adjacency", "--inner-folds", "2", "--output-dir", filepath.Join(dir, "m"), "--json", "-q"}
	var files []string
	for _, seed := range []string{"1", "2"} {
		out, _ := mustRun(t, append(args, "--fold-seed", seed)...)
		files = append(files, writeFile(t, dir, "r"+seed+".json", out))
	}
	out, _ := mustRun(t, "pool", "--json", files[0], files[1])
	var p crossval.Pooled
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Reports) != 2 || p.Pooled.Folds != 6 || p.Reports[1].Seed != 2 || !(p.Pooled.Accuracy.Mean > 0) {
		t.Fatalf("pooled %+v", p)
	}
	other, _ := mustRun(t, append(args, "--structure", "sp")...)
	if _, _, code := runCLI(t, "pool", files[0], writeFile(t, dir, "sp.json", other)); code != cli.ExitUsage {
		t.Fatalf("pooling two settings: exit %d", code)
	}
	gwf, _ := mustRun(t, "semisup", "--method", "gwf", "--tu", train, "--folds", "3", "--atoms", "2", "--layers", "3", "--epochs", "1", "--json", "-q")
	if _, _, code := runCLI(t, "pool", files[0], writeFile(t, dir, "gwf.json", gwf)); code != cli.ExitUsage {
		t.Fatalf("pooling two classifiers: exit %d", code)
	}
}

// TestClassifySVMShortestPathsOverMemory: where the dense shortest-path matrices would exceed
// --max-memory, the default (structure auto) compares adjacency only and says so; a classifier
// is still trained.
func TestClassifySVMShortestPathsOverMemory(t *testing.T) {
	dir := t.TempDir()
	labels := "file,label\n"
	for i := range 6 {
		var b strings.Builder
		for v := range 119 { // paths and cycles of 120 nodes: 173 kB of shortest paths each
			fmt.Fprintf(&b, "%d %d\n", v, v+1)
		}
		if i%2 == 1 {
			b.WriteString("119 0\n")
		}
		name := fmt.Sprintf("g%d.txt", i)
		writeFile(t, dir, name, b.String())
		labels += fmt.Sprintf("%s,%d\n", name, i%2)
	}
	writeFile(t, dir, "labels.csv", labels)
	// 0.0005 GiB (537 kB): the graphs fit, their 1 MB of shortest paths do not.
	_, stderr := mustRun(t, "classify", "--graphs", dir, "--labeled-fraction", "0.5", "--inner-folds", "2", "--max-memory", "0.0005")
	if !strings.Contains(stderr, "adjacency only: shortest paths") || strings.Contains(stderr, "shortest-path structure,") {
		t.Errorf("stderr %q: want the warning and no shortest-path candidate", stderr)
	}
}

// TestClassifySVMVote: --vote is checked against the candidates the data give, so a vote of
// two of them runs.
func TestClassifySVMVote(t *testing.T) {
	out, _ := mustRun(t, "classify", "--dataset", "MUTAG", "--subset", "20", "--folds", "2", "--compare", "statistics,wl-subtree", "--vote", "2", "-q", "--json")
	var rep crossval.SVMReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Settings.Vote != 2 || len(rep.Folds) != 2 {
		t.Fatalf("vote %d, %d folds; want 2 and 2", rep.Settings.Vote, len(rep.Folds))
	}
}
