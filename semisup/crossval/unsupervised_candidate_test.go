package crossval

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
)

// TestChooseUnsupervised: the β = 0 head replaces the trained candidate exactly when it scores
// better on the validation split (higher accuracy, then lower loss), and the trained
// candidate's held-out accuracy is kept either way.
func TestChooseUnsupervised(t *testing.T) {
	for _, c := range []struct {
		name             string
		bAcc, bLoss      float64
		wantUnsupervised bool
	}{
		{"β = 0 more accurate", 0.8, 0.9, true},
		{"as accurate, lower loss", 0.7, 0.4, true},
		{"as accurate, same loss", 0.7, 0.5, false},
		{"as accurate, higher loss", 0.7, 0.6, false},
		{"less accurate", 0.6, 0.1, false},
	} {
		r := FoldResult{Accuracy: 0.55, TrainAccuracy: 0.99, Predicted: []int{3, 1}, Predictions: []int{0, 0, 0, 1},
			Choice: &Choice{ValidationAccuracy: 0.7, ValidationLoss: 0.5},
			Beta0:  &Baseline{Accuracy: 0.75, TrainAccuracy: 0.8, Predicted: []int{2, 2}, ValidationAccuracy: c.bAcc, ValidationLoss: c.bLoss}}
		r.chooseUnsupervised([]int{0, 1, 0, 1})
		if r.JointAccuracy == nil || *r.JointAccuracy != 0.55 {
			t.Errorf("%s: joint accuracy %v, want 0.55", c.name, r.JointAccuracy)
		}
		if r.Choice.Unsupervised != c.wantUnsupervised {
			t.Errorf("%s: chose the β = 0 head %v, want %v", c.name, r.Choice.Unsupervised, c.wantUnsupervised)
		}
		want := FoldResult{Accuracy: 0.55, TrainAccuracy: 0.99, Predicted: []int{3, 1}, Predictions: []int{0, 0, 0, 1}}
		if c.wantUnsupervised {
			want = FoldResult{Accuracy: 0.75, TrainAccuracy: 0.8, Predicted: []int{2, 2}, Predictions: []int{0, 1, 0, 1}}
		}
		if r.Accuracy != want.Accuracy || r.TrainAccuracy != want.TrainAccuracy || !slices.Equal(r.Predicted, want.Predicted) || !slices.Equal(r.Predictions, want.Predictions) {
			t.Errorf("%s: result %v %v %v %v, want %v %v %v %v", c.name, r.Accuracy, r.TrainAccuracy, r.Predicted, r.Predictions,
				want.Accuracy, want.TrainAccuracy, want.Predicted, want.Predictions)
		}
	}
}

