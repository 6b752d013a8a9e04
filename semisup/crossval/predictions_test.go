package crossval

import (
	"bytes"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// TestNewPredictions: each graph's line names it, gives its label in the data's own encoding
// (none where it has none) and the classifier's; the score counts the labelled graphs; the
// CSV has a probability column per class.
func TestNewPredictions(t *testing.T) {
	ds := &graphs.Dataset{Classes: []int{-1, 1}, Graphs: []*graphs.Graph{
		{Name: "a", Label: 0, HasLabel: true},
		{Name: "b", Label: 1, HasLabel: true},
		{Name: "c"},
	}}
	probs := mat.NewDense(3, 2, []float64{0.9, 0.1, 0.8, 0.2, 0.3, 0.7})
	p, err := NewPredictions(ds, []any{-1, 1}, []int{0, 0, 1}, probs)
	if err != nil {
		t.Fatal(err)
	}
	if p.Predictions[0].Label != -1 || p.Predictions[1].Predicted != -1 || p.Predictions[2].Label != nil || p.Predictions[2].Index != 2 {
		t.Errorf("lines %+v", p.Predictions)
	}
	if s := p.Score; s == nil || s.Graphs != 2 || s.Correct != 1 {
		t.Errorf("score %+v, want 1 of 2 labelled graphs right", s)
	}
	var buf bytes.Buffer
	if err := p.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	want := "graph,label,predicted,p_-1,p_1\na,-1,-1,0.9,0.1\nb,1,-1,0.8,0.2\nc,,1,0.3,0.7\n"
	if buf.String() != want {
		t.Errorf("CSV\n%s\nwant\n%s", buf.String(), want)
	}
	if _, err := NewPredictions(ds, []any{-1, 1}, []int{0, 2, 1}, nil); err == nil || !strings.Contains(err.Error(), "class 2 of 2") {
		t.Errorf("a class out of range: %v", err)
	}
	if _, err := NewPredictions(ds, []any{-1, 1}, []int{0}, nil); err == nil {
		t.Error("fewer predictions than graphs accepted")
	}
}
