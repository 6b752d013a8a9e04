package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
)

// TestClassifyLandmarks: --landmarks compares the graphs with landmarks (the report says how
// many: the setting, each fold's choices, the matrices' cost); a classifier trained with them
// and used by 'gwf predict' on new graphs predicts them as classify predicts the unlabelled
// graphs of a folder that holds both; bad numbers are usage errors.
func TestClassifyLandmarks(t *testing.T) {
	train, both, unseen := t.TempDir(), t.TempDir(), t.TempDir()
	class := writeRandomClasses(t, "a", 30, 1, train, both)
	writeRandomClasses(t, "b", 12, 2, both, unseen)
	rows := []string{"file,label"}
	for name, c := range class {
		rows = append(rows, name+","+c)
	}
	slices.Sort(rows[1:])
	for _, d := range []string{train, both} {
		writeFile(t, d, "labels.csv", strings.Join(rows, "\n")+"\n")
	}
	// A fixed feature weight: the default weights are measured on the graphs read, which differ
	// between the folder of both and the training folder, and so would the two classifiers.
	narrow := []string{"--compare", "fgw", "--structure", "adjacency", "--wl", "0", "--inner-folds", "2", "--landmarks", "6", "--feature-weight", "1", "-q"}

	out, _ := mustRun(t, append([]string{"classify", "--graphs", train, "--folds", "3", "--json"}, narrow...)...)
	var rep crossval.SVMReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Settings.Landmarks != 6 {
		t.Fatalf("report settings: %d landmarks, want 6", rep.Settings.Landmarks)
	}
	for _, f := range rep.Folds {
		if f.Choice.Landmarks != 6 {
			t.Errorf("fold %d chose %v with %d landmarks", f.Fold, f.Choice.Candidate, f.Choice.Landmarks)
		}
	}
	for _, m := range rep.Cost.Matrices {
		// 3 folds of 20 training graphs: 6 landmarks each, nested.
		if m.Landmarks < 6 || m.Landmarks > 12 || m.GWDs >= 30*29/2 {
			t.Errorf("matrix %+v: want the discrepancies to 6 to 12 landmarks", m)
		}
	}

	preds := filepath.Join(t.TempDir(), "p.csv")
	text, _ := mustRun(t, append([]string{"classify", "--graphs", both, "--predictions", preds}, narrow...)...)
	if !strings.Contains(text, "to 6 landmarks") {
		t.Errorf("the text report does not say the landmarks:\n%s", text)
	}
	want := readPredictions(t, preds)
	model := filepath.Join(t.TempDir(), "landmarks.classifier")
	_, stderr := mustRun(t, append([]string{"classify", "--graphs", train, "--labeled-fraction", "1", "--output", model}, narrow[:len(narrow)-1]...)...)
	if !strings.Contains(stderr, "6 of them landmarks") {
		t.Errorf("the log does not say the landmarks kept: %s", stderr)
	}
	m, err := fgwsvm.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Landmarks) != 6 {
		t.Fatalf("the classifier keeps %d landmarks, want 6", len(m.Landmarks))
	}
	p := filepath.Join(t.TempDir(), "new.csv")
	mustRun(t, "predict", "--model", model, "--graphs", unseen, "--output", p, "-q")
	got := readPredictions(t, p)
	if len(got) != 12 {
		t.Fatalf("%d predictions, want 12", len(got))
	}
	for name, g := range got {
		if g[1] != want[name][1] {
			t.Errorf("%s: predict says %s, classify %s", name, g[1], want[name][1])
		}
	}

	for _, bad := range []string{"-1", "1"} {
		if _, stderr, code := runCLI(t, "classify", "--graphs", train, "--landmarks", bad); code != cli.ExitUsage || !strings.Contains(stderr, "landmarks") {
			t.Errorf("--landmarks %s: exit %d, want %d (%s)", bad, code, cli.ExitUsage, stderr)
		}
	}
	help, _ := mustRun(t, "classify", "--help")
	if !strings.Contains(help, "--landmarks") || !strings.Contains(help, "Nyström") {
		t.Error("--help does not describe --landmarks")
	}
}
