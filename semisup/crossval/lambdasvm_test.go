package crossval

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/subset"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
	"github.com/gwf-graphs/gwf/training"
)

// TestSVMFoldEpochsChoosesByInnerAccuracy: with several epochs, the SVM reads the epoch whose
// inner cross-validation (SVMFold on the history up to it) scores best, ties to the earlier,
// and its result is that epoch's SVMFold; here the one epoch whose λ carries the class wins.
func TestSVMFoldEpochsChoosesByInnerAccuracy(t *testing.T) {
	const n, k = 60, 6
	rng := rand.New(rand.NewPCG(4, 2))
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i % 2
	}
	noise := func(carry bool) *mat.Dense {
		z := mat.NewDense(n, k, nil)
		for i := range n {
			for j := range k {
				z.Set(i, j, rng.NormFloat64())
			}
			if carry {
				z.Set(i, labels[i], z.At(i, labels[i])+3)
			}
		}
		return z
	}
	head, err := semisup.NewMLP(k, nil, 2, semisup.ReLU, rng)
	if err != nil {
		t.Fatal(err)
	}
	u := &Unsupervised{Head: head, Config: semisup.DefaultConfig(), Z: []*mat.Dense{noise(false), noise(true), noise(false)}}
	var test []int
	for i := 0; i < n; i += 5 {
		test = append(test, i)
	}
	ctx := context.Background()
	best, bestVal := 0, -1.0
	var per []Baseline
	var preds [][]int
	for e := 1; e <= 3; e++ {
		v := &Unsupervised{Head: head, Config: u.Config, Z: u.Z[:e]}
		b, p, err := v.SVMFold(ctx, labels, test, 5, 3)
		if err != nil {
			t.Fatal(err)
		}
		per, preds = append(per, b), append(preds, p)
		if b.ValidationAccuracy > bestVal {
			best, bestVal = e, b.ValidationAccuracy
		}
	}
	if best != 2 {
		t.Fatalf("the inner accuracies %v, %v, %v do not favour the epoch that carries the class", per[0].ValidationAccuracy, per[1].ValidationAccuracy, per[2].ValidationAccuracy)
	}
	got, pred, err := u.SVMFoldEpochs(ctx, labels, test, []int{1, 2, 3}, 5, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, per[best-1]) || !slices.Equal(pred, preds[best-1]) {
		t.Fatalf("chose %+v, want epoch %d's %+v", got, best, per[best-1])
	}
	if got.Accuracy < 0.9 {
		t.Errorf("accuracy %v with the class in λ", got.Accuracy)
	}
	if _, _, err := u.SVMFoldEpochs(ctx, labels, test, []int{4}, 5, 1, 3); err == nil {
		t.Error("an epoch past the model's: no error")
	}
}

// TestCrossValidateLambdaSVM: the lambda-svm cross-validation scores what the nested
// protocol's SVM baseline scores on the same folds (the same model, SVM and seeds); with a
// directory, a rerun reuses the model trained without labels and reports the same.
func TestCrossValidateLambdaSVM(t *testing.T) {
	ds, labels, gwf := twoStructures(t)
	data, ctx := ds.Graphs, context.Background()
	opt := CVOptions{Folds: 4, Seed: 2}
	// One fold assignment: the baseline is GDL's protocol, one inner split.
	rep, err := CrossValidateLambdaSVM(ctx, ds, labels, 2, gwf, LambdaSVMSpec{InnerRepeats: 1}, opt)
	if err != nil {
		t.Fatal(err)
	}
	base := opt
	base.Baselines = true
	folds, err := CrossValidate(ctx, data, labels, 2, gwf, semisup.DefaultConfig(), base)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Folds) != 4 {
		t.Fatalf("%d folds", len(rep.Folds))
	}
	for f, r := range rep.Folds {
		if r.Accuracy != folds[f].SVM.Accuracy || r.Epoch != 3 || r.Test != len(r.Graphs) || len(r.Predictions) != r.Test {
			t.Errorf("fold %d: %+v, the SVM baseline's %+v", f+1, r, *folds[f].SVM)
		}
	}
	if rep.Accuracy.Mean < 0.8 || rep.Method != MethodLambdaSVM || rep.Confusion == nil {
		t.Errorf("report: accuracy %v, method %q, confusion %v", rep.Accuracy.Mean, rep.Method, rep.Confusion)
	}

	dir := t.TempDir()
	spec := LambdaSVMSpec{Epochs: []int{1, 3}}
	var said []string
	withDir := CVOptions{Folds: 4, Seed: 2, Dir: dir, Options: semisup.Options{Observe: observer(func(_ bool, msg string) { said = append(said, msg) }, nil)}}
	a, err := CrossValidateLambdaSVM(ctx, ds, labels, 2, gwf, spec, withDir)
	if err != nil {
		t.Fatal(err)
	}
	said = nil
	b, err := CrossValidateLambdaSVM(ctx, ds, labels, 2, gwf, spec, withDir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(said, "\n"), "reusing") {
		t.Errorf("the rerun did not reuse the saved model: %q", said)
	}
	if !reflect.DeepEqual(a.Folds, b.Folds) {
		t.Errorf("the rerun reports other folds")
	}
	for _, r := range a.Folds {
		if r.Epoch != 1 && r.Epoch != 3 {
			t.Errorf("fold %d chose epoch %d, not one of %v", r.Fold, r.Epoch, spec.Epochs)
		}
	}
	if _, err := CrossValidateLambdaSVM(ctx, ds, labels, 2, gwf, LambdaSVMSpec{Epochs: []int{4}}, opt); err == nil {
		t.Error("an SVM epoch past the model's: no error")
	}
}

