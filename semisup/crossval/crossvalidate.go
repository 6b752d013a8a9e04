package crossval

import (
	"context"
	"fmt"
	"slices"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/meanstd"
	"github.com/gwf-graphs/gwf/internal/subset"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
)

// FoldResult is the accuracy on one held-out fold.
type FoldResult struct {
	Fold     int     `json:"fold"`
	Test     int     `json:"test_graphs"`
	Accuracy float64 `json:"accuracy"`
	// TrainAccuracy is the head's accuracy on the fold's labelled graphs: far above Accuracy
	// means the head (or the labelled graphs' own embeddings, which the cross-entropy moves)
	// fitted the training labels without generalising.
	TrainAccuracy float64 `json:"train_accuracy"`
	// Predicted counts the held-out graphs predicted in each class.
	Predicted []int `json:"predicted_per_class"`
	// EpochAccuracy is a diagnostic: the held-out accuracy of the jointly trained head after
	// each epoch, before the head is trained alone. The authors' code reports the best of these
	// per split, chosen on the held-out labels; nothing here is chosen on them.
	EpochAccuracy []float64 `json:"epoch_accuracy,omitempty"`
	Seconds       float64   `json:"seconds"`
	// Graphs are the held-out graphs (indices into the data) and Predictions the classes
	// predicted for them, in that order (absent from folds saved before they were kept outside
	// the nested protocol).
	Graphs      []int `json:"graphs,omitempty"`
	Predictions []int `json:"predictions,omitempty"`
	// Choice is what the nested protocol chose on the fold's validation split.
	Choice *Choice `json:"choice,omitempty"`
	// Beta0 and LogReg are the baselines on the same fold (CVOptions.Baselines): the same head
	// on the unsupervised embeddings, and logistic regression on the unsupervised λ.
	Beta0  *Baseline `json:"beta0,omitempty"`
	LogReg *Baseline `json:"logreg,omitempty"`
	// SVM is the third baseline: GDL's protocol, an SVM on the unsupervised λ (SVMFold).
	// Absent in folds saved before it existed.
	SVM *Baseline `json:"svm,omitempty"`
	// JointAccuracy is, with Selection.Unsupervised, the held-out accuracy of the trained
	// candidate Select chose: the fold's result had the β = 0 head not been a candidate (a
	// diagnostic; nothing chooses on it).
	JointAccuracy *float64 `json:"joint_accuracy,omitempty"`
}

// CVOptions configure CrossValidate.
type CVOptions struct {
	Folds int
	Seed  uint64 // of the fold split
	semisup.Options
	// FoldDone, if set, is called after every fold trained (not those reused from Dir), after
	// Observe has been told the fold's lines (FoldLines) with the folds left and their ETA.
	FoldDone func(FoldResult)
	// Skip, if set, names folds (1-based) not to run, e.g. those a resumed run already has.
	Skip func(fold int) bool
	// Dir, if set, keeps every finished fold in Dir/fold<f>.json with the data and settings it
	// was computed from, and a fold saved there with the same data and settings is reused
	// instead of trained again: a killed cross-validation continues where it stopped, with
	// the same results. The model trained without labels (Baselines, Select.Unsupervised) is
	// kept there too, as Dir/unsupervised.json. Both are checkpointed there after every epoch
	// while they train (nested protocol), so that a killed run resumes at its last epoch.
	Dir string

	// Select, if set, makes the protocol nested: inside each fold, Select chooses among
	// Select.Candidates and the stopping epoch on a validation split of the fold's labelled
	// graphs (the cfg argument is then unused), and the held-out fold is scored once at the end.
	Select *Selection
	// Baselines adds, on the same folds, the β = 0 head (chosen as Select chooses) and a
	// logistic regression on the unsupervised λ (C from LogRegGrid, nil:
	// semisup.DefaultCGrid()); so does Select.Unsupervised.
	Baselines  bool
	LogRegGrid []float64
}

// CrossValidate runs the paper's k-fold protocol for graph classification: for each fold, a
// model is trained (seed gwf.Seed) on all graphs, with the labels of the other folds and the
// held-out fold's graphs unlabelled — they take part in the GWF term only (transductive) — and
// the head's predictions on the held-out graphs are scored against their labels. It returns
// the results of the folds it ran or reused from opt.Dir (all but those opt.Skip names), in
// fold order.
func CrossValidate(ctx context.Context, data []*graphs.Graph, labels []int, classes int, gwf training.Config, cfg semisup.Config, opt CVOptions) ([]FoldResult, error) {
	fold, err := semisup.Folds(labels, opt.Folds, opt.Seed)
	if err != nil {
		return nil, err
	}
	if opt.Dir != "" {
		return crossValidateDir(ctx, data, labels, fold, classes, gwf, cfg, opt)
	}
	return crossValidate(ctx, data, labels, fold, classes, gwf, cfg, opt, nil)
}

