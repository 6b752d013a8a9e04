package svm

import (
	"context"
	"fmt"
	"math"
	"slices"

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
	best := ExpChoice{Accuracy: -1}
	for _, g := range gammas {
		k := ExpKernelSym(d, g/med)
		for _, c := range cs {
			if err := ctx.Err(); err != nil {
				return ExpChoice{}, err
			}
			acc := 0.0
			for _, fold := range folds {
				a, err := CrossValAccuracy(k, y, classes, c, fold)
				if err != nil {
					return ExpChoice{}, fmt.Errorf("γ = %g, C = %g: %w", g, c, err)
				}
				acc += a / float64(len(folds))
			}
			if acc > best.Accuracy {
				best = ExpChoice{Gamma: g, Median: med, C: c, Accuracy: acc}
			}
		}
	}
	return best, nil
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
