package crossval

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
)

func TestValidationSplit(t *testing.T) {
	labels := []int{0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, semisup.Unlabeled, semisup.Unlabeled}
	inner, val := ValidationSplit(labels, 0.2, 7)
	count := map[int]int{}
	for _, i := range val {
		if labels[i] == semisup.Unlabeled || inner[i] != semisup.Unlabeled {
			t.Fatalf("graph %d (label %d) validated and inner label %d", i, labels[i], inner[i])
		}
		count[labels[i]]++
	}
	// 20% of 5 and 10, at least one; the single graph of class 2 stays for training.
	if count[0] != 1 || count[1] != 2 || count[2] != 0 {
		t.Errorf("validation per class %v, want 1, 2, 0", count)
	}
	for i, l := range inner {
		if l != semisup.Unlabeled && l != labels[i] {
			t.Errorf("inner label %d of graph %d, want %d", l, i, labels[i])
		}
	}
	if _, again := ValidationSplit(labels, 0.2, 7); !slices.Equal(again, val) {
		t.Error("the split is not deterministic for a seed")
	}
}

// TestNestedFoldIgnoresHeldOutLabels: changing the held-out graphs' labels changes neither
// what is chosen nor what is predicted; only the score moves.
func TestNestedFoldIgnoresHeldOutLabels(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 40, 5)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 3
	head := semisup.HeadTraining{Steps: 50, LearningRate: 0.05}
	sel := Selection{Seed: 3, Candidates: []semisup.Config{
		{Beta: 0.1, Hidden: []int{4}, Activation: semisup.ReLU, Input: semisup.InputCentered, Head: head},
		{Beta: 0.1, Hidden: []int{4}, Activation: semisup.ReLU, Input: semisup.InputCentered, Head: head, Detach: true},
	}}
	var test []int
	for i := 0; i < len(data); i += 4 {
		test = append(test, i)
	}
	flipped := slices.Clone(labels)
	for _, i := range test {
		flipped[i] = 1 - flipped[i]
	}
	ctx := context.Background()
	a, err := NestedFold(ctx, data, labels, test, 2, gwf, sel, semisup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NestedFold(ctx, data, flipped, test, 2, gwf, sel, semisup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Choice, b.Choice) || !slices.Equal(a.Predictions, b.Predictions) {
		t.Fatalf("held-out labels changed the choice or the predictions:\n%+v %v\n%+v %v", a.Choice, a.Predictions, b.Choice, b.Predictions)
	}
	if a.Accuracy+b.Accuracy != 1 {
		t.Errorf("accuracies %v and %v on flipped labels should sum to 1", a.Accuracy, b.Accuracy)
	}
	if len(a.Choice.Curves) != 2 || len(a.Choice.Curves[0]) != gwf.Epochs {
		t.Errorf("curves %v, want 2 candidates × %d epochs", a.Choice.Curves, gwf.Epochs)
	}
	if got := slices.Max(a.Choice.Curves[a.Choice.Candidate]); got != a.Choice.ValidationAccuracy || a.Choice.Curves[a.Choice.Candidate][a.Choice.Epoch-1] != got {
		t.Errorf("chose epoch %d of candidate %d at %v, curves %v", a.Choice.Epoch, a.Choice.Candidate, a.Choice.ValidationAccuracy, a.Choice.Curves)
	}
}

// TestSelectModel: the returned model is the chosen epoch's, with or without a refit, and
// resuming it trains no further.
func TestSelectModel(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 30, 9)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 3
	cfg := semisup.Config{Beta: 0.1, Hidden: []int{4}, Activation: semisup.ReLU, Input: semisup.InputCentered, Head: semisup.HeadTraining{Steps: 30, LearningRate: 0.05}}
	for _, refit := range []bool{false, true} {
		m, c, err := Select(context.Background(), data, labels, 2, gwf, Selection{Candidates: []semisup.Config{cfg}, Refit: refit}, semisup.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.History) != c.Epoch || m.GWF.Config.Epochs != c.Epoch || m.HeadTrainedAt != c.Epoch || c.Validation != 6 {
			t.Errorf("refit %v: %d epochs (config %d, head trained at %d), chose %d on %d graphs", refit, len(m.History), m.GWF.Config.Epochs, m.HeadTrainedAt, c.Epoch, c.Validation)
		}
		before := m.Predict()
		if err := semisup.Fit(context.Background(), m, data, labels, semisup.Options{}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(before, m.Predict()) || len(m.History) != c.Epoch {
			t.Errorf("refit %v: resuming the selected model changed it", refit)
		}
	}
	if _, _, err := Select(context.Background(), data, labels, 2, gwf, Selection{}, semisup.Options{}); err == nil {
		t.Error("no candidate: no error")
	}
	if _, _, err := Select(context.Background(), data, labels, 2, gwf, Selection{Candidates: []semisup.Config{cfg}, Validation: 1}, semisup.Options{}); err == nil {
		t.Error("validation fraction 1: no error")
	}
}

