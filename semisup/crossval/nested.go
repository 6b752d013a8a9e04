package crossval

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/subset"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
)

// NestedFold trains and scores one held-out fold with model selection: the labels of the
// graphs test are hidden, Select chooses on a validation split of the other labelled graphs
// (the held-out graphs take part in the GWF term unlabelled), and the chosen model's
// predictions on test are scored once. Nothing before the scoring reads labels[i] for i in test.
func NestedFold(ctx context.Context, data []*graphs.Graph, labels, test []int, classes int, gwf training.Config, sel Selection, opt semisup.Options) (FoldResult, error) {
	return nestedFold(ctx, data, labels, test, classes, gwf, sel, opt, nil)
}

// nestedFold is NestedFold, its selection resumed from and saved to resume where it is set.
func nestedFold(ctx context.Context, data []*graphs.Graph, labels, test []int, classes int, gwf training.Config, sel Selection, opt semisup.Options, resume *selectResume) (FoldResult, error) {
	t0 := time.Now()
	train := hide(labels, test)
	m, choice, err := selectResumable(ctx, data, train, classes, gwf, sel, opt, resume)
	if err != nil {
		return FoldResult{}, err
	}
	pred := m.Predict()
	r := FoldResult{Test: len(test), Graphs: append([]int(nil), test...), Predictions: subset.Ints(pred, test), Choice: choice}
	r.Accuracy, r.Predicted = scoreOn(pred, labels, test, classes)
	r.TrainAccuracy = labelledAccuracy(pred, train)
	r.Seconds = time.Since(t0).Seconds()
	return r, nil
}

// nestedCV is CrossValidate with opt.Select or opt.Baselines: NestedFold on every fold (or the
// trained candidates' result saved in the fold directory, dir.joint), and the baselines on the same folds
// from one unsupervised model shared by all of them; with Select.Unsupervised the β = 0 head
// is then a candidate too.
func nestedCV(ctx context.Context, data []*graphs.Graph, labels, fold []int, classes int, gwf training.Config, cfg semisup.Config, opt CVOptions, dir *dirHooks) ([]FoldResult, error) {
	sel := Selection{Candidates: []semisup.Config{cfg}, Seed: opt.Seed}
	if opt.Select != nil {
		sel = *opt.Select
	}
	if err := sel.Validate(); err != nil {
		return nil, err
	}
	baselines := opt.Baselines || sel.Unsupervised
	if baselines && sel.Candidates[0].NoGWF {
		return nil, errors.New("crossval: the baselines and the β = 0 candidate need the GWF term: without it (NoGWF) nothing trains without labels")
	}
	// Every fold's validation split is known before anything trains: a fold too small to hold
	// one out is an error now, not after the folds before it have trained.
	for f := 0; f < opt.Folds; f++ {
		if opt.Skip != nil && opt.Skip(f+1) {
			continue
		}
		if _, val := ValidationSplit(hide(labels, heldOut(fold, f)), sel.fraction(), sel.Seed); len(val) == 0 {
			return nil, fmt.Errorf("fold %d: %w", f+1, errNoValidation)
		}
	}
	var u *Unsupervised // fitted at the first fold that runs
	grid := opt.LogRegGrid
	if grid == nil {
		grid = semisup.DefaultCGrid()
	}
	var out []FoldResult
	clock := newFoldClock(opt.Folds, opt.Skip)
	for f := 0; f < opt.Folds; f++ {
		if opt.Skip != nil && opt.Skip(f+1) {
			continue
		}
		test := heldOut(fold, f)
		var r FoldResult
		var ok bool
		if dir != nil {
			r, ok = dir.joint[f+1]
		}
		if !ok {
			opt.log(false, fmt.Sprintf("fold %d/%d: training %d candidate(s) on %d graphs, the fold's %d unlabelled", f+1, opt.Folds, len(sel.Candidates), len(data), len(test)))
			var resume *selectResume
			var err error
			if dir != nil {
				_, val := ValidationSplit(hide(labels, test), sel.fraction(), sel.Seed)
				if resume, err = dir.foldResume(f+1, sel, len(val)); err != nil {
					return nil, fmt.Errorf("fold %d: %w", f+1, err)
				}
			}
			if r, err = nestedFold(ctx, data, labels, test, classes, gwf, sel, opt.Options, resume); err != nil {
				return nil, fmt.Errorf("fold %d: %w", f+1, err)
			}
			r.Fold = f + 1
		}
		if baselines && u == nil {
			var err error
			if dir != nil {
				u, err = dir.fitUnsupervised(ctx, sel.Candidates[0])
			} else {
				opt.log(false, trainingUnsupervised)
				u, err = FitUnsupervised(ctx, data, classes, gwf, sel.Candidates[0], opt.Options)
			}
			if err != nil {
				return nil, err
			}
		}
		if u != nil {
			b, pred, err := u.HeadFold(labels, test, sel)
			if err != nil {
				return nil, fmt.Errorf("fold %d: %w", f+1, err)
			}
			lr, _, err := u.LogRegFold(labels, test, grid, 5, opt.Seed)
			if err != nil {
				return nil, fmt.Errorf("fold %d: %w", f+1, err)
			}
			sv, _, err := u.SVMFold(ctx, labels, test, 5, opt.Seed)
			if err != nil {
				return nil, fmt.Errorf("fold %d: %w", f+1, err)
			}
			r.Beta0, r.LogReg, r.SVM = &b, &lr, &sv
			if sel.Unsupervised {
				r.chooseUnsupervised(pred)
			}
		}
		out = append(out, r)
		if err := opt.done(r, dir, clock); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// trainingUnsupervised is logged when the model without labels starts training.
const trainingUnsupervised = "training the model without labels (β = 0), once for all folds"

// chooseUnsupervised makes the β = 0 head (r.Beta0, predicting pred on the held-out graphs) a
// candidate of the fold's choice: it replaces the trained candidate's result when it scores
// better on the validation split, as Select compares (higher accuracy, then lower loss). The
// trained candidate's held-out accuracy stays in r.JointAccuracy.
func (r *FoldResult) chooseUnsupervised(pred []int) {
	joint := r.Accuracy
	r.JointAccuracy = &joint
	c, b := r.Choice, r.Beta0
	if b.ValidationAccuracy > c.ValidationAccuracy || b.ValidationAccuracy == c.ValidationAccuracy && b.ValidationLoss < c.ValidationLoss {
		c.Unsupervised = true
		r.Accuracy, r.TrainAccuracy, r.Predicted, r.Predictions = b.Accuracy, b.TrainAccuracy, b.Predicted, pred
	}
}
