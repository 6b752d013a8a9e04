package semisup

import "github.com/gwf-graphs/gwf/internal/classlabel"

// Unlabeled marks a graph without a label in the labels given to Fit.
const Unlabeled = classlabel.Unlabeled

// NoLabels is the labels of n graphs none of which has one: what Fit takes to train a model
// without labels.
func NoLabels(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = Unlabeled
	}
	return out
}

// ClassLabels maps a classifier's class indices to the data's own labels
// (internal/classlabel's, which the FGW-SVM's files keep too).
type ClassLabels = classlabel.ClassLabels