// TestCrossValidateNestedWithBaselines: every fold records its choice and both baselines.
func TestCrossValidateNestedWithBaselines(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 30, 11)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 2
	cfg := semisup.Config{Beta: 0.1, Hidden: []int{4}, Activation: semisup.ReLU, Input: semisup.InputCentered, Head: semisup.HeadTraining{Steps: 30, LearningRate: 0.05}}
	res, err := CrossValidate(context.Background(), data, labels, 2, gwf, cfg, CVOptions{Folds: 3, Seed: 1, Baselines: true, LogRegGrid: []float64{0.1, 10}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 {
		t.Fatalf("%d folds", len(res))
	}
	for _, r := range res {
		if r.Choice == nil || r.Beta0 == nil || r.LogReg == nil || r.SVM == nil || len(r.Predictions) != r.Test || len(r.Graphs) != r.Test {
			t.Fatalf("fold %d: %+v", r.Fold, r)
		}
		if r.SVM.C == 0 || r.SVM.Gamma == 0 {
			t.Errorf("fold %d: SVM baseline chose C = %v, γ = %v", r.Fold, r.SVM.C, r.SVM.Gamma)
		}
		for _, acc := range []float64{r.Accuracy, r.Beta0.Accuracy, r.LogReg.Accuracy, r.SVM.Accuracy} {
			if acc < 0 || acc > 1 {
				t.Errorf("fold %d: accuracy %v", r.Fold, acc)
			}
		}
		if r.LogReg.C != 0.1 && r.LogReg.C != 10 {
			t.Errorf("fold %d: C = %v not from the grid", r.Fold, r.LogReg.C)
		}
		if r.Beta0.Epoch < 1 || r.Beta0.Epoch > gwf.Epochs {
			t.Errorf("fold %d: β = 0 epoch %d", r.Fold, r.Beta0.Epoch)
		}
	}
}

// TestSVMFoldIgnoresHeldOutLabels: the SVM baseline's predictions of the held-out graphs do
// not depend on their labels, and it separates two structures.
func TestSVMFoldIgnoresHeldOutLabels(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 40, 5)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 3
	cfg := semisup.Config{Beta: 0.1, Hidden: []int{4}, Activation: semisup.ReLU, Input: semisup.InputCentered, Head: semisup.HeadTraining{Steps: 30, LearningRate: 0.05}}
	u, err := FitUnsupervised(context.Background(), data, 2, gwf, cfg, semisup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var test []int
	for i := 0; i < len(data); i += 4 {
		test = append(test, i)
	}
	flipped := slices.Clone(labels)
	for _, i := range test {
		flipped[i] = 1 - flipped[i]
	}
	a, pa, err := u.SVMFold(context.Background(), labels, test, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, pb, err := u.SVMFold(context.Background(), flipped, test, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pa, pb) || a.C != b.C || a.Gamma != b.Gamma || a.Accuracy+b.Accuracy != 1 {
		t.Fatalf("held-out labels changed the SVM baseline: %+v %v vs %+v %v", a, pa, b, pb)
	}
	if a.Accuracy < 0.8 {
		t.Errorf("SVM baseline accuracy %v on two structures", a.Accuracy)
	}
}

// TestGridCandidates: the grid crosses its lists, β slowest, and an empty list keeps the base
// value.
func TestGridCandidates(t *testing.T) {
	base := semisup.DefaultConfig()
	if got := (Grid{}).Candidates(base); len(got) != 1 || got[0].Beta != base.Beta {
		t.Fatalf("an empty grid gives %d candidates, want the base alone", len(got))
	}
	got := Grid{Beta: []float64{0.1, 1}, Detach: []bool{false, true}, Hidden: [][]int{nil, {8}}}.Candidates(base)
	if len(got) != 8 {
		t.Fatalf("%d candidates, want 2 × 2 × 2", len(got))
	}
	for i, c := range got {
		wantBeta, wantDetach, wantLayers := []float64{0.1, 1}[i/4], i/2%2 == 1, i%2
		if c.Beta != wantBeta || c.Detach != wantDetach || len(c.Hidden) != wantLayers || c.Head != base.Head {
			t.Errorf("candidate %d: β %v detach %v hidden %v, want β %v detach %v %d layers", i, c.Beta, c.Detach, c.Hidden, wantBeta, wantDetach, wantLayers)
		}
	}
}
