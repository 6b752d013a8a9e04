package classlabel

import "strconv"

// Unlabeled marks a graph without a label among class labels.
const Unlabeled = -1

// ClassLabels maps a classifier's class indices to the data's own labels, which a classifier
// file keeps so that its predictions read as the data wrote them (MUTAG's −1 and 1, the text
// of a labels.csv).
type ClassLabels struct {
	// Classes are the data's own class labels: class c stands for Classes[c] (nil: c).
	Classes []int
	// ClassNames, when the data's labels are text (graphs.Dataset.ClassNames), are those
	// labels: class c stands for ClassNames[c].
	ClassNames []string
}

// Label is class c in the data's own encoding (Classes[c]; c itself when there are none).
func (l ClassLabels) Label(c int) int {
	if c >= 0 && c < len(l.Classes) {
		return l.Classes[c]
	}
	return c
}

// LabelText is class c as the data wrote it: ClassNames[c] for text labels, else Label(c).
func (l ClassLabels) LabelText(c int) string {
	if c >= 0 && c < len(l.ClassNames) {
		return l.ClassNames[c]
	}
	return strconv.Itoa(l.Label(c))
}

// Report is the label of each of n classes as a report shows it: the text for text labels,
// else the number.
func (l ClassLabels) Report(n int) []any {
	out := make([]any, n)
	for c := range out {
		if l.ClassNames != nil {
			out[c] = l.LabelText(c)
		} else {
			out[c] = l.Label(c)
		}
	}
	return out
}
