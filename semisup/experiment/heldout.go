package experiment

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// HeldOutFold is what a fold of a cross-validation predicted for its held-out graphs.
type HeldOutFold struct {
	Fold int // 1-based
	// Graphs are the held-out graphs (indices into the data), Predictions their classes.
	Graphs, Predictions []int
}

// HeldOut is every fold's held-out predictions.
func (r *SVMReport) HeldOut() []HeldOutFold {
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

// WriteHeldOut writes the held-out predictions of a cross-validation as CSV, a row per graph
// some fold held out, in data order: its name (names[i]), its label and the predicted class as
// text names them, and the fold. A fold without predictions (a fold file saved before they were
// kept) is an error that names it.
func WriteHeldOut(w io.Writer, names []string, labels []int, folds []HeldOutFold, text func(class int) string) error {
	type row struct{ graph, predicted, fold int }
	var rows []row
	for _, f := range folds {
		if len(f.Graphs) != len(f.Predictions) || len(f.Graphs) == 0 {
			return fmt.Errorf("experiment: fold %d has no held-out predictions (saved before they were kept: remove its fold file to compute it again)", f.Fold)
		}
		for k, i := range f.Graphs {
			if i < 0 || i >= len(names) || i >= len(labels) {
				return fmt.Errorf("experiment: fold %d holds out graph %d of %d", f.Fold, i, len(names))
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
