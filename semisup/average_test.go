package semisup

import (
	"context"
	"math"
	"testing"

	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"

	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
)

// The average moves by rate × (value − average) a step, so n steps towards a constant leave
// (1 − rate)ⁿ of the gap; swapping it in and out restores the trained values exactly.
func TestParamAverage(t *testing.T) {
	ps := []*tensor.Dense{tensor.New(tensor.WithShape(1, 2), tensor.WithBacking([]float64{0, 4}))}
	if newParamAverage(ps, 0, 10) != nil {
		t.Fatal("an average over 0 epochs")
	}
	a := newParamAverage(ps, 2, 5)
	if want := 1 - math.Exp(-0.1); math.Abs(a.rate-want) > 1e-15 {
		t.Fatalf("rate %v, want %v", a.rate, want)
	}
	copy(ps[0].Data().([]float64), []float64{1, 2})
	for range 10 {
		a.update(ps)
	}
	left := math.Pow(1-a.rate, 10)
	for j, want := range []float64{1 - left, 2 + 2*left} {
		if got := a.values[0][j]; math.Abs(got-want) > 1e-12 {
			t.Errorf("average[%d] %v, want %v", j, got, want)
		}
	}
	a.swapIn(ps)
	if got := ps[0].Data().([]float64); got[0] != a.values[0][0] || got[1] != a.values[0][1] {
		t.Errorf("swapped in %v, average %v", got, a.values[0])
	}
	a.swapOut(ps)
	if got := ps[0].Data().([]float64); got[0] != 1 || got[1] != 2 {
		t.Errorf("swapped out %v, want the trained [1 2]", got)
	}
}

// With averaging the model keeps, and its validation accuracy describes, the averaged weights:
// over a horizon far beyond the run they barely leave their start, and the epoch kept scores
// on the validation graphs what the history says it did.
func TestFitTemplatesAveraged(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 16, 21)
	moved := func(horizon float64) float64 {
		cfg := smallTemplateConfig()
		cfg.Epochs, cfg.AverageEpochs = 6, horizon
		m, err := NewTemplateModel(data, labels, 2, cfg)
		if err != nil {
			t.Fatal(err)
		}
		start := snapshot(m.params())
		if err := FitTemplates(context.Background(), m, data, labels, TemplateOptions{}); err != nil {
			t.Fatal(err)
		}
		most := 0.0
		for i, p := range m.params() {
			for j, v := range p.Data().([]float64) {
				most = math.Max(most, math.Abs(v-start[i][j]))
			}
		}
		return most
	}
	trained, averaged := moved(0), moved(1e5)
	if !(trained > 1e-2) || !(averaged < 1e-4*trained) {
		t.Errorf("the weights moved %v as trained and %v averaged over 1e5 epochs", trained, averaged)
	}

	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.Validation, cfg.AverageEpochs = 8, 0.25, 1
	m, err := NewTemplateModel(data, labels, 2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := FitTemplates(context.Background(), m, data, labels, TemplateOptions{}); err != nil {
		t.Fatal(err)
	}
	var labelled []int
	for i := range labels {
		labelled = append(labelled, i)
	}
	_, valid := splitValidation(labels, labelled, cfg.Validation, cfg.Seed)
	var vdata []*graphs.Graph
	var vlabels []int
	for _, i := range valid {
		vdata, vlabels = append(vdata, data[i]), append(vlabels, labels[i])
	}
	pred, err := m.Predict(context.Background(), vdata, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := accuracy(vlabels, pred), m.History[m.BestEpoch-1].ValidationAccuracy; got != want {
		t.Errorf("the kept weights score %v on the validation graphs, the history says %v (epoch %d)", got, want, m.BestEpoch)
	}
}
