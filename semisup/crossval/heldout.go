package crossval

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gwf-graphs/gwf/graphs"
)

// HeldOutFold is what a fold of a cross-validation predicted for its held-out graphs.
type HeldOutFold struct {
	Fold int // 1-based
	// Graphs are the held-out graphs (indices into the data), Predictions their classes.
	Graphs, Predictions []int
}

// HeldOut is every fold's held-out predictions (the weighed folds' where the template model
// was weighed).
func (r *SVMReport) HeldOut() []HeldOutFold {
	if r.weighedFolds() {
		out := make([]HeldOutFold, len(r.Weighed))
		for k, f := range r.Weighed {
			out[k] = HeldOutFold{Fold: f.Fold, Graphs: f.Graphs, Predictions: f.Predictions}
		}
		return out
	}
	out := make([]HeldOutFold, len(r.Folds))
	for k, f := range r.Folds {
		out[k] = HeldOutFold{Fold: f.Fold, Graphs: f.Graphs, Predictions: f.Predictions}
	}
	return out
}

// HeldOut is every fold's held-out predictions.
func (r *GWFReport) HeldOut() []HeldOutFold {
	out := make([]HeldOutFold, len(r.Folds))
	for k, f := range r.Folds {
		out[k] = HeldOutFold{Fold: f.Fold, Graphs: f.Graphs, Predictions: f.Predictions}
	}
	return out
}

// HeldOut is every fold's held-out predictions.
func (r *TemplatesReport) HeldOut() []HeldOutFold {
	out := make([]HeldOutFold, len(r.Folds))
	for k, f := range r.Folds {
		out[k] = HeldOutFold{Fold: f.Fold, Graphs: f.Graphs, Predictions: f.Predictions}
	}
	return out
}

// WriteHeldOut writes the held-out predictions of a cross-validation as CSV, a row per graph
// some fold held out, in data order: its name (names[i]), its label and the predicted class as
// text names them, and the fold. A fold without predictions (a fold file saved before they were
// kept) is an error that names it.
func WriteHeldOut(w io.Writer, names []string, labels []int, folds []HeldOutFold, text func(class int) string) error {
	type row struct{ graph, predicted, fold int }
	var rows []row
	for _, f := range folds {
		if len(f.Graphs) != len(f.Predictions) || len(f.Graphs) == 0 {
			return fmt.Errorf("crossval: fold %d has no held-out predictions (saved before they were kept: remove its fold file to compute it again)", f.Fold)
		}
		for k, i := range f.Graphs {
			if i < 0 || i >= len(names) || i >= len(labels) {
				return fmt.Errorf("crossval: fold %d holds out graph %d of %d", f.Fold, i, len(names))
			}
			rows = append(rows, row{i, f.Predictions[k], f.Fold})
		}
	}
	slices.SortFunc(rows, func(a, b row) int { return a.graph - b.graph })
	cw := csv.NewWriter(w)
	cw.Write([]string{"graph", "label", "predicted", "fold"})
	for _, r := range rows {
		cw.Write([]string{names[r.graph], text(labels[r.graph]), text(r.predicted), strconv.Itoa(r.fold)})
	}
	cw.Flush()
	return cw.Error()
}

// ConfusionMatrix counts held-out graphs by their class (rows) and the class predicted for
// them (columns), the classes named as the data name them.
type ConfusionMatrix struct {
	Classes []string `json:"classes"`
	Counts  [][]int  `json:"counts"`
}

// NewConfusion is the confusion matrix of the folds' held-out predictions of the graphs of
// ds (labels: class indices in [0, classes)); nil where a fold has no predictions (saved
// before they were kept) or any index is out of range.
func NewConfusion(ds *graphs.Dataset, labels []int, classes int, folds []HeldOutFold) *ConfusionMatrix {
	m := &ConfusionMatrix{Classes: make([]string, classes), Counts: make([][]int, classes)}
	for c := range classes {
		m.Classes[c], m.Counts[c] = ds.ClassText(c), make([]int, classes)
	}
	for _, f := range folds {
		if len(f.Graphs) == 0 || len(f.Graphs) != len(f.Predictions) {
			return nil
		}
		for k, i := range f.Graphs {
			p := f.Predictions[k]
			if i < 0 || i >= len(labels) || labels[i] < 0 || labels[i] >= classes || p < 0 || p >= classes {
				return nil
			}
			m.Counts[labels[i]][p]++
		}
	}
	return m
}

// writeText writes the matrix as a table under a line that says how to read it.
func (m *ConfusionMatrix) writeText(w io.Writer) error {
	if m == nil {
		return nil
	}
	fmt.Fprintln(w, "\nheld-out graphs by class (rows) and prediction (columns):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\t%s\t\n", strings.Join(m.Classes, "\t"))
	for c, row := range m.Counts {
		cells := make([]string, len(row))
		for k, n := range row {
			cells[k] = strconv.Itoa(n)
		}
		fmt.Fprintf(tw, "%s\t%s\t\n", m.Classes[c], strings.Join(cells, "\t"))
	}
	return tw.Flush()
}
