package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/gwf-graphs/gwf/notebooks/internal/nb"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training/cluster"
)

// runNested writes the nested protocol's table: per dataset and solver, the semi-supervised
// model and both baselines over folds × repeats, and whether it beats them; every fold goes to
// table2.csv.
func (o options) runNested(ctx context.Context, sc semisup.Config, rep *nb.Report, log io.Writer) error {
	var csv strings.Builder
	csv.WriteString("dataset,solver,seed,fold,test_graphs,accuracy,train_accuracy,chosen_epoch,validation_accuracy,beta0_accuracy,beta0_epoch,logreg_accuracy,logreg_c,seconds\n")
	if len(o.datasets) > 0 {
		header, rows := o.paperRows()
		for _, s := range o.solvers {
			S := strings.ToUpper(s)
			semi := []string{"**gwf " + S + ", semi-supervised, epoch chosen on validation**"}
			fit := []string{"gwf " + S + ", on its labelled graphs"}
			beta0 := []string{"gwf " + S + ", the same head on the unsupervised embeddings (β = 0)"}
			logreg := []string{"gwf " + S + ", logistic regression on the unsupervised λ"}
			verdict := []string{"semi-supervised beats β = 0 / logistic regression (folds better–worse)"}
			for _, d := range o.datasets {
				var all []semisup.FoldResult
				for seed := 1; seed <= o.cvSeeds; seed++ {
					res, err := o.crossValidate(ctx, d, s, sc, uint64(seed), log)
					if err != nil {
						return fmt.Errorf("%s, %s, seed %d: %w", d, s, seed, err)
					}
					for _, r := range res {
						fmt.Fprintf(&csv, "%s,%s,%d,%d,%d,%.6f,%.6f,%d,%.6f,%.6f,%d,%.6f,%g,%.1f\n", d, s, seed, r.Fold, r.Test, r.Accuracy, r.TrainAccuracy,
							r.Choice.Epoch, r.Choice.ValidationAccuracy, r.Beta0.Accuracy, r.Beta0.Epoch, r.LogReg.Accuracy, r.LogReg.C, r.Seconds)
					}
					all = append(all, res...)
				}
				var xs, train []float64
				for _, r := range all {
					xs, train = append(xs, r.Accuracy), append(train, r.TrainAccuracy)
				}
				sum := semisup.Summarize(all)
				b0, lr := sum.Beats()
				semi = append(semi, cluster.FormatMeanStd(xs, 100))
				fit = append(fit, cluster.FormatMeanStd(train, 100))
				beta0 = append(beta0, fmt.Sprintf("%.1f ± %.1f", 100*sum.Beta0.Mean, 100*sum.Beta0.Std))
				logreg = append(logreg, fmt.Sprintf("%.1f ± %.1f", 100*sum.LogReg.Mean, 100*sum.LogReg.Std))
				verdict = append(verdict, fmt.Sprintf("%s (%d–%d) / %s (%d–%d)", yesNo(b0), sum.WinsBeta0, sum.LossesBeta0, yesNo(lr), sum.WinsLogReg, sum.LossesLogReg))
			}
			rows = append(rows, semi, fit, beta0, logreg, verdict)
		}
		rep.Table(header, rows)
	}
	if err := nb.WriteFile(filepath.Join(o.out, "table2.csv"), []byte(csv.String())); err != nil {
		return err
	}
	if o.fractionsData != "" && len(o.fractions) > 0 {
		if err := fractions(ctx, o, sc, rep, log); err != nil {
			return err
		}
	}
	return rep.Save(o.out)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
