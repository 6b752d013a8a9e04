package split

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Stratified assigns each of the items labelled labels to one of k folds, stratified by
// class: the classes in increasing order, each one's items shuffled with rng and dealt
// round-robin, each class starting where the previous one stopped. So every class is spread
// over the folds within one item and the folds' sizes differ by at most one. Labels may be any
// ints (each value is a class). It returns an error if k < 2 or k > len(labels).
func Stratified(labels []int, k int, rng *rand.Rand) ([]int, error) {
	switch {
	case k < 2:
		return nil, fmt.Errorf("%d folds: need at least 2", k)
	case k > len(labels):
		return nil, fmt.Errorf("%d folds for %d items: need at most one fold per item", k, len(labels))
	}
	byClass := map[int][]int{}
	for i, l := range labels {
		byClass[l] = append(byClass[l], i)
	}
	classes := make([]int, 0, len(byClass))
	for l := range byClass {
		classes = append(classes, l)
	}
	slices.Sort(classes) // map order is random; the folds must not be
	fold := make([]int, len(labels))
	next := 0
	for _, l := range classes {
		items := byClass[l]
		rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
		for _, i := range items {
			fold[i] = next
			next = (next + 1) % k
		}
	}
	return fold, nil
}

// Folds is Stratified with the generator of seed that the module's cross-validations share:
// the GWF classifier, the FGW-SVM and the experiments split the same graphs into the same
// folds for the same seed.
func Folds(labels []int, k int, seed uint64) ([]int, error) {
	return Stratified(labels, k, rand.New(rand.NewPCG(seed, 0xf01d)))
}
