package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
)

// writeBlocksTU writes n graphs of two block structures as a TU dataset in its own folder,
// with the classes encoded -1 (two communities) and 1 (core-periphery), as MUTAG encodes them.
func writeBlocksTU(t *testing.T, name string, n int, seed uint64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	var a, ind, gl strings.Builder
	node := 0
	for g := 1; g <= n; g++ {
		size := 8 + rng.IntN(4)
		var gr *graphs.Graph
		var err error
		label := -1
		if g%2 == 0 {
			gr, err = graphs.StochasticBlockModel([]int{size / 2, size - size/2}, [][]float64{{0.9, 0.05}, {0.05, 0.9}}, rng)
		} else {
			label = 1
			gr, err = graphs.StochasticBlockModel([]int{3, size - 3}, [][]float64{{0.9, 0.8}, {0.8, 0.05}}, rng)
		}
		if err != nil {
			t.Fatal(err)
		}
		first := node + 1
		for i := 0; i < size; i++ {
			ind.WriteString(strconv.Itoa(g) + "\n")
			for j := 0; j < size; j++ {
				if i != j && gr.A.At(i, j) > 0 {
					a.WriteString(strconv.Itoa(first+i) + ", " + strconv.Itoa(first+j) + "\n")
				}
			}
		}
		node += size
		gl.WriteString(strconv.Itoa(label) + "\n")
	}
	for file, text := range map[string]string{"_A.txt": a.String(), "_graph_indicator.txt": ind.String(), "_graph_labels.txt": gl.String()} {
		if err := os.WriteFile(filepath.Join(dir, name+file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestClassifyThenPredict: a classifier trained on one folder, saved, resumed, and used on
// graphs of another folder, with labels in the data's own encoding.
func TestClassifyThenPredict(t *testing.T) {
	train := writeBlocksTU(t, "TRAIN", 24, 1)
	unseen := writeBlocksTU(t, "UNSEEN", 10, 2)
	model := filepath.Join(t.TempDir(), "blocks.classifier")
	args := []string{"semisup", "--method", "gwf", "--tu", train, "--labeled-fraction", "1", "--output", model, "--atoms", "3", "--layers", "5",
		"--hidden", "4", "--head-steps", "50", "-q", "--json"}
	mustRun(t, append(args, "--epochs", "1")...)
	out, _ := mustRun(t, append(args, "--epochs", "3", "--resume")...)
	rep := decodeJSON(t, out)
	if h, _ := rep["history"].([]any); len(h) != 3 || rep["labeled"] != 24.0 {
		t.Fatalf("resumed to %d epochs with %v labelled graphs, want 3 and 24", len(h), rep["labeled"])
	}

	out, _ = mustRun(t, "predict", "--model", model, "--tu", unseen, "--json", "-q")
	var got struct {
		Classes     []int `json:"classes"`
		Predictions []struct {
			Graph         string    `json:"graph"`
			Index         int       `json:"index"`
			Predicted     int       `json:"predicted"`
			Probabilities []float64 `json:"probabilities"`
		} `json:"predictions"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Classes) != 2 || got.Classes[0] != -1 || got.Classes[1] != 1 || len(got.Predictions) != 10 {
		t.Fatalf("classes %v, %d predictions", got.Classes, len(got.Predictions))
	}
	for i, p := range got.Predictions {
		sum := p.Probabilities[0] + p.Probabilities[1]
		want := got.Classes[0]
		if p.Probabilities[1] > p.Probabilities[0] {
			want = got.Classes[1]
		}
		if p.Index != i || p.Graph != fmt.Sprintf("UNSEEN#%d", i+1) || p.Predicted != want || math.Abs(sum-1) > 1e-9 {
			t.Errorf("prediction %d: %+v", i, p)
		}
	}
	// The same graphs give the same predictions (transform mode is seeded); CSV to a file.
	again := filepath.Join(t.TempDir(), "p.json")
	mustRun(t, "predict", "--model", model, "--tu", unseen, "--json", "-q", "--output", again)
	if b, err := os.ReadFile(again); err != nil || string(b) != out {
		t.Errorf("a second prediction differs (%v)", err)
	}
	csvOut, _ := mustRun(t, "predict", "--model", model, "--tu", train, "-q")
	if lines := strings.Split(strings.TrimSpace(csvOut), "\n"); len(lines) != 25 || lines[0] != "graph,label,predicted,p_-1,p_1" {
		t.Errorf("CSV on the training folder: %d lines, header %q", len(lines), lines[0])
	}

	for _, args := range [][]string{{"--tu", unseen}, {"--model", model}, {"--model", model, "--tu", unseen, "--steps", "-1"}} {
		if _, _, code := runCLI(t, append([]string{"predict"}, args...)...); code != cli.ExitUsage {
			t.Errorf("predict %v: exit %d, want %d", args, code, cli.ExitUsage)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(bad, []byte(`{"format": "gwf-semisup-model"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "predict", "--model", bad, "--tu", unseen); code != cli.ExitError {
		t.Errorf("corrupt model: exit %d (%s)", code, stderr)
	}
}

// TestEncoderClassifyThenPredict: the same with a GIN encoder: the classifier is saved, resumed
// exactly where it stopped, and predicts another folder's graphs with one forward pass (the
// same predictions twice).
func TestEncoderClassifyThenPredict(t *testing.T) {
	train := writeBlocksTU(t, "TRAIN", 24, 3)
	unseen := writeBlocksTU(t, "UNSEEN", 10, 4)
	model := filepath.Join(t.TempDir(), "gin.classifier")
	args := []string{"semisup", "--method", "gwf", "--tu", train, "--labeled-fraction", "1", "--output", model, "--atoms", "3", "--layers", "5",
		"--hidden", "4", "--head-steps", "50", "--encoder", "gin", "--encoder-hidden", "8", "-q", "--json"}
	mustRun(t, append(args, "--epochs", "1")...)
	out, _ := mustRun(t, append(args, "--epochs", "3", "--resume")...)
	if h, _ := decodeJSON(t, out)["history"].([]any); len(h) != 3 {
		t.Fatalf("resumed to %d epochs, want 3", len(h))
	}
	first, _ := mustRun(t, "predict", "--model", model, "--tu", unseen, "--json", "-q")
	second, _ := mustRun(t, "predict", "--model", model, "--tu", unseen, "--json", "-q")
	if first != second || !strings.Contains(first, `"predictions"`) {
		t.Errorf("encoder predictions differ between runs or are missing:\n%s\n%s", first, second)
	}
	for _, bad := range [][]string{{"--encoder", "mlp"}, {"--encoder-hidden", ""}} {
		if _, _, code := runCLI(t, append([]string{"semisup", "--method", "gwf", "--tu", train, "--folds", "2"}, bad...)...); code != cli.ExitUsage {
			t.Errorf("classify %v: exit %d, want %d", bad, code, cli.ExitUsage)
		}
	}
}

// TestPredictTextLabels: a classifier of a graph folder whose labels.csv holds text reports
// its predictions in that text, in JSON, CSV and classify's --predictions.
func TestPredictTextLabels(t *testing.T) {
	dir := t.TempDir()
	model, preds := filepath.Join(dir, "mixed.classifier"), filepath.Join(dir, "p.csv")
	mustRun(t, "semisup", "--method", "gwf", "--graphs", mixedGraphs, "--labeled-fraction", "1", "--atoms", "2", "--layers", "5", "--epochs", "1",
		"--output", model, "--predictions", preds, "-q")
	if b, err := os.ReadFile(preds); err != nil || !strings.Contains(string(b), "triangle.json,cycle,") {
		t.Errorf("--predictions (%v):\n%s", err, b)
	}
	out, _ := mustRun(t, "predict", "--model", model, "--graphs", mixedGraphs, "--json", "-q")
	var got struct {
		Classes     []string `json:"classes"`
		Predictions []struct {
			Label     string `json:"label"`
			Predicted string `json:"predicted"`
		} `json:"predictions"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || strings.Join(got.Classes, ",") != "cycle,tree" || len(got.Predictions) != 6 {
		t.Fatalf("predict --json (%v):\n%s", err, out)
	}
	for _, p := range got.Predictions {
		if (p.Predicted != "cycle" && p.Predicted != "tree") || (p.Label != "cycle" && p.Label != "tree") {
			t.Errorf("label %q, predicted %q", p.Label, p.Predicted)
		}
	}
	out, _ = mustRun(t, "predict", "--model", model, "--graphs", mixedGraphs, "-q")
	if !strings.HasPrefix(out, "graph,label,predicted,p_cycle,p_tree\n") {
		t.Errorf("CSV header:\n%s", out)
	}
}

// TestModelOfAnotherKind: a valid file of another kind says what it is and what makes the
// file the command needs.
func TestModelOfAnotherKind(t *testing.T) {
	dir := t.TempDir()
	fit := filepath.Join(dir, "fit.model")
	mustRun(t, "fit", "--dataset", "MUTAG", "--subset", "10", "--atoms", "2", "--epochs", "1", "--layers", "5", "--output", fit, "-q")
	svm := filepath.Join(dir, "svm.classifier")
	mustRun(t, "classify", "--dataset", "MUTAG", "--subset", "16", "--structure", "sp", "--wl", "0", "--inner-folds", "2", "--labeled-fraction", "1", "--output", svm, "-q")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", "--model", fit, "--dataset", "MUTAG", "--subset", "4"}, "written by 'gwf fit'"},
		{[]string{"embed", "--model", svm, "--dataset", "MUTAG", "--subset", "4"}, "This needs a GWF model, written by 'gwf fit'"},
		{[]string{"fit", "--resume", "--output", svm, "--dataset", "MUTAG"}, "The file is an fgw-svm classifier"},
	} {
		_, stderr, code := runCLI(t, tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("gwf %v: exit %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
	}
}