// TestCrossValidateUnsupervisedCandidate: with the β = 0 candidate every fold keeps the trained
// model's result (the same as without the candidate) as its joint accuracy, computes the
// baselines even when not asked, and is the β = 0 head's result where that scored better on
// validation; the held-out labels choose nothing. A fold directory saved without the candidate
// keeps its trained models and only adds the candidate.
func TestCrossValidateUnsupervisedCandidate(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 30, 11)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 2
	cfg := semisup.Config{Beta: 0.1, Hidden: []int{4}, Activation: semisup.ReLU, Input: semisup.InputCentered, Head: semisup.HeadTraining{Steps: 30, LearningRate: 0.05}}
	plainSel := Selection{Candidates: []semisup.Config{cfg}, Seed: 1}
	withSel := plainSel
	withSel.Unsupervised = true
	opt := CVOptions{Folds: 3, Seed: 1, LogRegGrid: []float64{0.1, 10}}
	plainOpt, withOpt := opt, opt
	plainOpt.Select, plainOpt.Baselines = &plainSel, true
	withOpt.Select = &withSel
	plain, err := CrossValidate(context.Background(), data, labels, 2, gwf, cfg, plainOpt)
	if err != nil {
		t.Fatal(err)
	}
	with, err := CrossValidate(context.Background(), data, labels, 2, gwf, cfg, withOpt)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range with {
		p := plain[i]
		if r.JointAccuracy == nil || *r.JointAccuracy != p.Accuracy || r.Beta0 == nil || r.LogReg == nil || r.Beta0.Accuracy != p.Beta0.Accuracy || r.Beta0.Epoch != p.Beta0.Epoch {
			t.Fatalf("fold %d: %+v\nwithout the candidate: %+v", r.Fold, r, p)
		}
		b, c := r.Beta0, r.Choice
		better := b.ValidationAccuracy > c.ValidationAccuracy || b.ValidationAccuracy == c.ValidationAccuracy && b.ValidationLoss < c.ValidationLoss
		if c.Unsupervised != better {
			t.Errorf("fold %d: chose the β = 0 head %v, its validation %v / %v against %v / %v", r.Fold, c.Unsupervised, b.ValidationAccuracy, b.ValidationLoss, c.ValidationAccuracy, c.ValidationLoss)
		}
		want := p.Accuracy
		if better {
			want = b.Accuracy
		}
		if r.Accuracy != want || len(r.Predictions) != r.Test {
			t.Errorf("fold %d: accuracy %v, want %v", r.Fold, r.Accuracy, want)
		}
	}
	if s := Summarize(with); s == nil || s.Joint == nil || s.Folds != 3 {
		t.Errorf("summary %+v: want the joint score over 3 folds", s)
	}

	// The held-out labels choose nothing: flipping those of fold 1 (on the same folds) changes
	// only its scores.
	test := heldOut(mustFolds(t, labels, 3, 1), 0)
	flipped := hide(labels, nil)
	for _, i := range test {
		flipped[i] = 1 - flipped[i]
	}
	one := withOpt
	one.Skip = func(f int) bool { return f != 1 }
	again, err := nestedCV(context.Background(), data, flipped, mustFolds(t, labels, 3, 1), 2, gwf, cfg, one, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again[0].Choice.Unsupervised != with[0].Choice.Unsupervised || !slices.Equal(again[0].Predictions, with[0].Predictions) {
		t.Errorf("fold 1 with its held-out labels flipped: chose %v, predicted %v; before %v, %v",
			again[0].Choice.Unsupervised, again[0].Predictions, with[0].Choice.Unsupervised, with[0].Predictions)
	}

	// A fold directory of the run without the candidate: its trained models are reused (fold 1's
	// accuracy marked to tell), the candidate added, and the folds saved with it.
	dir := t.TempDir() + "/folds"
	plainOpt.Dir, withOpt.Dir = dir, dir
	if _, err := CrossValidate(context.Background(), data, labels, 2, gwf, cfg, plainOpt); err != nil {
		t.Fatal(err)
	}
	rec := readFoldRecord(t, dir, 1)
	rec.Result.Accuracy = 0.123
	if err := saveFold(dir, rec, rec.Result); err != nil {
		t.Fatal(err)
	}
	var logged []string
	withOpt.Observe = observer(savedLog(&logged), nil)
	upgraded, err := CrossValidate(context.Background(), data, labels, 2, gwf, cfg, withOpt)
	if err != nil {
		t.Fatal(err)
	}
	if len(logged) != 4 || !strings.Contains(logged[0], "adding the β = 0 candidate") || !strings.HasPrefix(logged[3], "reusing the model trained without labels") {
		t.Fatalf("log %q; want three folds' trained models and the unsupervised model reused", logged)
	}
	if *upgraded[0].JointAccuracy != 0.123 {
		t.Errorf("fold 1: joint accuracy %v, want the saved 0.123 (trained again?)", *upgraded[0].JointAccuracy)
	}
	for i := 1; i < 3; i++ {
		if got, want := withoutSeconds(t, upgraded[i]), withoutSeconds(t, with[i]); got != want {
			t.Errorf("fold %d upgraded:\n%s\nwant (one run):\n%s", i+1, got, want)
		}
	}
	logged = nil
	if _, err := CrossValidate(context.Background(), data, labels, 2, gwf, cfg, withOpt); err != nil {
		t.Fatal(err)
	}
	reused := 0
	for _, l := range logged {
		if strings.HasPrefix(l, "fold ") && strings.Contains(l, ": reusing "+dir) {
			reused++
		}
	}
	if reused != 3 {
		t.Errorf("run again: %d folds reused whole, want 3 (log %q)", reused, logged)
	}
	// Without the GWF term there is no β = 0 model.
	noGWF := cfg
	noGWF.NoGWF = true
	bad := Selection{Candidates: []semisup.Config{noGWF}, Seed: 1, Unsupervised: true}
	if _, err := CrossValidate(context.Background(), data, labels, 2, gwf, noGWF, CVOptions{Folds: 3, Seed: 1, Select: &bad}); err == nil {
		t.Error("β = 0 candidate without the GWF term: no error")
	}
}

func mustFolds(t *testing.T, labels []int, k int, seed uint64) []int {
	t.Helper()
	f, err := semisup.Folds(labels, k, seed)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
