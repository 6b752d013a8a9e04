package nbkit

import (
	"context"
	"fmt"
	"strings"

	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/training/cluster"
)

// withVariant returns the head with the embedding that variant names: none (free z), gin or
// gcn (a graph encoder), gin-alone or gcn-alone (the encoder without the GWF term); it
// detaches as c.Head does where DetachGiven, else as the embedding's default
// (semisup.DefaultDetach).
func (c Table2Config) withVariant(variant string) (semisup.Config, error) {
	sc := c.Head
	name, alone := strings.CutSuffix(variant, "-alone")
	enc := semisup.EncoderKind(name)
	switch {
	case enc.IsGNN():
	case enc == semisup.EncoderNone && !alone:
	default:
		return sc, fmt.Errorf("encoder %q: want none, gin, gcn, gin-alone or gcn-alone", variant)
	}
	sc.Encoder, sc.NoGWF, sc.Detach = enc, alone, semisup.DefaultDetach(enc)
	if c.DetachGiven {
		sc.Detach = c.Head.Detach
	}
	return sc, nil
}

// variantName is the name withVariant takes for sc's embedding.
func variantName(sc semisup.Config) string {
	switch {
	case sc.Encoder.IsFree():
		return string(semisup.EncoderNone)
	case sc.NoGWF:
		return string(sc.Encoder) + "-alone"
	}
	return string(sc.Encoder)
}

// variantTitle describes a variant in the table.
func variantTitle(v string) string {
	enc, alone := strings.CutSuffix(v, "-alone")
	switch {
	case semisup.EncoderKind(enc) == semisup.EncoderNone:
		return "free z"
	case alone:
		return strings.ToUpper(enc) + " encoder alone (no GWF term)"
	}
	return strings.ToUpper(enc) + " encoder + GWF term"
}

// nested shows the nested protocol's table: per dataset and solver, for every variant, the
// semi-supervised model and its two baselines — the same model trained without labels (β = 0:
// unsupervised GWF for free z, the encoder trained by the GWF term alone for an encoder) read by
// the same head and by a logistic regression — over folds × repeats, and whether it beats them;
// every fold goes to table2.csv. A variant without the GWF term has no unsupervised model, so no
// baselines.
func (c Table2Config) nested(ctx context.Context, out Output) error {
	var csv strings.Builder
	csv.WriteString("dataset,solver,embedding,seed,fold,test_graphs,accuracy,train_accuracy,chosen_epoch,validation_accuracy,beta0_accuracy,beta0_epoch,logreg_accuracy,logreg_c,seconds,chose_beta0,joint_accuracy\n")
	if len(c.Datasets) > 0 {
		header, rows := c.paperRows()
		for _, s := range c.Solvers {
			for _, v := range c.Variants {
				vc, err := c.withVariant(v)
				if err != nil {
					return err
				}
				what := fmt.Sprintf("gwf %s, %s", strings.ToUpper(s), variantTitle(v))
				semi := []string{"**" + what + ", semi-supervised, epoch chosen on validation**"}
				fit := []string{what + ", on its labelled graphs"}
				beta0 := []string{what + ", the same head on the model trained without labels (β = 0)"}
				logreg := []string{what + ", logistic regression on the λ of the model trained without labels"}
				verdict := []string{what + ": semi-supervised beats β = 0 / logistic regression (folds better–worse)"}
				joint := []string{what + ", the trained model alone (without the β = 0 candidate; folds choosing that candidate)"}
				for _, d := range c.Datasets {
					var all []crossval.FoldResult
					for seed := 1; seed <= c.CVSeeds; seed++ {
						res, err := c.crossValidate(ctx, d, s, vc, uint64(seed), !vc.NoGWF, out)
						if err != nil {
							return fmt.Errorf("%s, %s, %s, seed %d: %w", d, s, v, seed, err)
						}
						for _, r := range res {
							joint := ""
							if r.JointAccuracy != nil {
								joint = fmt.Sprintf("%.6f", *r.JointAccuracy)
							}
							fmt.Fprintf(&csv, "%s,%s,%s,%d,%d,%d,%.6f,%.6f,%d,%.6f,%s,%s,%.1f,%v,%s\n", d, s, v, seed, r.Fold, r.Test, r.Accuracy, r.TrainAccuracy,
								r.Choice.Epoch, r.Choice.ValidationAccuracy, baselineCSV(r.Beta0, false), baselineCSV(r.LogReg, true), r.Seconds, r.Choice.Unsupervised, joint)
						}
						all = append(all, res...)
					}
					var xs, train []float64
					for _, r := range all {
						xs, train = append(xs, r.Accuracy), append(train, r.TrainAccuracy)
					}
					semi = append(semi, cluster.FormatMeanStd(xs, 100))
					fit = append(fit, cluster.FormatMeanStd(train, 100))
					sum := crossval.Summarize(all)
					if sum == nil {
						beta0, logreg, verdict, joint = append(beta0, "–"), append(logreg, "–"), append(verdict, "–"), append(joint, "–")
						continue
					}
					if sum.Joint != nil {
						joint = append(joint, fmt.Sprintf("%.1f ± %.1f (%d of %d)", 100*sum.Joint.Mean, 100*sum.Joint.Std, sum.ChoseBeta0, sum.Folds))
					} else {
						joint = append(joint, "–")
					}
					b0, lr := sum.Beats()
					beta0 = append(beta0, fmt.Sprintf("%.1f ± %.1f", 100*sum.Beta0.Mean, 100*sum.Beta0.Std))
					logreg = append(logreg, fmt.Sprintf("%.1f ± %.1f", 100*sum.LogReg.Mean, 100*sum.LogReg.Std))
					verdict = append(verdict, fmt.Sprintf("%s (%d–%d) / %s (%d–%d)", yesNo(b0), sum.WinsBeta0, sum.LossesBeta0, yesNo(lr), sum.WinsLogReg, sum.LossesLogReg))
				}
				if vc.NoGWF {
					rows = append(rows, semi, fit)
				} else {
					rows = append(rows, semi, fit, joint, beta0, logreg, verdict)
				}
			}
		}
		out.Table(header, rows)
	}
	return out.File("table2.csv", []byte(csv.String()))
}

// baselineCSV is a baseline's accuracy and its epoch (or, withC, its C) as two CSV fields, both
// empty when the fold has none.
func baselineCSV(b *crossval.Baseline, withC bool) string {
	switch {
	case b == nil:
		return ","
	case withC:
		return fmt.Sprintf("%.6f,%g", b.Accuracy, b.C)
	}
	return fmt.Sprintf("%.6f,%d", b.Accuracy, b.Epoch)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
