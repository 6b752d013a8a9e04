package crossval

import (
	"context"
	"math"
	"testing"

	"github.com/gwf-graphs/gwf/internal/meanstd"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
)

func TestCrossValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("trains several models")
	}
	data, labels := semisuptest.TwoStructures(t, 40, 11)
	cfg := semisuptest.SmallGWF()
	res, err := CrossValidate(context.Background(), data, labels, 2, cfg, semisup.Config{Beta: 0.1, Hidden: []int{8}, Activation: semisup.ReLU}, CVOptions{Folds: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 4 {
		t.Fatalf("%d folds", len(res))
	}
	if mean := FoldAccuracy(res).Mean; mean < 0.8 {
		t.Errorf("cross-validated accuracy %.2f on a clear problem: %+v", mean, res)
	}
	for _, r := range res {
		n := 0
		for _, c := range r.Predicted {
			n += c
		}
		if len(r.Predicted) != 2 || n != r.Test || r.TrainAccuracy < 0.8 || r.TrainAccuracy > 1 {
			t.Errorf("fold %d: predicted per class %v for %d graphs, accuracy on the labelled graphs %.2f", r.Fold, r.Predicted, r.Test, r.TrainAccuracy)
		}
		// One held-out accuracy per joint epoch, each a fraction of the fold's graphs.
		if len(r.EpochAccuracy) != cfg.Epochs {
			t.Errorf("fold %d: %d per-epoch accuracies for %d epochs", r.Fold, len(r.EpochAccuracy), cfg.Epochs)
		}
		for _, a := range r.EpochAccuracy {
			if k := a * float64(r.Test); a < 0 || a > 1 || math.Abs(k-math.Round(k)) > 1e-9 {
				t.Errorf("fold %d: per-epoch accuracy %v is not a fraction of %d graphs", r.Fold, a, r.Test)
			}
		}
	}
	// Skipping folds 1 and 3 runs folds 2 and 4 only, with the same results.
	part, err := CrossValidate(context.Background(), data, labels, 2, cfg, semisup.Config{Beta: 0.1, Hidden: []int{8}, Activation: semisup.ReLU},
		CVOptions{Folds: 4, Seed: 1, Skip: func(f int) bool { return f%2 == 1 }})
	if err != nil {
		t.Fatal(err)
	}
	same := func(a, b FoldResult) bool { return a.Fold == b.Fold && a.Test == b.Test && a.Accuracy == b.Accuracy }
	if len(part) != 2 || !same(part[0], res[1]) || !same(part[1], res[3]) {
		t.Errorf("with folds 1 and 3 skipped: %+v, want %+v and %+v", part, res[1], res[3])
	}
}

// TestPredictNew: unseen graphs are embedded with the atoms fixed and classified by the head.

func TestBestEpoch(t *testing.T) {
	rs := []FoldResult{
		{Accuracy: 0.5, EpochAccuracy: []float64{0.4, 0.7, 0.6}},
		{Accuracy: 0.6, EpochAccuracy: []float64{0.5, 0.5}},
		{Accuracy: 0.9}, // saved before the field existed: left out
	}
	best := BestEpoch(rs)
	mean, std := meanstd.Of(best)
	if n := len(best); n != 2 || math.Abs(mean-0.6) > 1e-12 || !(std > 0) {
		t.Errorf("BestEpoch = %v ± %v over %d folds, want 0.6 over 2", mean, std, n)
	}
	if n := len(BestEpoch(nil)); n != 0 {
		t.Errorf("no folds: n = %d", n)
	}
	last := LastEpoch(rs)
	if mean, _ := meanstd.Of(last); len(last) != 2 || math.Abs(mean-0.55) > 1e-12 {
		t.Errorf("LastEpoch = %v over %d folds, want 0.55 over 2", mean, len(last))
	}
}
