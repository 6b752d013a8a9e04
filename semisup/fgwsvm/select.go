package fgwsvm

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/subset"
	"github.com/gwf-graphs/gwf/semisup/svm"
)

// Grid is what inner cross-validation chooses among, besides the candidates.
type Grid struct {
	// Gammas are kernel widths relative to the median discrepancy of the training pairs: the
	// kernel is exp(−γ·d/median).
	Gammas []float64 `json:"gammas"`
	// Cs are the SVM's regularisation constants.
	Cs []float64 `json:"cs"`
	// Folds is the number of inner stratified folds; Seed seeds them.
	Folds int    `json:"folds"`
	Seed  uint64 `json:"seed"`
	// Repeats is the number of fold assignments (seeds Seed, Seed+1, ...) whose accuracies are
	// averaged: repeated cross-validation, steadier on small datasets; 0 means 1.
	Repeats int `json:"repeats,omitempty"`
}

// DefaultGrid is γ ∈ {0.01, 0.1, 1, 10, 100} (relative), C ∈ {0.01, …, 1000}, 5 inner folds.
func DefaultGrid() Grid {
	return Grid{
		Gammas: []float64{0.01, 0.1, 1, 10, 100},
		Cs:     []float64{0.01, 0.1, 1, 10, 100, 1000},
		Folds:  5, Seed: 1,
	}
}

// Validate checks the grid.
func (g Grid) Validate() error {
	if len(g.Gammas) == 0 || len(g.Cs) == 0 {
		return fmt.Errorf("fgwsvm: empty grid (%d γ, %d C)", len(g.Gammas), len(g.Cs))
	}
	for _, v := range append(append([]float64{}, g.Gammas...), g.Cs...) {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("fgwsvm: grid value %v: γ and C must be positive and finite", v)
		}
	}
	if g.Folds < 2 {
		return fmt.Errorf("fgwsvm: %d inner folds, need at least 2", g.Folds)
	}
	if g.Repeats < 0 || g.Repeats > MaxRepeats {
		return fmt.Errorf("fgwsvm: %d repeats of the inner folds, want 1..%d (0: 1)", g.Repeats, MaxRepeats)
	}
	return nil
}

// MaxRepeats bounds Grid.Repeats.
const MaxRepeats = 100

// Choice is what inner cross-validation chose.
type Choice struct {
	Candidate Candidate `json:"candidate"`
	// Gamma is relative to Median, the median training discrepancy under Candidate.
	Gamma  float64 `json:"gamma"`
	Median float64 `json:"median"`
	C      float64 `json:"c"`
	// Validation is the mean inner-fold accuracy of the choice; Screening, where the candidate
	// was chosen on a subset (Settings.Screen), its mean inner-fold accuracy there.
	Validation float64 `json:"validation_accuracy"`
	Screening  float64 `json:"screening_accuracy,omitempty"`
	// Handicap is how much lower than Validation the choice ranks (setHandicaps): one
	// standard error for a candidate that leaves the node features out.
	Handicap float64 `json:"handicap,omitempty"`
	// Landmarks, above 0, is the number of landmark graphs of its Nyström kernel
	// (Settings.Landmarks; Median is then that of the discrepancies to them); 0: the full kernel.
	Landmarks int `json:"landmarks,omitempty"`
	// index is the candidate's position in the matrices chosen from.
	index int
}

// kernelScale is the absolute γ of the kernel exp(−γ·d).
func (c Choice) kernelScale() float64 { return c.Gamma / c.Median }

func (c Choice) String() string {
	kernel := ""
	if c.Landmarks > 0 {
		kernel = fmt.Sprintf(" to %d landmarks", c.Landmarks)
	}
	return fmt.Sprintf("%s%s, γ = %g/median (%.4g), C = %g (inner-CV accuracy %.2f%%)",
		c.Candidate, kernel, c.Gamma, c.Median, c.C, 100*c.Validation)
}

// choose ranks the candidates by the mean inner-fold accuracy of their best γ and C on the
// graphs idx (labels y[idx]) and keeps the first n (ties keep the candidates' order; γ and C
// ties keep the first in γ, C order). Only rows and columns idx of the matrices are read.
func choose(ctx context.Context, ds []*mat.SymDense, cands []Candidate, y, idx []int, classes int, g Grid, n int) (Vote, error) {
	all, err := chooseEach(ctx, ds, cands, y, idx, classes, g)
	if err != nil {
		return nil, err
	}
	return ranked(all, n), nil
}

// chooseEach is each candidate's best γ and C on the graphs idx.
func chooseEach(ctx context.Context, ds []*mat.SymDense, cands []Candidate, y, idx []int, classes int, g Grid) ([]Choice, error) {
	return chooseEachBy(cands, y, idx, g, func(ci int, yi []int, folds [][]int) (svm.ExpChoice, error) {
		return svm.SelectExp(ctx, subSym(ds[ci], idx), yi, classes, g.Gammas, g.Cs, folds...)
	})
}

