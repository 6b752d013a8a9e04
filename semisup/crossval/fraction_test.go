package crossval

import (
	"bytes"
	"context"
	"encoding/csv"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
	"github.com/gwf-graphs/gwf/training"
)

// TestFractionSVM: half the labels kept, stratified; the other half scored, and written out.
func TestFractionSVM(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 8)
	set := fgwsvm.Settings{
		Candidates: []fgwsvm.Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}},
		Grid:       fgwsvm.Grid{Gammas: []float64{1}, Cs: []float64{1, 10}, Folds: 2, Seed: 1},
	}
	rep, s, err := FractionSVM(context.Background(), ds, labels, 2, Fraction{Share: 0.5, Seed: 3}, set, fgwsvm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Labelled() != 8 || s.Scored != 8 || rep.Labeled != 8 || len(s.Predicted) != 16 {
		t.Fatalf("%d labelled, %d scored (report: %d labelled), %d predictions", s.Labelled(), s.Scored, rep.Labeled, len(s.Predicted))
	}
	if s.Accuracy < 0.75 || rep.Accuracy.Mean != s.Accuracy || rep.Chosen() == nil || !strings.Contains(rep.Protocol, "50% of the labels kept") {
		t.Fatalf("accuracy %v (report %v), chosen %v, protocol %q", s.Accuracy, rep.Accuracy.Mean, rep.Chosen(), rep.Protocol)
	}
	for i, l := range s.Train {
		if l != semisup.Unlabeled && l != labels[i] {
			t.Fatalf("graph %d: kept label %d, its label is %d", i, l, labels[i])
		}
	}
	names := make([]string, len(ds.Graphs))
	for i := range names {
		names[i] = "g" + strconv.Itoa(i)
	}
	var buf bytes.Buffer
	if err := WritePredictions(&buf, names, labels, s, strconv.Itoa); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 17 || rows[0][3] != "labelled_in_training" || rows[1][0] != "g0" || rows[1][1] != strconv.Itoa(labels[0]) {
		t.Fatalf("predictions CSV: %v, %v", rows, err)
	}
	if _, _, err := FractionSVM(context.Background(), ds, labels, 2, Fraction{Share: 0}, set, fgwsvm.Options{}); err == nil {
		t.Fatal("a fraction of 0: no error")
	}
}

// TestFractionGWF: with every label kept the model is re-embedded and scored on its training
// graphs; the report says so.
func TestFractionGWF(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 4)
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.AtomSize, cfg.Epochs = 2, 4, 1
	ds.ClassNames = []string{"cycle", "path"}
	m, err := NewGWFModel(ds, 2, cfg, semisup.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if m.GWF.Features == nil || m.GWF.Features.Kind != ds.Encoding.Kind || m.LabelText(1) != "path" {
		t.Fatalf("model of the data: encoding %v, class 1 %q", m.GWF.Features, m.LabelText(1))
	}
	z0 := m.GWF.Z.At(0, 0)
	rep, s, err := FractionGWF(context.Background(), m, ds, labels, Fraction{Share: 1, Seed: 1}, semisup.Options{}, training.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Scored != 8 || rep.Labeled != 8 || len(rep.History) != 1 || !strings.Contains(rep.Protocol, "training accuracy") {
		t.Fatalf("%d scored, %d labelled, %d epochs, protocol %q", s.Scored, rep.Labeled, len(rep.History), rep.Protocol)
	}
	if m.GWF.Z.At(0, 0) == z0 {
		t.Fatal("the embeddings did not move")
	}

	// A saved run resumes on the same data, with more epochs when asked; other data do not.
	path := filepath.Join(t.TempDir(), "m.classifier")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	r, err := ResumeGWFModel(path, ds, 2, 3)
	if err != nil || r.GWF.Config.Epochs != 3 || len(r.History) != 1 {
		t.Fatalf("resumed: %v (epochs %d, history %d)", err, r.GWF.Config.Epochs, len(r.History))
	}
	other, _ := cyclesAndPaths(t, 3)
	if _, err := ResumeGWFModel(path, other, 2, 0); err == nil || !strings.Contains(err.Error(), "the data has 6 and 2") {
		t.Fatalf("resumed on other data: %v", err)
	}
}

// TestTrainSVM: a classifier of every labelled graph keeps the data's classes and encoding
// and reports what it chose.
func TestTrainSVM(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	ds.ClassNames = []string{"cycle", "path"}
	set := fgwsvm.Settings{
		Candidates: []fgwsvm.Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}},
		Grid:       fgwsvm.Grid{Gammas: []float64{1}, Cs: []float64{1, 10}, Folds: 2, Seed: 1},
	}
	m, rep, err := TrainSVM(context.Background(), ds, labels, 2, set, fgwsvm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.ClassNames) != 2 || rep.Labeled != 12 || rep.Chosen() == nil || rep.Accuracy.Mean != rep.Chosen()[0].Validation {
		t.Fatalf("class names %v, %d labelled, chosen %v, accuracy %v", m.ClassNames, rep.Labeled, rep.Chosen(), rep.Accuracy.Mean)
	}
}

