package graphs

import (
	"fmt"
	"strconv"
)

// PartialLabels is what ReadFolder makes of a folder where only some graphs have a class label.
type PartialLabels int

const (
	// PartialLabelsRefused makes such a folder an error that names a graph of each kind.
	PartialLabelsRefused PartialLabels = iota
	// PartialLabelsKept keeps the labels: the other graphs have HasLabel false, and the
	// classes are those of the labelled graphs (the graphs a classifier is to predict).
	PartialLabelsKept
	// PartialLabelsDropped reads the folder as unlabelled, saying so in Dataset.LeftOut (for
	// what needs no class).
	PartialLabelsDropped
)

// ClassName is the original class label of g as text: the TU or labels.csv label that
// g.Label stands for, or "" when g has none.
func (ds *Dataset) ClassName(g *Graph) string {
	if !g.HasLabel {
		return ""
	}
	return ds.ClassText(g.Label)
}

// ClassText is class c (a Label value) as the data's files wrote it: its labels.csv text or
// TU number, or c itself where the data name no classes.
func (ds *Dataset) ClassText(c int) string {
	switch {
	case c >= 0 && c < len(ds.ClassNames):
		return ds.ClassNames[c]
	case c >= 0 && c < len(ds.Classes):
		return strconv.Itoa(ds.Classes[c])
	}
	return strconv.Itoa(c)
}

// NumClasses is the number of classes of the dataset (0 when it is unlabelled).
func (ds *Dataset) NumClasses() int {
	return max(len(ds.Classes), len(ds.ClassNames))
}

// Unlabelled is the number of graphs without a class label: 0 or all of them, except in a
// folder read with PartialLabelsKept.
func (ds *Dataset) Unlabelled() int {
	n := 0
	for _, g := range ds.Graphs {
		if !g.HasLabel {
			n++
		}
	}
	return n
}

// LabelledOnly is ds with only its graphs that have a class label (ds itself where all have
// one); the graphs, classes and encoding are shared, not copied.
func (ds *Dataset) LabelledOnly() *Dataset {
	if ds.Unlabelled() == 0 {
		return ds
	}
	c := *ds
	c.Graphs = nil
	for _, g := range ds.Graphs {
		if g.HasLabel {
			c.Graphs = append(c.Graphs, g)
		}
	}
	return &c
}

// dropPartialLabels leaves out the class labels of a dataset where only some graphs have one,
// saying so in LeftOut.
func (ds *Dataset) dropPartialLabels() {
	n := ds.Unlabelled()
	if n == 0 || n == len(ds.Graphs) {
		return
	}
	first := ""
	for _, g := range ds.Graphs {
		if !g.HasLabel && first == "" {
			first = g.Name
		}
		g.Label, g.HasLabel = 0, false
	}
	ds.Classes, ds.ClassNames = nil, nil
	ds.LeftOut = append(ds.LeftOut, fmt.Sprintf("class labels left out: %d of the %d graphs have none, %s first (classify, semisup and predict use the labels and predict those graphs)", n, len(ds.Graphs), first))
}
