package semisup_test

import (
	"context"
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/semisup"
)

// Train a template model (FGW discrepancies to learned templates, an MLP on them) on part of
// MUTAG with its node labels, and classify graphs it has never seen.
func ExampleTemplateModel() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{Features: graphs.FeaturesLabels})
	if err != nil {
		panic(err)
	}
	train, unseen := ds.Graphs[:60], ds.Graphs[60:80]
	labels := make([]int, len(train))
	for i, g := range train {
		labels[i] = g.Label
	}
	cfg := semisup.DefaultTemplateConfig()
	cfg.Epochs = 5 // small, for the example
	m, err := semisup.NewTemplateModel(train, labels, len(ds.Classes), cfg)
	if err != nil {
		panic(err)
	}
	if err := semisup.FitTemplates(context.Background(), m, train, labels, semisup.TemplateOptions{}); err != nil {
		panic(err)
	}
	pred, err := m.Predict(context.Background(), unseen, 0)
	if err != nil {
		panic(err)
	}
	d, err := m.Discrepancies(context.Background(), unseen, 0)
	if err != nil {
		panic(err)
	}
	rows, cols := d.Dims()
	fmt.Println(len(pred), "predictions;", rows, "graphs ×", cols, "template discrepancies")
	// Output: 20 predictions; 20 graphs × 8 template discrepancies
}

// TrainTemplates trains Config.Members template models from different seeds; the ensemble
// predicts with their mean class probabilities.
func ExampleTrainTemplates() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{Features: graphs.FeaturesLabels})
	if err != nil {
		panic(err)
	}
	train, unseen := ds.Graphs[:60], ds.Graphs[60:80]
	labels := make([]int, len(train))
	for i, g := range train {
		labels[i] = g.Label
	}
	cfg := semisup.DefaultTemplateConfig()
	cfg.Epochs, cfg.Members = 5, 3 // small, for the example
	e, err := semisup.TrainTemplates(context.Background(), train, labels, len(ds.Classes), cfg, semisup.TemplateOptions{})
	if err != nil {
		panic(err)
	}
	p, err := e.Probabilities(context.Background(), unseen, 0)
	if err != nil {
		panic(err)
	}
	rows, cols := p.Dims()
	fmt.Println(len(e.Members), "members;", rows, "graphs ×", cols, "class probabilities")
	// Output: 3 members; 20 graphs × 2 class probabilities
}