// TestFractionGiven: the labels as the data give them: the graphs without one are predicted,
// none is scored; the report counts them and gives the chosen settings' validation accuracy;
// the predictions CSV leaves their label empty.
func TestFractionGiven(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 8)
	given := slices.Clone(labels)
	for i := 10; i < len(given); i++ {
		given[i] = semisup.Unlabeled
	}
	set := fgwsvm.Settings{
		Candidates: []fgwsvm.Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}},
		Grid:       fgwsvm.Grid{Gammas: []float64{1}, Cs: []float64{1, 10}, Folds: 2, Seed: 1},
	}
	rep, s, err := FractionSVM(context.Background(), ds, given, 2, Fraction{Given: true}, set, fgwsvm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Labelled() != 10 || s.Scored != 0 || rep.Labeled != 10 || rep.Unscored != 6 || len(s.Predicted) != 16 {
		t.Fatalf("%d labelled, %d scored (report: %d labelled, %d unscored), %d predictions", s.Labelled(), s.Scored, rep.Labeled, rep.Unscored, len(s.Predicted))
	}
	if rep.Accuracy.Mean != rep.Chosen()[0].Validation || !strings.Contains(rep.Protocol, "the 6 without a label predicted (not scored)") {
		t.Fatalf("accuracy %v, validation %v, protocol %q", rep.Accuracy.Mean, rep.Chosen()[0].Validation, rep.Protocol)
	}
	if acc, _ := HeldOutAccuracy(labels, given, s.Predicted, false); acc < 0.66 { // as TestFractionSVM's, on 6 graphs
		t.Errorf("the unlabelled graphs predicted with accuracy %v", acc)
	}
	if len(rep.Predicted) != 6 || rep.Predicted[0].Index != 10 || rep.Predicted[0].Predicted != strconv.Itoa(s.Predicted[10]) {
		t.Errorf("the report's predictions of the unlabelled graphs: %+v", rep.Predicted)
	}
	var buf bytes.Buffer
	if err := WritePredictions(&buf, make([]string, 16), given, s, strconv.Itoa); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || rows[11][1] != "" || rows[11][3] != "false" || rows[1][1] != strconv.Itoa(labels[0]) {
		t.Fatalf("predictions CSV: %v, %v", rows, err)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil || !strings.Contains(text.String(), "predicted the 6 graphs without a class label") {
		t.Fatalf("text report: %v\n%s", err, text.String())
	}
	// The labels a fraction kept, given as the data's own, predict as the fraction did.
	_, half, err := FractionSVM(context.Background(), ds, labels, 2, Fraction{Share: 0.5, Seed: 3}, set, fgwsvm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, same, err := FractionSVM(context.Background(), ds, half.Train, 2, Fraction{Given: true}, set, fgwsvm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(same.Predicted, half.Predicted) {
		t.Errorf("the kept labels given: predicted %v, the fraction %v", same.Predicted, half.Predicted)
	}
}
