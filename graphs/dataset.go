package graphs

import "strconv"

// ClassName is the original class label of g as text: the TU or labels.csv label that
// g.Label stands for, or "" when g has none.
func (ds *Dataset) ClassName(g *Graph) string {
	switch {
	case !g.HasLabel:
		return ""
	case g.Label >= 0 && g.Label < len(ds.ClassNames):
		return ds.ClassNames[g.Label]
	case g.Label >= 0 && g.Label < len(ds.Classes):
		return strconv.Itoa(ds.Classes[g.Label])
	}
	return strconv.Itoa(g.Label)
}

// NumClasses is the number of classes of the dataset (0 when it is unlabelled).
func (ds *Dataset) NumClasses() int {
	return max(len(ds.Classes), len(ds.ClassNames))
}
