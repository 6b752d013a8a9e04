package crossval

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
)

// TestWriteText: a report as text names its protocol, every fold and the mean ± std; pooled
// reports add a row per report and the pooled row.
func TestWriteText(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	set := fgwsvm.Settings{
		Candidates: []fgwsvm.Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}},
		Grid:       fgwsvm.Grid{Gammas: []float64{1}, Cs: []float64{1}, Folds: 2, Seed: 1},
	}
	rep, err := CrossValidateSVM(context.Background(), ds, labels, 2, SVMSpec{Folds: 3, Seed: 1, Settings: set})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{rep.Protocol, "candidates: adjacency, weight 1", "fold  test graphs", "(mean ± std over 3 folds)", "cost: "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); !strings.HasPrefix(lines[len(lines)-1], "accuracy: ") {
		t.Errorf("the last line is not the accuracy:\n%s", out)
	}
	p, err := Pool([]string{"a.json", "b.json"}, []Report{{SVM: rep}, {SVM: rep}})
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := p.WriteText(&buf, Report{SVM: rep}); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "a.json") || !strings.Contains(out, "all pooled") || !strings.Contains(out, "over 6 folds of 2 reports") {
		t.Errorf("pooled:\n%s", out)
	}
}

// TestFoldLines: one line for the fold's accuracy, one for each baseline kind it has.
func TestFoldLines(t *testing.T) {
	r := FoldResult{Fold: 2, Test: 10, Accuracy: 0.7, Predicted: []int{5, 5}}
	if got := FoldLines(r, 5); len(got) != 1 || !strings.HasPrefix(got[0], "fold 2/5: accuracy 70.00% on 10 graphs") {
		t.Fatalf("FoldLines = %q", got)
	}
	r.Beta0, r.LogReg, r.SVM = &Baseline{Accuracy: 0.6, Epoch: 3}, &Baseline{Accuracy: 0.5, C: 1}, &Baseline{Accuracy: 0.8, Gamma: 1, C: 10}
	got := FoldLines(r, 5)
	if len(got) != 3 || !strings.Contains(got[1], "β = 0 head 60.00% (epoch 3)") || !strings.Contains(got[2], "SVM on λ 80.00%") {
		t.Fatalf("FoldLines with baselines = %q", got)
	}
}

// TestDescribeFeatures: an encoding is named as the data flags that read it.
func TestDescribeFeatures(t *testing.T) {
	for _, c := range []struct {
		e    graphs.FeatureEncoding
		want string
	}{
		{graphs.FeatureEncoding{}, "--features none"},
		{graphs.FeatureEncoding{Kind: graphs.FeaturesLabels, NodeLabels: []int{0, 1}, EdgeLabels: true}, "--features labels --edge-labels"},
		{graphs.FeatureEncoding{Kind: graphs.FeaturesAttributes, Mean: []float64{0}, Scale: []float64{1}}, "--features attributes --standardize"},
		{graphs.FeatureEncoding{Kind: graphs.FeaturesBoth, Attributes: 1, NodeLabels: []int{3}, Mean: []float64{2, 0}, Scale: []float64{1, 1}, EdgeLabels: true}, "--features both --standardize --edge-labels"},
		{graphs.FeatureEncoding{Kind: graphs.FeaturesBoth, Attributes: 1, NodeLabels: []int{3}}, "--features both"},
	} {
		if got := DescribeFeatures(c.e); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
}
