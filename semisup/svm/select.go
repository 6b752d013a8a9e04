package svm

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/split"
)

// StratifiedFolds assigns each of the items labelled y to one of k folds, stratified by
// class: each class's items, shuffled with seed, are dealt round-robin, and each class starts
// where the previous one stopped, so every class is spread over the folds within one item and
// the folds' sizes differ by at most one. The same y, k and seed give the same folds. A class
// with fewer than k items is simply absent from some folds. Labels may be any ints. Its
// generator is its own (split.Stratified), so these inner folds are not the outer ones of
// semisup.Folds with the same seed. It returns an error if k < 2 or k > len(y).
func StratifiedFolds(y []int, k int, seed uint64) ([]int, error) {
	fold, err := split.Stratified(y, k, rand.New(rand.NewPCG(seed, 0x5f01d5)))
	if err != nil {
		return nil, fmt.Errorf("svm: %w", err)
	}
	return fold, nil
}

// RepeatedStratifiedFolds is max(1, repeats) fold assignments of StratifiedFolds, seeded
// seed, seed+1, ...: the assignments whose mean accuracy SelectExp ranks candidates by when a
// cross-validation is repeated.
func RepeatedStratifiedFolds(y []int, k, repeats int, seed uint64) ([][]int, error) {
	folds := make([][]int, max(1, repeats))
	for r := range folds {
		fold, err := StratifiedFolds(y, k, seed+uint64(r))
		if err != nil {
			return nil, err
		}
		folds[r] = fold
	}
	return folds, nil
}

// CrossValAccuracy scores c by cross-validation on the training kernel k: for each fold f
// (the values in fold, as from StratifiedFolds), it trains on the items outside f (Fit on the
// sub-kernel, with the same classes) and predicts the items in f, and it returns the mean
// of the folds' accuracies. Folds without items are skipped. It returns an error where Fit
// would on the whole problem, if len(fold) ≠ len(y), a fold index is negative, there is only
// one fold, or a fold's training items hold a single class.
func CrossValAccuracy(
	k mat.Symmetric, y []int, classes int, c float64, fold []int,
) (float64, error) {
	cv, err := newCrossValidation(k, y, classes, c, fold)
	if err != nil {
		return 0, err
	}
	accs := make([]float64, len(cv.members))
	for f := range cv.members {
		if accs[f], err = cv.foldAccuracy(k, y, classes, c, f); err != nil {
			return 0, err
		}
	}
	return cv.mean(accs), nil
}

// crossValidation is a checked fold assignment: the items of each fold.
type crossValidation struct {
	fold    []int
	members [][]int
}

// newCrossValidation checks the problem and the fold assignment as CrossValAccuracy does.
func newCrossValidation(k mat.Symmetric, y []int, classes int, c float64, fold []int) (crossValidation, error) {
	if _, err := checkProblem(k, y, classes, c); err != nil {
		return crossValidation{}, fmt.Errorf("svm: %w", err)
	}
	if err := checkKernel(newSymReader(k), len(y)); err != nil {
		return crossValidation{}, fmt.Errorf("svm: %w", err)
	}
	if len(fold) != len(y) {
		return crossValidation{}, fmt.Errorf("svm: %d fold indices for %d items", len(fold), len(y))
	}
	folds := 0
	for i, f := range fold {
		if f < 0 {
			return crossValidation{}, fmt.Errorf("svm: item %d has fold %d: need folds ≥ 0", i, f)
		}
		folds = max(folds, f+1)
	}
	members := make([][]int, folds)
	for i, f := range fold {
		members[f] = append(members[f], i)
	}
	return crossValidation{fold: fold, members: members}, nil
}

// foldAccuracy trains on the items outside fold f and returns the accuracy on those in it (0
// for an empty fold, which mean skips).
func (cv crossValidation) foldAccuracy(k mat.Symmetric, y []int, classes int, c float64, f int) (float64, error) {
	test := cv.members[f]
	if len(test) == 0 {
		return 0, nil
	}
	train := make([]int, 0, len(y)-len(test))
	for i, g := range cv.fold {
		if g != f {
			train = append(train, i)
		}
	}
	if len(train) == 0 {
		return 0, errors.New("svm: there is only one fold: nothing to train on")
	}
	ytrain := make([]int, len(train))
	for i, o := range train {
		ytrain[i] = y[o]
	}
	m, err := fit(subSym{k: k, idx: train}, ytrain, classes, c)
	if err != nil {
		return 0, fmt.Errorf("svm: fold %d: %w", f, err)
	}
	kr := mat.DenseCopyOf(subMat{k: k, rows: test, cols: train})
	right := 0
	for i, p := range m.Predict(kr) {
		if p == y[test[i]] {
			right++
		}
	}
	return float64(right) / float64(len(test)), nil
}

// mean is the mean of the accuracies of the folds with items, summed in fold order.
func (cv crossValidation) mean(accs []float64) float64 {
	sum, scored := 0.0, 0
	for f, a := range accs {
		if len(cv.members[f]) > 0 {
			sum += a
			scored++
		}
	}
	return sum / float64(scored)
}
