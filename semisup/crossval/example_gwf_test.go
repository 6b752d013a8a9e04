package crossval_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/training"
)

// Nested model selection on one fold: the held-out graphs' labels are hidden, a validation
// split of the other labels chooses β and the stopping epoch, and the held-out fold is scored
// once; the β = 0 head and a logistic regression on the unsupervised λ are scored on the same
// fold.
func ExampleNestedFold() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		panic(err)
	}
	data := ds.Graphs[:40]
	labels := make([]int, len(data))
	var test []int
	for i, g := range data {
		labels[i] = g.Label
		if i%5 == 0 {
			test = append(test, i) // the held-out fold
		}
	}
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.Layers, cfg.Epochs = 4, 10, 3 // small, for the example
	a, b := semisup.DefaultConfig(), semisup.DefaultConfig()
	b.Beta = 1
	sel := crossval.Selection{Candidates: []semisup.Config{a, b}, Seed: 1}
	r, err := crossval.NestedFold(context.Background(), data, labels, test, len(ds.Classes), cfg, sel, semisup.Options{})
	if err != nil {
		panic(err)
	}
	u, err := crossval.FitUnsupervised(context.Background(), data, len(ds.Classes), cfg, a, semisup.Options{})
	if err != nil {
		panic(err)
	}
	beta0, _, err := u.HeadFold(labels, test, sel)
	if err != nil {
		panic(err)
	}
	logreg, _, err := u.LogRegFold(labels, test, semisup.DefaultCGrid(), 5, 1)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(r.Predictions), "held-out predictions; chose among", len(r.Choice.Curves), "candidates × 3 epochs on", r.Choice.Validation, "validation graphs")
	fmt.Println(beta0.Accuracy >= 0, logreg.Accuracy >= 0)
	// Output:
	// 8 held-out predictions; chose among 2 candidates × 3 epochs on 6 validation graphs
	// true true
}

// Nested 3-fold cross-validation with the baselines, each finished fold kept in a directory: run
// again (after a kill, say), the same call reuses the folds saved there instead of training them.
func ExampleCrossValidate() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		panic(err)
	}
	data := ds.Graphs[:30]
	labels := make([]int, len(data))
	for i, g := range data {
		labels[i] = g.Label
	}
	dir, err := os.MkdirTemp("", "folds")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.Layers, cfg.Epochs = 3, 5, 2 // small, for the example
	sc := semisup.DefaultConfig()
	// The β = 0 head is a candidate too (as gwf classify does by default): a fold keeps it where
	// it scores better on the validation split than the jointly trained model.
	opt := crossval.CVOptions{Folds: 3, Seed: 1, Select: &crossval.Selection{Candidates: []semisup.Config{sc}, Seed: 1, Unsupervised: true},
		Baselines: true, Dir: dir}
	res, err := crossval.CrossValidate(context.Background(), data, labels, len(ds.Classes), cfg, sc, opt)
	if err != nil {
		panic(err)
	}
	reused := 0 // the folds the second run reads back from dir, as its Observe hears
	opt.Observe = func(e training.Event) {
		if strings.Contains(e.Message, ": reusing ") {
			reused++
		}
	}
	again, err := crossval.CrossValidate(context.Background(), data, labels, len(ds.Classes), cfg, sc, opt)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(res), "folds trained;", reused, "reused; same accuracy:", again[0].Accuracy == res[0].Accuracy)
	s := crossval.Summarize(res)
	fmt.Println("baselines on every fold:", s.Folds == 3, "and the trained model's own accuracy:", s.Joint != nil)
	// Output:
	// 3 folds trained; 3 reused; same accuracy: true
	// baselines on every fold: true and the trained model's own accuracy: true
}
