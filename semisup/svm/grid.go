package svm

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// ExpChoice is what SelectExp chose: the kernel exp(−Gamma·d/Median) and C, with their mean
// cross-validated accuracy.
type ExpChoice struct {
	Gamma    float64 `json:"gamma"`
	Median   float64 `json:"median"`
	C        float64 `json:"c"`
	Accuracy float64 `json:"accuracy"`
}

// Scale is the absolute γ of the kernel exp(−γ·d).
func (c ExpChoice) Scale() float64 { return c.Gamma / c.Median }

// SelectExp chooses, for the items of the symmetric matrix of distances (or squared distances)
// d, the γ of gammas and the C of cs whose SVM on the kernel exp(−γ·d/median) has the best mean
// accuracy over the folds fold (CrossValAccuracy), averaged over every fold assignment given
// (repeated cross-validation); γ is relative to the median off-diagonal entry of d, so one
// grid fits any scale. Ties keep the first in γ, then C, order.
func SelectExp(ctx context.Context, d mat.Symmetric, y []int, classes int, gammas, cs []float64, folds ...[]int) (ExpChoice, error) {
	if len(gammas) == 0 || len(cs) == 0 {
		return ExpChoice{}, fmt.Errorf("svm: empty grid (%d γ, %d C)", len(gammas), len(cs))
	}
	if len(folds) == 0 {
		return ExpChoice{}, fmt.Errorf("svm: no fold assignment")
	}
	for _, v := range append(slices.Clone(gammas), cs...) {
		if !(v > 0) || math.IsInf(v, 0) {
			return ExpChoice{}, fmt.Errorf("svm: grid value %v: γ and C must be positive and finite", v)
		}
	}
	med := MedianOffDiagonal(d)
	return SelectKernels(ctx, func(g float64) (mat.Symmetric, error) { return ExpKernelSym(d, g/med), nil }, med, y, classes, gammas, cs, folds...)
}

// SelectKernels is SelectExp with kernel(γ) the kernel of each relative γ of gammas (median
// med, recorded in the choice): the same grid, folds, order and ties. The fits of a γ (every
// C, fold assignment and fold) run side by side on up to GOMAXPROCS goroutines, summed in
// order afterwards, so that the choice does not depend on how many ran at once.
func SelectKernels(ctx context.Context, kernel func(gamma float64) (mat.Symmetric, error), med float64, y []int, classes int, gammas, cs []float64, folds ...[]int) (ExpChoice, error) {
	if len(gammas) == 0 || len(cs) == 0 || len(folds) == 0 {
		return ExpChoice{}, fmt.Errorf("svm: empty grid (%d γ, %d C, %d fold assignments)", len(gammas), len(cs), len(folds))
	}
	best := ExpChoice{Accuracy: -1}
	for _, g := range gammas {
		if err := ctx.Err(); err != nil {
			return ExpChoice{}, err
		}
		k, err := kernel(g)
		if err != nil {
			return ExpChoice{}, fmt.Errorf("γ = %g: %w", g, err)
		}
		accs, err := gridAccuracies(ctx, k, g, y, classes, cs, folds)
		if err != nil {
			return ExpChoice{}, err
		}
		for ci, c := range cs {
			if accs[ci] > best.Accuracy {
				best = ExpChoice{Gamma: g, Median: med, C: c, Accuracy: accs[ci]}
			}
		}
	}
	return best, nil
}

// gridAccuracies is, for each C of cs, CrossValAccuracy on k (the kernel of γ = g, named in
// errors) averaged over the fold assignments folds, its fits run side by side.
func gridAccuracies(ctx context.Context, k mat.Symmetric, g float64, y []int, classes int, cs []float64, folds [][]int) ([]float64, error) {
	cvs := make([]crossValidation, len(folds))
	for r, fold := range folds {
		cv, err := newCrossValidation(k, y, classes, cs[0], fold)
		if err != nil {
			return nil, fmt.Errorf("γ = %g, C = %g: %w", g, cs[0], err)
		}
		cvs[r] = cv
	}
	type fit struct{ c, r, f int }
	var fits []fit
	accs := make([][][]float64, len(cs)) // by C, fold assignment and fold
	for ci := range cs {
		accs[ci] = make([][]float64, len(folds))
		for r, cv := range cvs {
			accs[ci][r] = make([]float64, len(cv.members))
			for f := range cv.members {
				fits = append(fits, fit{ci, r, f})
			}
		}
	}
	errs := make([]error, len(fits))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(fits)) {
		wg.Go(func() {
			for i := range next {
				t := fits[i]
				if errs[i] = ctx.Err(); errs[i] == nil {
					accs[t.c][t.r][t.f], errs[i] = cvs[t.r].foldAccuracy(k, y, classes, cs[t.c], t.f)
				}
			}
		})
	}
	for i := range fits {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("γ = %g, C = %g: %w", g, cs[fits[i].c], err)
		}
	}
	out := make([]float64, len(cs))
	for ci := range cs {
		for r, cv := range cvs {
			out[ci] += cv.mean(accs[ci][r]) / float64(len(folds))
		}
	}
	return out, nil
}

// MedianOffDiagonal is the median of the entries d(i, j), i < j: the scale SelectExp's γ is
// relative to. It is 1 when there are none, or when the median is not positive (γ then acts
// on d as it is).
func MedianOffDiagonal(d mat.Symmetric) float64 {
	n := d.SymmetricDim()
	xs := make([]float64, 0, n*(n-1)/2)
	for i := range n {
		for j := i + 1; j < n; j++ {
			xs = append(xs, d.At(i, j))
		}
	}
	return MedianScale(xs)
}

// MedianScale is the median of xs (sorted in place) as a kernel scale: 1 when xs is empty or
// the median is not positive.
func MedianScale(xs []float64) float64 {
	if len(xs) == 0 {
		return 1
	}
	slices.Sort(xs)
	m := xs[len(xs)/2]
	if len(xs)%2 == 0 {
		m = (xs[len(xs)/2-1] + m) / 2
	}
	if !(m > 0) {
		return 1
	}
	return m
}
