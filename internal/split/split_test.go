package split

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// reference is the split as semisup.Folds and svm.StratifiedFolds each wrote it before they
// shared this package: the folds of saved experiments must not move.
func reference(labels []int, k int, seed, stream uint64) []int {
	byClass := map[int][]int{}
	var classes []int
	for i, l := range labels {
		if _, ok := byClass[l]; !ok {
			classes = append(classes, l)
		}
		byClass[l] = append(byClass[l], i)
	}
	rng := rand.New(rand.NewPCG(seed, stream))
	fold := make([]int, len(labels))
	next := 0
	slices.Sort(classes)
	for _, c := range classes {
		members := byClass[c]
		rng.Shuffle(len(members), func(a, b int) { members[a], members[b] = members[b], members[a] })
		for _, i := range members {
			fold[i] = next % k
			next++
		}
	}
	return fold
}

// TestFoldsAsBefore: Folds and Stratified give the folds of the code they replace, for any
// labels (−1 included), k and seed; every fold is used and sizes differ by at most one.
func TestFoldsAsBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n := 2 + rng.IntN(40)
		labels := make([]int, n)
		for i := range labels {
			labels[i] = rng.IntN(4) - 1
		}
		k, seed := 2+rng.IntN(n-1), rng.Uint64()
		got, err := Folds(labels, k, seed)
		if err != nil || !slices.Equal(got, reference(labels, k, seed, 0xf01d)) {
			t.Fatalf("Folds(%v, %d, %d) = %v, %v; want %v", labels, k, seed, got, err, reference(labels, k, seed, 0xf01d))
		}
		inner, err := Stratified(labels, k, rand.New(rand.NewPCG(seed, 0x5f01d5)))
		if err != nil || !slices.Equal(inner, reference(labels, k, seed, 0x5f01d5)) {
			t.Fatalf("Stratified(%v, %d) = %v, %v", labels, k, inner, err)
		}
		size := make([]int, k)
		for _, f := range got {
			size[f]++
		}
		if slices.Min(size) == 0 || slices.Max(size)-slices.Min(size) > 1 {
			t.Fatalf("fold sizes %v", size)
		}
	}
	for _, c := range []struct {
		labels []int
		k      int
		want   string
	}{{[]int{0, 1}, 1, "need at least 2"}, {[]int{0, 1}, 3, "3 folds for 2 items"}, {nil, 2, "2 folds for 0 items"}} {
		if _, err := Folds(c.labels, c.k, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d folds of %v: error %v, want %q", c.k, c.labels, err, c.want)
		}
	}
}
