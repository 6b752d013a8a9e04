package main

import (
	"context"
	"time"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/crossval"
)

// weighTemplates is the template model --templates weighs against the FGW-SVM, in each fold or
// for the classifier --output saves (nil without the flag, or where its estimate does not fit in half of budget, said in the log) and the
// budget left to the FGW-SVM (budget less the estimate; 0: none).
func (f *classifyFlags) weighTemplates(ctx context.Context, a *app, d labelled, budget time.Duration, start time.Time) (*semisup.TemplateConfig, time.Duration, error) {
	if !f.templates {
		return nil, budget, nil
	}
	if f.protocol.given {
		return nil, 0, cli.Usagef("--templates weighs the template model in nested cross-validation, on labelled graphs: the data leave some graphs without a label (give --folds to score on the labelled ones)")
	}
	cfg := semisup.DefaultTemplateConfig()
	if budget == 0 {
		a.Log.Infof("weighing the template model against the FGW-SVM (no budget)")
		return &cfg, 0, nil
	}
	folds := f.protocol.folds
	if f.protocol.fraction == 1 { // one classifier on all the graphs
		folds = 1
	}
	est, err := crossval.EstimateTemplates(ctx, d.ds.Graphs, d.labels, d.classes, cfg, folds, f.innerFolds, f.workers)
	if err != nil {
		return nil, 0, err
	}
	if left := budget - time.Since(start); !templatesFit(est, left) {
		a.Log.Warnf("the template model is not weighed against the FGW-SVM: it would take about %s, more than half of the %s left of the budget (a --budget of %s or more weighs it)",
			est.Round(time.Second), left.Round(time.Second), (2*est + time.Since(start) + time.Minute).Truncate(time.Minute))
		return nil, budget, nil
	}
	a.Log.Infof("weighing the template model against the FGW-SVM: about %s of the budget; the FGW-SVM plans for the rest", est.Round(time.Second))
	return &cfg, budget - est, nil
}

// templatesFit reports whether the template model's estimate est fits in half of what is left
// of the budget: the other half is the FGW-SVM's.
func templatesFit(est, left time.Duration) bool { return est <= left/2 }