// dirHooks are how crossValidateDir's fold directory takes part in a cross-validation.
type dirHooks struct {
	save func(FoldResult) error // keeps a finished fold
	// joint holds the folds saved without the β = 0 candidate (Selection.Unsupervised) and
	// otherwise the same settings: their trained candidates are reused, and only the β = 0
	// candidate is added.
	joint map[int]FoldResult
	// fitUnsupervised is FitUnsupervised through the file Dir/unsupervised.json: a model saved
	// there with the same data and settings is reused.
	fitUnsupervised func(ctx context.Context, cfg semisup.Config) (*Unsupervised, error)
	// foldResume checkpoints fold f's selection sel (with validation graphs) in the directory
	// after every epoch, resuming it from there (foldCheckpoint).
	foldResume func(f int, sel Selection, validation int) (*selectResume, error)
}

// crossValidate is CrossValidate without opt.Dir, on the folds fold; dir, if set, is the fold
// directory's part.
func crossValidate(ctx context.Context, data []*graphs.Graph, labels, fold []int, classes int, gwf training.Config, cfg semisup.Config, opt CVOptions, dir *dirHooks) ([]FoldResult, error) {
	if opt.Select != nil || opt.Baselines {
		return nestedCV(ctx, data, labels, fold, classes, gwf, cfg, opt, dir)
	}
	var out []FoldResult
	clock := newFoldClock(opt.Folds, opt.Skip)
	for f := 0; f < opt.Folds; f++ {
		if opt.Skip != nil && opt.Skip(f+1) {
			continue
		}
		train := append([]int(nil), labels...)
		var test []int
		for i := range train {
			if fold[i] == f {
				train[i] = semisup.Unlabeled
				test = append(test, i)
			}
		}
		m, err := semisup.NewModel(data, classes, gwf, cfg)
		if err != nil {
			return nil, err
		}
		fitOpt := opt.Options
		var perEpoch []float64
		fitOpt.EpochDone = func(m *semisup.Model) error {
			if m.HeadTrainedAt != len(m.History) { // after a joint epoch, not the final head training
				acc, _ := scoreOn(m.Predict(), labels, test, classes)
				perEpoch = append(perEpoch, acc)
			}
			if opt.EpochDone != nil {
				return opt.EpochDone(m)
			}
			return nil
		}
		if err := semisup.Fit(ctx, m, data, train, fitOpt); err != nil {
			return nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		pred := m.Predict()
		acc, predicted := scoreOn(pred, labels, test, classes)
		r := FoldResult{Fold: f + 1, Test: len(test), Accuracy: acc, Graphs: test, Predictions: subset.Ints(pred, test),
			TrainAccuracy: labelledAccuracy(pred, train), Predicted: predicted, EpochAccuracy: perEpoch}
		for _, h := range m.History {
			r.Seconds += h.Seconds
		}
		out = append(out, r)
		if err := opt.done(r, dir, clock); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// scoreOn is the accuracy of pred on the graphs test, and how many of them it puts in each class.
func scoreOn(pred, labels, test []int, classes int) (acc float64, predicted []int) {
	predicted = make([]int, classes)
	ok := 0
	for _, i := range test {
		predicted[pred[i]]++
		if pred[i] == labels[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(test)), predicted
}

// FoldAccuracy is the mean ± std of the folds' accuracies.
func FoldAccuracy(rs []FoldResult) MeanStd {
	xs := make([]float64, len(rs))
	for i, r := range rs {
		xs[i] = r.Accuracy
	}
	m, s := meanstd.Of(xs)
	return MeanStd{Mean: m, Std: s}
}

// BestEpoch reads the diagnostic FoldResult.EpochAccuracy: per fold, the best held-out
// accuracy over the epochs — the selection rule of the authors' code, which looks at the
// held-out labels and so overstates what the model scores on new graphs — for the folds that
// have it (those saved before the field existed do not). Summarise with cluster.MeanStd.
func BestEpoch(rs []FoldResult) []float64 {
	return perEpoch(rs, slices.Max[[]float64])
}

// LastEpoch is, per fold that has it, the held-out accuracy of the jointly trained head after
// the last epoch: what Config.Head.Steps = 0 would score, chosen on nothing.
func LastEpoch(rs []FoldResult) []float64 {
	return perEpoch(rs, func(xs []float64) float64 { return xs[len(xs)-1] })
}

// perEpoch is pick(EpochAccuracy) for each fold with per-epoch accuracies.
func perEpoch(rs []FoldResult, pick func([]float64) float64) []float64 {
	var xs []float64
	for _, r := range rs {
		if len(r.EpochAccuracy) > 0 {
			xs = append(xs, pick(r.EpochAccuracy))
		}
	}
	return xs
}

// labelledAccuracy is the accuracy of pred on the graphs with a label.
func labelledAccuracy(pred, labels []int) float64 {
	right, labelled := 0, 0
	for i, l := range labels {
		if l != semisup.Unlabeled {
			labelled++
			if pred[i] == l {
				right++
			}
		}
	}
	return float64(right) / float64(labelled)
}

// hide is labels with the graphs idx marked Unlabeled.
func hide(labels, idx []int) []int {
	out := slices.Clone(labels)
	for _, i := range idx {
		out[i] = semisup.Unlabeled
	}
	return out
}
