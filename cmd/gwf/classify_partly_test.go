package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
)

// partlyLabelledFolder writes 16 graphs, rings and stars, whose labels.csv labels the first
// ten (rings the even ones) and leaves the others out, one with an empty cell as pandas
// writes a missing label. It returns the folder and each graph's class.
func partlyLabelledFolder(t *testing.T) (string, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	rows := []string{"file,label"}
	class := map[string]string{}
	for i := range 16 {
		n := 6 + i%4
		a := make([][]int, n)
		for u := range a {
			a[u] = make([]int, n)
		}
		for u := range n {
			if i%2 == 0 { // a ring
				v := (u + 1) % n
				a[u][v], a[v][u] = 1, 1
			} else if u > 0 { // a star
				a[0][u], a[u][0] = 1, 1
			}
		}
		b := strings.ReplaceAll(fmt.Sprint(a), " ", ", ")
		name := fmt.Sprintf("g%02d.json", i)
		writeFile(t, dir, name, `{"adjacency": `+b+`}`)
		class[name] = map[bool]string{true: "ring", false: "star"}[i%2 == 0]
		switch {
		case i < 10:
			rows = append(rows, name+","+class[name])
		case i == 10:
			rows = append(rows, name+",")
		}
	}
	writeFile(t, dir, "labels.csv", strings.Join(rows, "\n")+"\n")
	return dir, class
}

// readPredictions reads a predictions CSV: graph → (label, predicted).
func readPredictions(t *testing.T, p string) map[string][2]string {
	t.Helper()
	out := map[string][2]string{}
	for _, r := range readCSV(t, p)[1:] {
		out[r[0]] = [2]string{r[1], r[2]}
	}
	return out
}

// TestClassifyPartlyLabelled: a folder where only some graphs have a class label. Without
// --folds and --labeled-fraction, classify and semisup train on the labelled graphs and
// predict the others (not scored: they have no label); with --folds the labelled graphs are
// scored alone; predict scores the labelled graphs and predicts all; cluster reads the folder
// as unlabelled.
func TestClassifyPartlyLabelled(t *testing.T) {
	dir, class := partlyLabelledFolder(t)
	pred := filepath.Join(t.TempDir(), "p.csv")
	out, stderr := mustRun(t, "classify", "--graphs", dir, "--predictions", pred, "--json")
	rep := decodeJSON(t, out)
	if rep["graphs"] != 16.0 || rep["labeled"] != 10.0 || rep["unscored"] != 6.0 {
		t.Errorf("report: %v graphs, %v labelled, %v unscored; want 16, 10, 6", rep["graphs"], rep["labeled"], rep["unscored"])
	}
	if listed, _ := rep["predicted"].([]any); len(listed) != 6 || listed[0].(map[string]any)["graph"] != "g10.json" || listed[0].(map[string]any)["predicted"] != "ring" {
		t.Errorf("the report lists the unlabelled graphs' predictions as %v", rep["predicted"])
	}
	if !strings.Contains(stderr, "6 of the 16 graphs have no class label: training on the 10 labelled ones and predicting the others") {
		t.Errorf("the log does not say what becomes of the unlabelled graphs:\n%s", stderr)
	}
	rows := readPredictions(t, pred)
	if len(rows) != 16 {
		t.Fatalf("%d predictions, want 16", len(rows))
	}
	for name, r := range rows {
		labelled := name < "g10"
		if labelled != (r[0] != "") || r[0] != "" && r[0] != class[name] {
			t.Errorf("%s: label %q in the predictions", name, r[0])
		}
		if r[1] != class[name] { // rings and stars: any classifier tells them apart
			t.Errorf("%s: predicted %s, is a %s", name, r[1], class[name])
		}
	}

	out, _ = mustRun(t, "classify", "--graphs", dir)
	if !strings.Contains(out, "predicted the 6 graphs without a class label:\n  g10.json\tring\n  g11.json\tstar") {
		t.Errorf("the text report does not list the predictions:\n%s", out)
	}
	out, stderr = mustRun(t, "classify", "--graphs", dir, "--folds", "3", "--json")
	if rep := decodeJSON(t, out); rep["graphs"] != 10.0 || len(rep["folds"].([]any)) != 3 {
		t.Errorf("--folds 3: %v graphs, want the 10 labelled", rep["graphs"])
	}
	if !strings.Contains(stderr, "6 of the 16 graphs have no class label: left out") {
		t.Errorf("--folds: the log does not say the unlabelled graphs are left out:\n%s", stderr)
	}

	gwfModel := filepath.Join(t.TempDir(), "m.gwf")
	out, _ = mustRun(t, "semisup", "--method", "gwf", "--graphs", dir, "--atoms", "2", "--layers", "3", "--epochs", "2", "--json", "-q", "--output", gwfModel)
	if rep := decodeJSON(t, out); rep["labeled"] != 10.0 || rep["unscored"] != 6.0 {
		t.Errorf("semisup: %v labelled, %v unscored; want 10, 6", rep["labeled"], rep["unscored"])
	}
	if _, stderr = mustRun(t, "predict", "--model", gwfModel, "--graphs", dir); !strings.Contains(stderr, "accuracy on the 10 labelled graphs") {
		t.Errorf("predict with the semisup model trained on the labels as given:\n%s", stderr)
	}
	_, stderr, code := runCLI(t, "semisup", "--method", "gwf", "--graphs", dir, "--output-dir", t.TempDir(), "-q")
	if code != cli.ExitUsage || !strings.Contains(stderr, "--output-dir keeps the folds of cross-validation") {
		t.Errorf("semisup --output-dir on labels as given: exit %d, %s", code, stderr)
	}

	model := filepath.Join(t.TempDir(), "m.classifier")
	mustRun(t, "classify", "--graphs", dir, "--labeled-fraction", "1", "--output", model, "-q")
	out, stderr = mustRun(t, "predict", "--model", model, "--graphs", dir)
	if !strings.Contains(stderr, "accuracy on the 10 labelled graphs: 100.00%") {
		t.Errorf("predict does not score the labelled graphs:\n%s", stderr)
	}
	if n := strings.Count(out, "\n"); n != 17 {
		t.Errorf("predict: %d CSV lines, want a header and 16", n)
	}

	// What needs no class reads the folder as unlabelled, saying so; datasets counts them.
	out, _ = mustRun(t, "datasets", "--graphs", dir)
	if !strings.Contains(out, "6 of the 16 graphs have no class label") {
		t.Errorf("datasets does not count the unlabelled graphs:\n%s", out)
	}
	_, stderr = mustRun(t, "cluster", "--graphs", dir, "--clusters", "2", "--atoms", "2", "--layers", "3", "--epochs", "1")
	if !strings.Contains(stderr, "class labels left out: 6 of the 16 graphs have none") {
		t.Errorf("cluster does not say the labels are left out:\n%s", stderr)
	}
}