// TestFractionLambdaSVM: with a labelled fraction the SVM is trained on the kept labels and
// scored on the others; the same model fitted on the labelled graphs alone is scored on the
// same graphs. (That the SVM never reads a held-out label: TestSVMFoldIgnoresHeldOutLabels.)
func TestFractionLambdaSVM(t *testing.T) {
	ds, labels, gwf := twoStructures(t)
	ctx := context.Background()
	p := Fraction{Share: 0.5, Seed: 3}
	spec := LambdaSVMSpec{Epochs: []int{2, 3}, LabelsAlone: true}
	rep, s, err := FractionLambdaSVM(ctx, ds, labels, 2, gwf, p, spec, CVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Labeled != 20 || rep.Split.Test != 20 || s.Scored != 20 || rep.LabelsAlone == nil || rep.LabelsAlone.Test != 20 {
		t.Fatalf("labelled %d, scored %d/%d, labels alone %+v", rep.Labeled, rep.Split.Test, s.Scored, rep.LabelsAlone)
	}
	if rep.Accuracy.Mean != s.Accuracy || s.Accuracy < 0.8 {
		t.Errorf("accuracy %v, split %v", rep.Accuracy.Mean, s.Accuracy)
	}
	for _, b := range []Baseline{rep.Split.Baseline, rep.LabelsAlone.Baseline} {
		if b.Epoch != 2 && b.Epoch != 3 {
			t.Errorf("epoch %d, not one of %v", b.Epoch, spec.Epochs)
		}
	}
	right := 0
	for i, l := range s.Train {
		if l == semisup.Unlabeled && s.Predicted[i] == labels[i] {
			right++
		}
	}
	if float64(right)/20 != s.Accuracy {
		t.Errorf("%d of the 20 hidden graphs predicted right, accuracy %v", right, s.Accuracy)
	}
	if _, _, err := FractionLambdaSVM(ctx, ds, labels, 2, gwf, Fraction{Share: 1, Seed: 1}, spec, CVOptions{}); err == nil {
		t.Error("every label kept: no error")
	}
	// Too few labels for the SVM's inner cross-validation: refused before anything trains.
	if _, _, err := FractionLambdaSVM(ctx, ds, labels, 2, gwf, Fraction{Share: 0.05, Seed: 1}, spec, CVOptions{}); err == nil || !strings.Contains(err.Error(), "two classes with at least two labelled graphs") {
		t.Errorf("two labelled graphs: error %v", err)
	}
}

// twoStructures is a small dataset of two classes that differ in structure, and a GWF model of
// a few epochs for it.
func twoStructures(t *testing.T) (*graphs.Dataset, []int, training.Config) {
	data, labels := semisuptest.TwoStructures(t, 40, 5)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 3
	return &graphs.Dataset{Name: "two", Graphs: data, ClassNames: []string{"a", "b"}}, labels, gwf
}

// TestLabelsAloneEmbedsEveryGraphAsUnseen: the labels-alone side embeds every graph, the
// labelled ones too, with the atoms of the model fitted on the labelled graphs held fixed, as
// 'gwf predict' embeds unseen graphs; the SVM then trains and predicts on one kind of embedding.
func TestLabelsAloneEmbedsEveryGraphAsUnseen(t *testing.T) {
	ds, labels, gwf := twoStructures(t)
	ctx := context.Background()
	train := semisup.KeepLabels(labels, 0.5, 3)
	u, err := fitLabelsAlone(ctx, ds.Graphs, train, 2, gwf, nil, CVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sub := pick(ds.Graphs, labelled(train))
	m, _, err := newUnsupervised(sub, 2, gwf, semisup.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if err := semisup.Fit(ctx, m, sub, semisup.NoLabels(len(sub)), semisup.Options{}); err != nil {
		t.Fatal(err)
	}
	want, err := training.Transform(ctx, m.GWF, ds.Graphs, gwf.Epochs, training.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := u.Z[gwf.Epochs-1]
	if !mat.Equal(got, want) {
		t.Fatal("the labels-alone embeddings are not every graph's transform embeddings")
	}
	if mat.Equal(subset.Rows(got, labelled(train)), m.GWF.Z) {
		t.Error("the labelled graphs kept their training embeddings")
	}
	for e, z := range u.Z[:gwf.Epochs-1] {
		if z != nil {
			t.Errorf("epoch %d embedded, not asked for", e+1)
		}
	}
}
