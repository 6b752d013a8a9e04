package graphs

import "strconv"

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
