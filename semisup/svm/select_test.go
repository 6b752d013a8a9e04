package svm

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestStratifiedFolds(t *testing.T) {
	y := []int{5, 5, 5, 5, 5, 5, 5, 2, 2, 2, 2, 9, 9, -1} // a class of 1, a class of 2 < k
	const k = 3
	fold, err := StratifiedFolds(y, k, 42)
	if err != nil {
		t.Fatal(err)
	}
	perClass := map[int][]int{}
	sizes := make([]int, k)
	for i, f := range fold {
		if f < 0 || f >= k {
			t.Fatalf("item %d in fold %d", i, f)
		}
		if perClass[y[i]] == nil {
			perClass[y[i]] = make([]int, k)
		}
		perClass[y[i]][f]++
		sizes[f]++
	}
	for c, counts := range perClass {
		if slices.Max(counts)-slices.Min(counts) > 1 {
			t.Errorf("class %d spread %v over the folds", c, counts)
		}
	}
	if slices.Max(sizes)-slices.Min(sizes) > 1 {
		t.Errorf("fold sizes %v", sizes)
	}
	again, _ := StratifiedFolds(y, k, 42)
	if !slices.Equal(fold, again) {
		t.Error("the same seed gave different folds")
	}
	long := make([]int, 200)
	for i := range long {
		long[i] = i % 4
	}
	a, _ := StratifiedFolds(long, 5, 1)
	b, _ := StratifiedFolds(long, 5, 2)
	if slices.Equal(a, b) {
		t.Error("seeds 1 and 2 gave the same folds of 200 items")
	}

	for _, tc := range []struct {
		y    []int
		k    int
		want string
	}{
		{y, 1, "need at least 2"},
		{y, 0, "need at least 2"},
		{y[:2], 3, "3 folds for 2 items"},
		{nil, 2, "2 folds for 0 items"},
	} {
		if _, err := StratifiedFolds(tc.y, tc.k, 1); !errorLike(err, tc.want) {
			t.Errorf("k = %d, %d items: error %v, want one with %q", tc.k, len(tc.y), err, tc.want)
		}
	}
}

func TestCrossValAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	x, y := blobs(rng, []int{30, 30, 30}, 0.3)
	k, _ := rbf(x, x, 1)
	fold, err := StratifiedFolds(y, 5, 7)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := CrossValAccuracy(k, y, 3, 10, fold)
	if err != nil {
		t.Fatal(err)
	}
	if acc != 1 {
		t.Errorf("separable blobs: accuracy %g, want 1", acc)
	}

	x, y = blobs(rng, []int{40, 40, 40}, 1.5)
	k, _ = rbf(x, x, 0.5)
	fold, _ = StratifiedFolds(y, 4, 8)
	acc, err = CrossValAccuracy(k, y, 3, 1, fold)
	if err != nil {
		t.Fatal(err)
	}
	if acc <= 0.4 || acc >= 1 {
		t.Errorf("overlapping blobs: accuracy %g, want well above chance and below 1", acc)
	}
	// By hand: the sub-kernels copied out, Fit and Predict.
	want := 0.0
	for f := range 4 {
		var train, test []int
		for i, g := range fold {
			if g == f {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		ks := mat.NewSymDense(len(train), nil)
		yt := make([]int, len(train))
		for i, a := range train {
			yt[i] = y[a]
			for j, b := range train[i:] {
				ks.SetSym(i, i+j, k.At(a, b))
			}
		}
		kr := mat.NewDense(len(test), len(train), nil)
		for i, a := range test {
			for j, b := range train {
				kr.Set(i, j, k.At(a, b))
			}
		}
		m, err := Fit(ks, yt, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		right := 0
		for i, p := range m.Predict(kr) {
			if p == y[test[i]] {
				right++
			}
		}
		want += float64(right) / float64(len(test)) / 4
	}
	if math.Abs(acc-want) > 1e-12 {
		t.Errorf("accuracy %g, by hand %g", acc, want)
	}
	if viaAt, err := CrossValAccuracy(opaque{k}, y, 3, 1, fold); err != nil || viaAt != acc {
		t.Errorf("through At: accuracy %g (%v), want %g", viaAt, err, acc)
	}
}

func TestCrossValAccuracyErrors(t *testing.T) {
	k := mat.NewSymDense(4, []float64{1, .5, .1, 0, .5, 1, .2, 0, .1, .2, 1, .3, 0, 0, .3, 1})
	y := []int{0, 0, 1, 1}
	for _, tc := range []struct {
		name string
		y    []int
		fold []int
		want string
	}{
		{"fold length", y, []int{0, 1, 0}, "3 fold indices for 4 items"},
		{"negative fold", y, []int{0, 1, -1, 1}, "item 2 has fold -1"},
		{"one fold", y, []int{0, 0, 0, 0}, "only one fold"},
		{"one class to train on", y, []int{1, 1, 0, 0}, "fold 0: the labels hold only one class"},
		{"bad labels", []int{0, 0, 2, 1}, []int{0, 1, 0, 1}, "label 2 of item 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CrossValAccuracy(k, tc.y, 2, 1, tc.fold)
			if !errorLike(err, tc.want) {
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
		})
	}
	if _, err := CrossValAccuracy(k, y, 2, 0, []int{0, 1, 0, 1}); err == nil {
		t.Error("C = 0 accepted")
	}
}

// TestSelectExpRepeats: with several fold assignments SelectExp chooses by the mean of their
// accuracies, and one assignment is the plain cross-validation.
func TestSelectExpRepeats(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	x, y := blobs(rng, []int{25, 25}, 1.2)
	d := SquaredDistances(x, x)
	sym := mat.NewSymDense(len(y), nil)
	for i := range len(y) {
		for j := i; j < len(y); j++ {
			sym.SetSym(i, j, d.At(i, j))
		}
	}
	gammas, cs := []float64{0.1, 1, 10}, []float64{0.1, 10}
	f1, _ := StratifiedFolds(y, 4, 1)
	f2, _ := StratifiedFolds(y, 4, 2)
	ctx := context.Background()
	both, err := SelectExp(ctx, sym, y, 2, gammas, cs, f1, f2)
	if err != nil {
		t.Fatal(err)
	}
	k := ExpKernelSym(sym, both.Scale())
	a1, _ := CrossValAccuracy(k, y, 2, both.C, f1)
	a2, _ := CrossValAccuracy(k, y, 2, both.C, f2)
	if math.Abs(both.Accuracy-(a1+a2)/2) > 1e-12 {
		t.Errorf("accuracy %v, the mean of the two assignments' is %v", both.Accuracy, (a1+a2)/2)
	}
	for _, g := range gammas {
		kg := ExpKernelSym(sym, g/both.Median)
		for _, c := range cs {
			b1, _ := CrossValAccuracy(kg, y, 2, c, f1)
			b2, _ := CrossValAccuracy(kg, y, 2, c, f2)
			if (b1+b2)/2 > both.Accuracy+1e-12 {
				t.Errorf("γ = %g, C = %g: mean accuracy %v above the chosen %v", g, c, (b1+b2)/2, both.Accuracy)
			}
		}
	}
	if _, err := SelectExp(ctx, sym, y, 2, gammas, cs); err == nil {
		t.Error("no fold assignment: no error")
	}
}

// TestSelectExpSideBySide: the grid's fits run side by side, and the choice is bit for bit the
// one of the fits run one after another (CrossValAccuracy, averaged over the assignments in
// order), whatever GOMAXPROCS; a cancelled context stops it.
func TestSelectExpSideBySide(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	x, y := blobs(rng, []int{20, 15, 25}, 2)
	d := SquaredDistances(x, x)
	sym := mat.NewSymDense(len(y), nil)
	for i := range len(y) {
		for j := i; j < len(y); j++ {
			sym.SetSym(i, j, d.At(i, j))
		}
	}
	gammas, cs := []float64{0.1, 1, 10}, []float64{0.1, 1, 100}
	f1, _ := StratifiedFolds(y, 5, 1)
	f2, _ := StratifiedFolds(y, 5, 2)
	med := MedianOffDiagonal(sym)
	want := ExpChoice{Accuracy: -1}
	for _, g := range gammas {
		k := ExpKernelSym(sym, g/med)
		for _, c := range cs {
			acc := 0.0
			for _, f := range [][]int{f1, f2} {
				a, err := CrossValAccuracy(k, y, 3, c, f)
				if err != nil {
					t.Fatal(err)
				}
				acc += a / 2
			}
			if acc > want.Accuracy {
				want = ExpChoice{Gamma: g, Median: med, C: c, Accuracy: acc}
			}
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		got, err := SelectExp(context.Background(), sym, y, 3, gammas, cs, f1, f2)
		if err != nil || got != want {
			t.Errorf("GOMAXPROCS %d: %+v (%v), one after another %+v", procs, got, err, want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SelectExp(ctx, sym, y, 3, gammas, cs, f1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestRepeatedStratifiedFolds: assignment r is StratifiedFolds with seed+r, the assignments
// differ, fewer than one repeat means one, and StratifiedFolds' errors come through.
func TestRepeatedStratifiedFolds(t *testing.T) {
	y := []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 2, 2, 2}
	folds, err := RepeatedStratifiedFolds(y, 3, 4, 9)
	if err != nil {
		t.Fatal(err)
	}
	if len(folds) != 4 {
		t.Fatalf("%d assignments, want 4", len(folds))
	}
	for r, got := range folds {
		want, err := StratifiedFolds(y, 3, 9+uint64(r))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("assignment %d: %v, StratifiedFolds with seed %d: %v", r, got, 9+r, want)
		}
	}
	if slices.Equal(folds[0], folds[1]) && slices.Equal(folds[1], folds[2]) && slices.Equal(folds[2], folds[3]) {
		t.Error("the four assignments are the same")
	}
	if one, err := RepeatedStratifiedFolds(y, 3, 0, 9); err != nil || len(one) != 1 {
		t.Errorf("zero repeats: %d assignments, error %v", len(one), err)
	}
	if _, err := RepeatedStratifiedFolds(y, 1, 2, 9); err == nil {
		t.Error("one fold: no error")
	}
}
