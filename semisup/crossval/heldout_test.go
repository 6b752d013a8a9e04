package crossval

import (
	"slices"

	"strconv"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
)

// TestWriteHeldOut: a row per held-out graph in data order, with its fold; a graph no fold
// held out has no row; a fold without predictions is an error that names it.
func TestWriteHeldOut(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e"}
	labels := []int{0, 1, 1, 0, 1}
	folds := []HeldOutFold{{Fold: 1, Graphs: []int{3, 1}, Predictions: []int{0, 0}}, {Fold: 2, Graphs: []int{0, 4}, Predictions: []int{1, 1}}}
	var b strings.Builder
	if err := WriteHeldOut(&b, names, labels, folds, func(c int) string { return "c" + strconv.Itoa(c) }); err != nil {
		t.Fatal(err)
	}
	want := "graph,label,predicted,fold\na,c0,c1,2\nb,c1,c0,1\nd,c0,c0,1\ne,c1,c1,2\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	folds[1].Predictions = nil
	if err := WriteHeldOut(&b, names, labels, folds, strconv.Itoa); err == nil || !strings.Contains(err.Error(), "fold 2") {
		t.Errorf("a fold without predictions: %v", err)
	}
	folds[1] = HeldOutFold{Fold: 2, Graphs: []int{7}, Predictions: []int{0}}
	if err := WriteHeldOut(&b, names, labels, folds, strconv.Itoa); err == nil {
		t.Error("a graph out of range: no error")
	}
}

// TestConfusion: held-out graphs counted by class and prediction, named as the data name
// their classes; nil where a fold lacks its predictions.
func TestConfusion(t *testing.T) {
	ds := &graphs.Dataset{ClassNames: []string{"ring", "star"}}
	labels := []int{0, 1, 1, 0, 1}
	folds := []HeldOutFold{{Fold: 1, Graphs: []int{3, 1}, Predictions: []int{0, 0}}, {Fold: 2, Graphs: []int{0, 4, 2}, Predictions: []int{1, 1, 1}}}
	m := NewConfusion(ds, labels, 2, folds)
	if m == nil || !slices.Equal(m.Classes, []string{"ring", "star"}) || !slices.Equal(m.Counts[0], []int{1, 1}) || !slices.Equal(m.Counts[1], []int{1, 2}) {
		t.Fatalf("confusion %+v, want rows ring [1 1], star [1 2]", m)
	}
	var b strings.Builder
	if err := m.writeText(&b); err != nil {
		t.Fatal(err)
	}
	if want := "ring  star\n  ring     1     1\n  star     1     2\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("text:\n%s\nwant the table\n%s", b.String(), want)
	}
	folds[0].Predictions = nil
	if m := NewConfusion(ds, labels, 2, folds); m != nil {
		t.Errorf("a fold without predictions: %+v, want nil", m)
	}
}
