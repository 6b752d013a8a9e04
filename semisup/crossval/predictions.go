package crossval

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// Prediction is one graph's line of a classifier's output, with the names the embed and
// cluster outputs use: the graph's name, its class in the data where known, and the
// prediction. Labels are the data's own: numbers for TU data (MUTAG's -1 and 1), text where
// the labels were text (a labels.csv).
type Prediction struct {
	Graph         string    `json:"graph"`
	Index         int       `json:"index"` // the graph's position in the data
	Label         any       `json:"label,omitempty"`
	Predicted     any       `json:"predicted"`
	Probabilities []float64 `json:"probabilities,omitempty"` // none for an fgw-svm classifier
}

// Predictions are a classifier's predictions of the graphs of a dataset (`gwf predict`): its
// classes in the order of the probabilities, a line per graph, and, where the data have class
// labels, how many predictions are right.
type Predictions struct {
	Classes     []any            `json:"classes"`
	Predictions []Prediction     `json:"predictions"`
	Score       *PredictionScore `json:"score,omitempty"`
}

// NewPredictions are the predictions of the graphs of ds: graph i predicted as class
// predicted[i] of classes (the classifier's labels), with row i of probs as its probabilities
// when probs is not nil. The score compares them with the data's own class labels.
func NewPredictions(ds *graphs.Dataset, classes []any, predicted []int, probs *mat.Dense) (*Predictions, error) {
	if len(predicted) != len(ds.Graphs) {
		return nil, fmt.Errorf("crossval: %d predictions of %d graphs", len(predicted), len(ds.Graphs))
	}
	p := &Predictions{Classes: classes}
	names := make([]string, len(classes))
	for i, c := range classes {
		names[i] = fmt.Sprint(c)
	}
	truth, got := make([]string, len(predicted)), make([]string, len(predicted))
	for i, c := range predicted {
		if c < 0 || c >= len(classes) {
			return nil, fmt.Errorf("crossval: graph %d predicted as class %d of %d", i, c, len(classes))
		}
		g := ds.Graphs[i]
		line := Prediction{Graph: g.Name, Index: i, Predicted: classes[c]}
		if probs != nil {
			line.Probabilities = probs.RawRowView(i)
		}
		switch {
		case !g.HasLabel:
		case ds.ClassNames == nil && g.Label >= 0 && g.Label < len(ds.Classes):
			line.Label = ds.Classes[g.Label]
		default:
			line.Label = ds.ClassName(g)
		}
		if g.HasLabel {
			truth[i] = ds.ClassName(g)
		}
		got[i] = names[c]
		p.Predictions = append(p.Predictions, line)
	}
	p.Score = ScorePredictions(names, truth, got)
	return p, nil
}

// WriteCSV writes the predictions as CSV: graph,label,predicted and, where there are
// probabilities, p_<class> for each class.
func (p *Predictions) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	header := []string{"graph", "label", "predicted"}
	if len(p.Predictions) > 0 && p.Predictions[0].Probabilities != nil {
		for _, c := range p.Classes {
			header = append(header, "p_"+fmt.Sprint(c))
		}
	}
	cw.Write(header)
	for _, line := range p.Predictions {
		label := ""
		if line.Label != nil {
			label = fmt.Sprint(line.Label)
		}
		row := []string{line.Graph, label, fmt.Sprint(line.Predicted)}
		for _, v := range line.Probabilities {
			row = append(row, strconv.FormatFloat(v, 'g', 6, 64))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}
