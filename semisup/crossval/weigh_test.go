package crossval

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/meanstd"
	"github.com/gwf-graphs/gwf/internal/subset"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
	"github.com/gwf-graphs/gwf/training"
)

// smallTemplates is a template model small enough for tests: one member, a few epochs.
func smallTemplates() semisup.TemplateConfig {
	cfg := semisup.DefaultTemplateConfig()
	cfg.Members, cfg.Epochs, cfg.TemplateNodes = 1, 4, 6
	return cfg
}

// TestCrossValidateSVMWeighsTemplates: with SVMSpec.Templates every fold weighs the template
// model against the FGW-SVM; the report's accuracies, predictions and confusion are the
// deciding classifier's, each decision follows the two scores, and a rerun on the same report
// folder reuses the kept folds.
func TestCrossValidateSVMWeighsTemplates(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 9)
	cfg := smallTemplates()
	dir := t.TempDir()
	var said []string
	spec := SVMSpec{Folds: 3, Seed: 1, ReportDir: dir, Templates: &cfg,
		Settings: fgwsvm.Settings{Candidates: []fgwsvm.Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}},
			Grid: fgwsvm.Grid{Gammas: []float64{1}, Cs: []float64{1, 10}, Folds: 3, Seed: 1}},
		Options: fgwsvm.Options{Observe: func(e training.Event) { said = append(said, e.Message) }},
	}
	rep, err := CrossValidateSVM(context.Background(), ds, labels, 2, spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Weighed) != 3 || rep.Templates == nil || !strings.Contains(rep.Protocol, "template model weighed") {
		t.Fatalf("%d weighed folds, templates %v, protocol %q", len(rep.Weighed), rep.Templates, rep.Protocol)
	}
	for k, w := range rep.Weighed {
		svmFold := rep.Folds[k]
		wantChosen := MethodSVM
		if w.Templates > w.SVM+w.Margin {
			wantChosen = MethodTemplates
		}
		if se := math.Sqrt(w.SVM * (1 - w.SVM) / float64(w.Holdout)); w.Margin != se {
			t.Errorf("fold %d: margin %v, want the standard error %v", k+1, w.Margin, se)
		}
		switch {
		case w.Fold != k+1 || w.SVM != svmFold.Choice.Validation || w.Chosen != wantChosen:
			t.Errorf("fold %d: %+v against the FGW-SVM's inner %v", k+1, w, svmFold.Choice.Validation)
		case w.Holdout < 3 || w.Holdout > 5: // the first of 3 inner folds of 12 training graphs
			t.Errorf("fold %d: scored on %d training graphs, want about a third of 12", k+1, w.Holdout)
		case !slices.Equal(w.Graphs, svmFold.Graphs) || len(w.Predictions) != len(w.Graphs):
			t.Errorf("fold %d: graphs %v predictions %v, the FGW-SVM's graphs %v", k+1, w.Graphs, w.Predictions, svmFold.Graphs)
		case w.Chosen == MethodSVM && !slices.Equal(w.Predictions, svmFold.Predictions):
			t.Errorf("fold %d: the FGW-SVM decides, but the predictions %v are not its %v", k+1, w.Predictions, svmFold.Predictions)
		case w.Accuracy != accuracyOf(w.Predictions, subset.Ints(labels, w.Graphs)):
			t.Errorf("fold %d: accuracy %v of predictions %v", k+1, w.Accuracy, w.Predictions)
		}
	}
	if m, _ := meanstd.Of(rep.FoldAccuracies()); rep.Accuracy.Mean != m || rep.FoldAccuracies()[0] != rep.Weighed[0].Accuracy || rep.HeldOut()[1].Predictions[0] != rep.Weighed[1].Predictions[0] {
		t.Errorf("the report's accuracy %v, folds %v: not the weighed folds'", rep.Accuracy, rep.FoldAccuracies())
	}
	said = nil
	again, err := CrossValidateSVM(context.Background(), ds, labels, 2, spec)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(again.Weighed, rep.Weighed, func(a, b WeighedFold) bool {
		return a.Accuracy == b.Accuracy && a.Chosen == b.Chosen && slices.Equal(a.Predictions, b.Predictions)
	}) ||
		!strings.Contains(strings.Join(said, "\n"), "kept in") {
		t.Errorf("rerun: %+v against %+v; log %q", again.Weighed, rep.Weighed, said)
	}
}

// TestWeighFoldDecides: the template model decides a fold where it scores above the FGW-SVM's
// inner accuracy, and is trained again on all the training graphs to predict the held-out ones;
// elsewhere the FGW-SVM's predictions stand.
func TestWeighFoldDecides(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	spec := SVMSpec{Folds: 3, Settings: fgwsvm.Settings{Grid: fgwsvm.Grid{Folds: 2, Seed: 1}}}
	test := []int{0, 1, 2, 3}
	svmSaid := []int{1, 1, 1, 1}
	for _, c := range []struct {
		svm  float64
		want string
	}{{0, MethodTemplates}, {1, MethodSVM}} {
		r := fgwsvm.FoldResult{Fold: 1, Choice: fgwsvm.Choice{Validation: c.svm}, Graphs: test, Predictions: svmSaid}
		w, err := weighFold(context.Background(), ds.Graphs, labels, 2, smallTemplates(), spec, r)
		if err != nil {
			t.Fatal(err)
		}
		if w.Chosen != c.want || w.Holdout != 4 || len(w.Predictions) != len(test) || (c.want == MethodSVM && !slices.Equal(w.Predictions, svmSaid)) {
			t.Errorf("FGW-SVM inner accuracy %v: %+v, want %s deciding", c.svm, w, c.want)
		}
	}
}

// TestEstimateTemplates: a positive estimate, in proportion to the epochs; bad folds refused.
func TestEstimateTemplates(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	est, err := EstimateTemplates(context.Background(), ds.Graphs, labels, 2, smallTemplates(), 10, 5, 1)
	if err != nil || est <= 0 {
		t.Fatalf("estimate %v, %v", est, err)
	}
	one, err := EstimateTemplates(context.Background(), ds.Graphs, labels, 2, smallTemplates(), 1, 5, 1)
	if err != nil || one <= 0 || one > est {
		t.Errorf("one classifier on all graphs: estimate %v (%v), ten folds %v", one, err, est)
	}
	if _, err := EstimateTemplates(context.Background(), ds.Graphs, labels, 2, smallTemplates(), 10, 1, 1); err == nil {
		t.Error("one inner fold: no error")
	}
}
