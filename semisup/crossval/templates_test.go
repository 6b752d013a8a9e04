package crossval

import (
	"context"
	"testing"
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
