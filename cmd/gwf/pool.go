package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	classexp "github.com/gwf-graphs/gwf/semisup/experiment"
)

func newPoolCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "pool REPORT.json...",
		Short: "Pool the folds of several 'gwf classify --json' runs (seeds) into one mean ± std",
		Long: `pool reads the reports of cross-validations that 'gwf classify --json' (or --output-dir's
report.json) wrote for one dataset and one setting with different seeds, and summarises every
fold of all of them as one: the accuracy as mean ± std over folds × seeds, and, where the
reports have them, the baselines on the same folds (the β = 0 head, the logistic regression),
the folds where the classifier scores better and worse than each, the trained model alone and
how many folds chose the β = 0 head — the numbers 'gwf classify' prints for one seed. Each
report's own summary is listed first.

The reports must be of the same data and settings but for the seed (training.Config.Seed and
the selection's seed; for fgw-svm reports, the fold seed): pooling other settings, or reports
of both classifiers, is refused, naming the first that differs.`,
		Example: `  gwf classify --dataset MUTAG --folds 10 --fold-seed 1 --json > mutag-1.json
  gwf classify --dataset MUTAG --folds 10 --fold-seed 2 --json > mutag-2.json
  gwf pool mutag-1.json mutag-2.json
  gwf classify --method gwf --dataset MUTAG --folds 10 --seed 1 --fold-seed 1 --json > gwf-1.json
  gwf classify --method gwf --dataset MUTAG --folds 10 --seed 2 --fold-seed 2 --json > gwf-2.json
  gwf pool --json gwf-1.json gwf-2.json`,
		Args: func(_ *cobra.Command, files []string) error {
			if len(files) == 0 {
				return usagef("give the reports to pool: gwf pool REPORT.json...")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, files []string) error {
			reps := make([]classexp.Report, len(files))
			for i, f := range files {
				rep, err := classexp.ReadFile(f)
				if err != nil {
					return err
				}
				reps[i] = rep
			}
			out, err := classexp.Pool(files, reps)
			if errors.Is(err, classexp.ErrMismatch) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			first := reps[0]
			dataset := first.SVM
			if first.GWF != nil {
				a.log.Infof("pooled %d folds of %d reports of %s", out.Pooled.Folds, len(reps), first.GWF.Dataset)
			} else {
				a.log.Infof("pooled %d folds of %d reports of %s", out.Pooled.Folds, len(reps), dataset.Dataset)
			}
			switch {
			case asJSON:
				return writeJSON(cmd.OutOrStdout(), out)
			case first.GWF != nil:
				return writePool(cmd.OutOrStdout(), first.GWF, out)
			}
			return writePoolSVM(cmd.OutOrStdout(), first.SVM, out)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summaries as JSON")
	return cmd
}

func writePool(w io.Writer, first *classexp.GWFReport, p classexp.Pooled) error {
	settings := strings.TrimSuffix(describeConfig(first.Config), fmt.Sprintf(", seed %d", first.Config.Seed))
	fmt.Fprintf(w, "%s: %d graphs, %d classes; %d reports of %d folds\nhead: β = %g, hidden %v, %s; %s\n\n", first.Dataset, first.Graphs, first.Classes,
		len(p.Reports), len(first.Folds), first.Semisup.Beta, first.Semisup.Hidden, first.Semisup.Activation, settings)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "report\tseed\taccuracy %\tβ = 0 head %\tlogistic regression %\tchose β = 0\t")
	for _, r := range append(p.Reports, p.Pooled) {
		file, seed, b0, lr, chose := "all pooled", "", "–", "–", "–"
		if r.File != "" {
			file, seed = r.File, fmt.Sprint(r.Seed)
		}
		if b := r.Baselines; b != nil {
			b0, lr = fmt.Sprintf("%.1f ± %.1f", 100*b.Beta0.Mean, 100*b.Beta0.Std), fmt.Sprintf("%.1f ± %.1f", 100*b.LogReg.Mean, 100*b.LogReg.Std)
			if b.Joint != nil {
				chose = fmt.Sprintf("%d of %d", b.ChoseBeta0, b.Folds)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f ± %.1f\t%s\t%s\t%s\t\n", file, seed, 100*r.Accuracy.Mean, 100*r.Accuracy.Std, b0, lr, chose)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\naccuracy: %.1f ± %.1f %% (mean ± std over %d folds of %d reports)\n", 100*p.Pooled.Accuracy.Mean, 100*p.Pooled.Accuracy.Std, p.Pooled.Folds, len(p.Reports))
	if b := p.Pooled.Baselines; b != nil {
		beta0, logreg := b.Beats()
		fmt.Fprintf(w, "semi-supervised beats the β = 0 head: %s (%d folds better, %d worse); beats logistic regression: %s (%d better, %d worse)\n",
			yesNo(beta0), b.WinsBeta0, b.LossesBeta0, yesNo(logreg), b.WinsLogReg, b.LossesLogReg)
		if b.Joint != nil {
			fmt.Fprintf(w, "the validation split chose the β = 0 head in %d of %d folds; the trained model alone (without that candidate): %.1f ± %.1f %%\n",
				b.ChoseBeta0, b.Folds, 100*b.Joint.Mean, 100*b.Joint.Std)
		}
	}
	return nil
}

func writePoolSVM(w io.Writer, first *classexp.SVMReport, p classexp.Pooled) error {
	fmt.Fprintf(w, "%s: %d graphs, %d classes; %d fgw-svm reports of %d folds; node features: %s\n\n", first.Dataset, first.Graphs, first.Classes,
		len(p.Reports), len(first.Folds), first.Features)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "report\tfold seed\taccuracy %\t")
	for _, r := range append(p.Reports, p.Pooled) {
		file, seed := "all pooled", ""
		if r.File != "" {
			file, seed = r.File, fmt.Sprint(r.Seed)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f ± %.1f\t\n", file, seed, 100*r.Accuracy.Mean, 100*r.Accuracy.Std)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\naccuracy: %.1f ± %.1f %% (mean ± std over %d folds of %d reports)\n", 100*p.Pooled.Accuracy.Mean, 100*p.Pooled.Accuracy.Std, p.Pooled.Folds, len(p.Reports))
	return err
}
