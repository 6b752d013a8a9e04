package crossval

import (
	"context"
	"testing"

	"github.com/gwf-graphs/gwf/semisup"
)

// With the balanced feature weight each fold records the weight its model measured (and a
// rerun on the same folder reads it back from the kept fold); with a stated weight none.
func TestCrossValidateTemplatesRecordsMeasuredWeight(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	dir := t.TempDir()
	for _, balance := range []bool{true, false} {
		cfg := smallTemplates()
		cfg.BalanceWeight = balance
		opt := TemplatesOptions{Folds: 2, Seed: 1, Workers: 2}
		if balance {
			opt.Dir = dir
		}
		for run := 0; run < 2; run++ {
			rep, err := CrossValidateTemplates(context.Background(), ds, labels, 2, cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Folds {
				if (f.FeatureWeight > 0 && f.FeatureWeight != 1) != balance {
					t.Errorf("balance %v, run %d, fold %d: feature weight %v recorded", balance, run, f.Fold, f.FeatureWeight)
				}
			}
		}
	}
}

// Each fold records the Weisfeiler-Lehman label columns its model read: some for graphs
// without features (one-hot degrees, categorical), none without WL labels.
func TestCrossValidateTemplatesRecordsWLLabels(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	for _, iterations := range []int{semisup.DefaultWLLabels, 0} {
		cfg := smallTemplates()
		cfg.WLLabels = iterations
		rep, err := CrossValidateTemplates(context.Background(), ds, labels, 2, cfg, TemplatesOptions{Folds: 2, Seed: 1, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Folds {
			if (f.WLLabelColumns > 0) != (iterations > 0) {
				t.Errorf("%d WL iterations, fold %d: %d label columns recorded", iterations, f.Fold, f.WLLabelColumns)
			}
		}
	}
}