// chooseEachBy is chooseEach with candidate ci's γ and C chosen by sel, given the labels yi of
// the graphs idx and the inner fold assignments (a landmark kernel chooses them otherwise).
func chooseEachBy(cands []Candidate, y, idx []int, g Grid, sel func(ci int, yi []int, folds [][]int) (svm.ExpChoice, error)) ([]Choice, error) {
	yi := subset.Ints(y, idx)
	folds := make([][]int, max(1, g.Repeats))
	for r := range folds {
		fold, err := innerFolds(yi, min(g.Folds, len(idx)), g.Seed+uint64(r))
		if err != nil {
			return nil, err
		}
		folds[r] = fold
	}
	out := make([]Choice, len(cands))
	for ci := range cands {
		ec, err := sel(ci, yi, folds)
		if err != nil {
			return nil, fmt.Errorf("fgwsvm: %s: %w", cands[ci], err)
		}
		out[ci] = Choice{Candidate: cands[ci], Gamma: ec.Gamma, Median: ec.Median, C: ec.C, Validation: ec.Accuracy, index: ci}
	}
	setHandicaps(out, len(idx))
	return out, nil
}

// setHandicaps lowers the rank of each choice whose candidate leaves the node features out
// by one standard error of a k-fold accuracy estimate on n graphs, √(a(1−a)/n) at the best
// accuracy a of the choices that keep the features (none where no choice keeps them). The
// data's own features are the default; the structure alone or its WL labels take their place
// only where they score clearly better (features that carry no class), not where dozens of
// near-equal candidates let one of them win by the noise of the estimate.
func setHandicaps(cs []Choice, n int) {
	best := -1.0
	for _, c := range cs {
		if !c.Candidate.WithoutFeatures {
			best = max(best, c.Validation)
		}
	}
	for k := range cs {
		cs[k].Handicap = 0
		if cs[k].Candidate.WithoutFeatures && best >= 0 && n > 0 {
			cs[k].Handicap = math.Sqrt(best * (1 - best) / float64(n))
		}
	}
}

// rank is the score choices are ranked by: the validation accuracy less the handicap.
func (c Choice) rank() float64 { return c.Validation - c.Handicap }

// fit trains the SVM of choice ch on the graphs idx of d, the chosen candidate's matrix.
func fit(d *mat.SymDense, ch Choice, y, idx []int, classes int) (*svm.Model, error) {
	k := svm.ExpKernelSym(subSym(d, idx), ch.kernelScale())
	m, err := svm.Fit(k, subset.Ints(y, idx), classes, ch.C)
	if err != nil {
		return nil, fmt.Errorf("fgwsvm: %w", err)
	}
	return m, nil
}

// predictRows predicts the graphs rows from their discrepancies to the training graphs idx.
func predictRows(d *mat.SymDense, ch Choice, m *svm.Model, rows, idx []int) []int {
	kr := mat.NewDense(len(rows), len(idx), nil)
	for a, i := range rows {
		for b, j := range idx {
			kr.Set(a, b, d.At(i, j))
		}
	}
	return m.Predict(svm.ExpKernel(kr, ch.kernelScale()))
}

func subSym(d mat.Symmetric, idx []int) *mat.SymDense {
	s := mat.NewSymDense(len(idx), nil)
	for a, i := range idx {
		for b := a; b < len(idx); b++ {
			s.SetSym(a, b, d.At(i, idx[b]))
		}
	}
	return s
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// innerFolds are k stratified folds of the labels y. It returns an error, rather than the
// SVM's own about one fold, where a training part (all but one fold) would hold a single class:
// a class with one graph leaves the training part of its fold without it (stratification
// spreads any larger class over two folds or more), which fails where only one other class is
// left.
func innerFolds(y []int, k int, seed uint64) ([]int, error) {
	fold, err := svm.StratifiedFolds(y, k, seed)
	if err != nil {
		return nil, fmt.Errorf("fgwsvm: inner folds: %w", err)
	}
	if trainingPartsHoldTwoClasses(y, fold, k) {
		return fold, nil
	}
	count := map[int]int{}
	for _, l := range y {
		count[l]++
	}
	sizes := slices.Sorted(maps.Values(count))
	return nil, fmt.Errorf("fgwsvm: %d training graphs in %d classes of %v graphs: too few for an inner cross-validation whose every training part holds two classes (with --folds, more folds train each on more graphs; or label more graphs)", len(y), len(count), sizes)
}

// trainingPartsHoldTwoClasses reports whether, for each of the k folds, the items outside it
// hold at least two classes.
func trainingPartsHoldTwoClasses(y, fold []int, k int) bool {
	for f := range k {
		first, two := -1, false
		for i, l := range y {
			if fold[i] == f {
				continue
			}
			if first < 0 {
				first = l
			} else if l != first {
				two = true
				break
			}
		}
		if !two {
			return false
		}
	}
	return true
}
