package crossval

import (
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
)

func TestClassLabels(t *testing.T) {
	mk := func(labels ...int) *graphs.Dataset {
		ds := &graphs.Dataset{Name: "D"}
		for _, l := range labels {
			g := &graphs.Graph{Name: "g", Label: l, HasLabel: l >= 0}
			ds.Graphs = append(ds.Graphs, g)
		}
		return ds
	}
	// A class absent from the graphs still counts when the dataset names it.
	ds := mk(0, 2, 2, 0)
	ds.Classes = []int{1, 5, 9, 11}
	labels, k, err := ClassLabels(ds)
	if err != nil || k != 4 || !slices.Equal(labels, []int{0, 2, 2, 0}) {
		t.Errorf("labels %v, %d classes, %v", labels, k, err)
	}
	for _, c := range []struct {
		ds   *graphs.Dataset
		want string
	}{
		{mk(-1, -1), "no class labels"},
		{mk(0, -1), "label all graphs or none"},
		{mk(1, 1, 1), "at least two classes"},
	} {
		if _, _, err := ClassLabels(c.ds); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

func TestFoldFit(t *testing.T) {
	short, err := FoldFit([]int{0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2}, 4, 3)
	if err != nil || !slices.Equal(short, []int{2}) {
		t.Errorf("short classes %v (%v), want [2]", short, err)
	}
	for _, c := range []struct {
		labels         []int
		classes, folds int
		want           string
	}{
		{[]int{0, 0, 1, 1}, 2, 1, "between 2"},
		{[]int{0, 0, 1, 1}, 2, 5, "between 2"},
		{[]int{0, 0, 1}, 2, 2, "class 1 has a single graph"},
		{[]int{0, 0, 3}, 2, 2, "class index 3"},
	} {
		if _, err := FoldFit(c.labels, c.classes, c.folds); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, %d folds: %v, want %q", c.labels, c.folds, err, c.want)
		}
	}
}
