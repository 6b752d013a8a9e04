package crossval

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
	"github.com/gwf-graphs/gwf/training"
)

func svmReport(seed uint64, accs ...float64) *SVMReport {
	r := &SVMReport{Dataset: "D", Graphs: 20, Classes: 2, Method: MethodSVM, Features: "--features none",
		Settings: fgwsvm.Settings{Grid: fgwsvm.DefaultGrid()}}
	r.Settings.Grid.Seed = seed
	for i, a := range accs {
		r.Folds = append(r.Folds, fgwsvm.FoldResult{Fold: i + 1, Accuracy: a})
	}
	return r
}

func gwfReport(seed uint64, accs ...float64) *GWFReport {
	cfg := training.DefaultConfig()
	cfg.Seed = seed
	r := &GWFReport{Dataset: "D", Graphs: 20, Classes: 2, Config: cfg, Semisup: semisup.DefaultConfig()}
	for i, a := range accs {
		r.Folds = append(r.Folds, FoldResult{Fold: i + 1, Accuracy: a})
	}
	return r
}

func roundTrip(t *testing.T, v any) Report {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestReadBothClassifiers: a report reads back as its classifier's; one naming no method is
// the GWF model's (reports written before fgw-svm).
func TestReadBothClassifiers(t *testing.T) {
	if rep := roundTrip(t, svmReport(1, 0.5, 1)); rep.Method != MethodSVM || rep.SVM == nil || len(rep.SVM.Folds) != 2 {
		t.Errorf("svm report read as %+v", rep)
	}
	if rep := roundTrip(t, gwfReport(1, 0.5)); rep.Method != MethodGWF || rep.GWF == nil || rep.GWF.Config.Seed != 1 {
		t.Errorf("gwf report read as %+v", rep)
	}
}

// TestReadRefuses: a single split, an accuracy outside [0, 1], an unknown method and non-JSON.
func TestReadRefuses(t *testing.T) {
	for name, v := range map[string]any{
		"one split":   svmReport(1),
		"accuracy 2":  svmReport(1, 0.5, 2),
		"NaN-free -1": gwfReport(1, -1),
	} {
		b, _ := json.Marshal(v)
		if _, err := Read(bytes.NewReader(b)); !errors.Is(err, ErrNotCV) {
			t.Errorf("%s: err = %v, want ErrNotCV", name, err)
		}
	}
	for name, text := range map[string]string{"method": `{"method": "knn", "folds": []}`, "not JSON": "[1, 2]"} {
		if _, err := Read(strings.NewReader(text)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestPool: the folds of two seeds pool into the mean ± std of all of them; reports of other
// settings or of both classifiers are refused with ErrMismatch, naming what differs.
func TestPool(t *testing.T) {
	ra, rb := svmReport(1, 0.5, 1), svmReport(2, 0.75, 0.75)
	ra.Version, rb.Version = "v1", "v2" // builds differ: pooled, and said
	a, b := roundTrip(t, ra), roundTrip(t, rb)
	p, err := Pool([]string{"a.json", "b.json"}, []Report{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if p.Pooled.Folds != 4 || p.Pooled.Accuracy.Mean != 0.75 || p.Reports[1].Seed != 2 || p.Reports[0].File != "a.json" {
		t.Errorf("pooled %+v", p)
	}
	if v := p.Versions(); len(v) != 2 || v[0] != "v1" || p.Reports[1].Version != "v2" {
		t.Errorf("versions %v", v)
	}
	if want := math.Sqrt(0.125 / 3); math.Abs(p.Pooled.Accuracy.Std-want) > 1e-12 {
		t.Errorf("std %v, want %v (sample standard deviation)", p.Pooled.Accuracy.Std, want)
	}
	if p.Pooled.Confusion != nil {
		t.Errorf("reports without confusion matrices pooled into %+v", p.Pooled.Confusion)
	}
	ra.Confusion = &ConfusionMatrix{Classes: []string{"x", "y"}, Counts: [][]int{{2, 1}, {0, 3}}}
	rb.Confusion = &ConfusionMatrix{Classes: []string{"x", "y"}, Counts: [][]int{{1, 1}, {1, 2}}}
	p, err = Pool([]string{"a.json", "b.json"}, []Report{roundTrip(t, ra), roundTrip(t, rb)})
	if c := p.Pooled.Confusion; err != nil || c == nil || c.Counts[0][0] != 3 || c.Counts[0][1] != 2 || c.Counts[1][0] != 1 || c.Counts[1][1] != 5 || p.Reports[0].Confusion.Counts[1][1] != 3 {
		t.Errorf("pooled confusion %+v (%v), want the sum [[3 2] [1 5]]", c, err)
	}
	other := svmReport(2, 0.75, 0.75)
	other.Features = "--features labels"
	for name, reps := range map[string][]Report{
		"features": {a, roundTrip(t, other)},
		"methods":  {a, roundTrip(t, gwfReport(1, 0.5, 1))},
		"folds":    {a, roundTrip(t, svmReport(2, 0.5))},
	} {
		_, err := Pool([]string{"a.json", "b.json"}, reps)
		if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "b.json") {
			t.Errorf("%s: err = %v, want ErrMismatch naming b.json", name, err)
		}
	}
	g, err := Pool([]string{"x", "y"}, []Report{roundTrip(t, gwfReport(1, 0.5)), roundTrip(t, gwfReport(2, 1))})
	if err != nil || g.Pooled.Accuracy.Mean != 0.75 || g.Reports[1].Seed != 2 {
		t.Errorf("gwf reports: %+v, %v", g, err)
	}
}
