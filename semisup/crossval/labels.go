package crossval

import (
	"fmt"
	"slices"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup"
)

// ClassLabels are the class of every graph of ds and the number of classes a classifier of
// them has (that of ds.Classes or ds.ClassNames, or of the labels where those are not set).
// Data without class labels, with some graphs unlabelled, or of a single class are an error
// that says what to give instead.
func ClassLabels(ds *graphs.Dataset) (labels []int, classes int, err error) {
	return classLabels(ds, false)
}

// PartlyClassLabels is ClassLabels for data where some graphs may have no class label (a
// folder read with graphs.PartialLabelsKept): theirs is semisup.Unlabeled; the labelled graphs
// must still hold two classes.
func PartlyClassLabels(ds *graphs.Dataset) (labels []int, classes int, err error) {
	return classLabels(ds, true)
}

func classLabels(ds *graphs.Dataset, partly bool) (labels []int, classes int, err error) {
	if !slices.ContainsFunc(ds.Graphs, func(g *graphs.Graph) bool { return g.HasLabel }) {
		return nil, 0, fmt.Errorf("%s has no class labels: classification needs them (a TU graph-labels file; in a graph folder a labels.csv, one subfolder of graphs per class, or labels in the files); for unlabelled data use 'gwf fit' or 'gwf cluster --clusters K'", ds.Name)
	}
	labels = make([]int, len(ds.Graphs))
	seen := map[int]bool{}
	for i, g := range ds.Graphs {
		if !g.HasLabel && partly {
			labels[i] = semisup.Unlabeled
			continue
		}
		if !g.HasLabel {
			return nil, 0, fmt.Errorf("graph %q has no class label, others have: label all graphs or none", g.Name)
		}
		if g.Label < 0 {
			return nil, 0, fmt.Errorf("graph %q has class index %d", g.Name, g.Label)
		}
		labels[i], seen[g.Label] = g.Label, true
		classes = max(classes, g.Label+1)
	}
	if len(seen) < 2 {
		return nil, 0, fmt.Errorf("every labelled graph of %s has the same class label: classification needs at least two classes", ds.Name)
	}
	return labels, max(classes, len(ds.Classes), len(ds.ClassNames)), nil
}

// FoldFit checks that folds stratified folds can be made of graphs with these labels (of
// classes classes): at least 2 folds and at most one a graph, and no class of a single graph,
// which could not be both trained on and held out. It returns the classes that have fewer
// graphs than folds: some folds hold none of them, which the folds' stratification accepts.
func FoldFit(labels []int, classes, folds int) (short []int, err error) {
	if folds < 2 || folds > len(labels) {
		return nil, fmt.Errorf("%d folds: want between 2 and the number of graphs (%d)", folds, len(labels))
	}
	count := make([]int, classes)
	for _, l := range labels {
		if l < 0 || l >= classes {
			return nil, fmt.Errorf("class index %d of %d classes", l, classes)
		}
		count[l]++
	}
	for c, n := range count {
		switch {
		case n == 1:
			return nil, fmt.Errorf("class %d has a single graph: it cannot be both trained on and held out; drop it or label more graphs", c)
		case n > 0 && n < folds:
			short = append(short, c)
		}
	}
	return short, nil
}
