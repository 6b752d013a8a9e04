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

// withVariant returns sc with the embedding that variant names: none (free z), gin or gcn (a
// graph encoder), gin-alone or gcn-alone (the encoder without the GWF term).
func withVariant(sc semisup.Config, variant string) (semisup.Config, error) {
	enc, alone := strings.CutSuffix(variant, "-alone")
	switch {
	case enc == semisup.EncoderGIN || enc == semisup.EncoderGCN:
	case enc == semisup.EncoderNone && !alone:
	default:
		return sc, fmt.Errorf("--encoders: %q, want none, gin, gcn, gin-alone or gcn-alone", variant)
	}
	sc.Encoder, sc.NoGWF = enc, alone
	return sc, nil
}

// variantName is the name withVariant takes for sc's embedding.
func variantName(sc semisup.Config) string {
	switch {
	case sc.Encoder == "" || sc.Encoder == semisup.EncoderNone:
		return semisup.EncoderNone
	case sc.NoGWF:
		return sc.Encoder + "-alone"
	}
	return sc.Encoder
}

// variantTitle describes a variant in the table.
func variantTitle(v string) string {
	enc, alone := strings.CutSuffix(v, "-alone")
	switch {
	case enc == semisup.EncoderNone:
		return "free z"
	case alone:
		return strings.ToUpper(enc) + " encoder alone (no GWF term)"
	}
	return strings.ToUpper(enc) + " encoder + GWF term"
}

// foldKey names one fold of one repeat.
type foldKey struct{ seed, fold int }

// runNested writes the nested protocol's table: per dataset and solver, the semi-supervised
// model of every --encoders variant and both baselines over folds × repeats, and whether each
// variant beats them; every fold goes to table2.csv. The baselines do not depend on the
// variant: they are computed with the first one and compared with all on the same folds.
func (o options) runNested(ctx context.Context, sc semisup.Config, rep *nb.Report, log io.Writer) error {
	var csv strings.Builder
	csv.WriteString("dataset,solver,embedding,seed,fold,test_graphs,accuracy,train_accuracy,chosen_epoch,validation_accuracy,beta0_accuracy,beta0_epoch,logreg_accuracy,logreg_c,seconds\n")
	if len(o.datasets) > 0 {
		header, rows := o.paperRows()
		for _, s := range o.solvers {
			S := strings.ToUpper(s)
			semi := make([][]string, len(o.variants))
			fit := make([][]string, len(o.variants))
			verdict := make([][]string, len(o.variants))
			for i, v := range o.variants {
				semi[i] = []string{fmt.Sprintf("**gwf %s, semi-supervised, %s, epoch chosen on validation**", S, variantTitle(v))}
				fit[i] = []string{fmt.Sprintf("gwf %s, %s, on its labelled graphs", S, variantTitle(v))}
				verdict[i] = []string{fmt.Sprintf("%s beats β = 0 / logistic regression (folds better–worse)", variantTitle(v))}
			}
			beta0 := []string{"gwf " + S + ", the same head on the unsupervised embeddings (β = 0)"}
			logreg := []string{"gwf " + S + ", logistic regression on the unsupervised λ"}
			for _, d := range o.datasets {
				base := map[foldKey]semisup.FoldResult{}
				for i, v := range o.variants {
					vc, err := withVariant(sc, v)
					if err != nil {
						return err
					}
					var all []semisup.FoldResult
					for seed := 1; seed <= o.cvSeeds; seed++ {
						res, err := o.crossValidate(ctx, d, s, vc, uint64(seed), i == 0, log)
						if err != nil {
							return fmt.Errorf("%s, %s, %s, seed %d: %w", d, s, v, seed, err)
						}
						for _, r := range res {
							k := foldKey{seed, r.Fold}
							if i == 0 {
								base[k] = r
							} else {
								r.Beta0, r.LogReg = base[k].Beta0, base[k].LogReg
							}
							fmt.Fprintf(&csv, "%s,%s,%s,%d,%d,%d,%.6f,%.6f,%d,%.6f,%.6f,%d,%.6f,%g,%.1f\n", d, s, v, seed, r.Fold, r.Test, r.Accuracy, r.TrainAccuracy,
								r.Choice.Epoch, r.Choice.ValidationAccuracy, r.Beta0.Accuracy, r.Beta0.Epoch, r.LogReg.Accuracy, r.LogReg.C, r.Seconds)
							all = append(all, r)
						}
					}
					var xs, train []float64
					for _, r := range all {
						xs, train = append(xs, r.Accuracy), append(train, r.TrainAccuracy)
					}
					sum := semisup.Summarize(all)
					b0, lr := sum.Beats()
					semi[i] = append(semi[i], cluster.FormatMeanStd(xs, 100))
					fit[i] = append(fit[i], cluster.FormatMeanStd(train, 100))
					verdict[i] = append(verdict[i], fmt.Sprintf("%s (%d–%d) / %s (%d–%d)", yesNo(b0), sum.WinsBeta0, sum.LossesBeta0, yesNo(lr), sum.WinsLogReg, sum.LossesLogReg))
					if i == 0 {
						beta0 = append(beta0, fmt.Sprintf("%.1f ± %.1f", 100*sum.Beta0.Mean, 100*sum.Beta0.Std))
						logreg = append(logreg, fmt.Sprintf("%.1f ± %.1f", 100*sum.LogReg.Mean, 100*sum.LogReg.Std))
					}
				}
			}
			rows = append(rows, semi...)
			rows = append(rows, fit...)
			rows = append(rows, beta0, logreg)
			rows = append(rows, verdict...)
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
