package crossval

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/subset"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/svm"
	"github.com/gwf-graphs/gwf/training"
)

// TestSVMFoldEpochsRepeats: with repeats R, the γ and C chosen are those of the best mean
// inner accuracy over the R fold assignments of seeds s, ..., s+R−1 (ties to the earlier grid
// point), and that mean is the reported inner accuracy; R = 1 is SVMFold.
func TestSVMFoldEpochsRepeats(t *testing.T) {
	const n, k, seed, repeats = 48, 5, 7, 3
	rng := rand.New(rand.NewPCG(9, 1))
	labels := make([]int, n)
	z := mat.NewDense(n, k, nil)
	for i := range n {
		labels[i] = i % 2
		for j := range k {
			z.Set(i, j, rng.NormFloat64())
		}
		z.Set(i, labels[i], z.At(i, labels[i])+1) // a weak class signal: the grid points differ
	}
	head, err := semisup.NewMLP(k, nil, 2, semisup.ReLU, rng)
	if err != nil {
		t.Fatal(err)
	}
	u := &Unsupervised{Head: head, Config: semisup.DefaultConfig(), Z: []*mat.Dense{z}}
	test := []int{0, 5, 10, 15, 20, 25, 30, 35}
	ctx := context.Background()

	got, _, err := u.SVMFoldEpochs(ctx, labels, test, nil, 5, repeats, seed)
	if err != nil {
		t.Fatal(err)
	}
	rows := labelled(hide(labels, test))
	y := subset.Ints(labels, rows)
	x := subset.Rows(training.Lambda(z), rows)
	d := mat.NewSymDense(len(rows), svm.SquaredDistances(x, x).RawMatrix().Data)
	med := svm.MedianOffDiagonal(d)
	gammas, cs := SVMGrid()
	bestAcc, bestG, bestC := -1.0, 0.0, 0.0
	for _, g := range gammas {
		kern := svm.ExpKernelSym(d, g/med)
		for _, c := range cs {
			mean := 0.0
			for r := range repeats {
				fold, err := svm.StratifiedFolds(y, 5, seed+uint64(r))
				if err != nil {
					t.Fatal(err)
				}
				acc, err := svm.CrossValAccuracy(kern, y, 2, c, fold)
				if err != nil {
					t.Fatal(err)
				}
				mean += acc / repeats
			}
			if mean > bestAcc+1e-12 {
				bestAcc, bestG, bestC = mean, g, c
			}
		}
	}
	if got.Gamma != bestG || got.C != bestC || math.Abs(got.ValidationAccuracy-bestAcc) > 1e-9 {
		t.Errorf("chose γ %g, C %g (inner %v); the best mean over %d assignments is γ %g, C %g (%v)", got.Gamma, got.C, got.ValidationAccuracy, repeats, bestG, bestC, bestAcc)
	}

	one, _, err := u.SVMFoldEpochs(ctx, labels, test, nil, 5, 1, seed)
	if err != nil {
		t.Fatal(err)
	}
	fold, _, err := u.SVMFold(ctx, labels, test, 5, seed)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, fold) {
		t.Errorf("one repeat %+v, SVMFold %+v", one, fold)
	}
	if err := (LambdaSVMSpec{InnerRepeats: MaxInnerRepeats + 1}).Validate(3); err == nil {
		t.Error("InnerRepeats past MaxInnerRepeats: no error")
	}
}
