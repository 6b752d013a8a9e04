package main

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup/crossval"
)

func newPoolCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "pool REPORT.json...",
		Short: "Pool the folds of several 'gwf classify' or 'gwf semisup' --json runs (seeds) into one mean ± std",
		Long: `pool reads the reports of cross-validations that 'gwf classify' or 'gwf semisup' (any
--method) --json (or --output-dir's report.json) wrote for one dataset and one setting with
different seeds, and summarises every
fold of all of them as one: the accuracy as mean ± std over folds × seeds, and, where the
reports have them, the baselines on the same folds (the β = 0 head, the logistic regression),
the folds where the classifier scores better and worse than each, the trained model alone and
how many folds chose the β = 0 head — the numbers 'gwf classify' prints for one seed. Each
report's own summary is listed first.

The reports must be of the same data and settings but for the seed (training.Config.Seed and
the selection's seed; for fgw-svm reports, the fold seed; for the template model's, the fold
seed and --seed, and likewise for lambda-svm's): pooling other settings, or reports of two classifiers, is refused, naming the
first that differs.`,
		Example: `  gwf classify --dataset MUTAG --folds 10 --fold-seed 1 --json > mutag-1.json
  gwf classify --dataset MUTAG --folds 10 --fold-seed 2 --json > mutag-2.json
  gwf pool mutag-1.json mutag-2.json
  gwf semisup --dataset MUTAG --folds 10 --fold-seed 1 --json > templates-1.json
  gwf semisup --dataset MUTAG --folds 10 --fold-seed 2 --json > templates-2.json
  gwf pool templates-1.json templates-2.json
  gwf semisup --method gwf --dataset MUTAG --folds 10 --seed 1 --fold-seed 1 --json > gwf-1.json
  gwf semisup --method gwf --dataset MUTAG --folds 10 --seed 2 --fold-seed 2 --json > gwf-2.json
  gwf pool --json gwf-1.json gwf-2.json`,
		Args: func(_ *cobra.Command, files []string) error {
			if len(files) == 0 {
				return cli.Usagef("give the reports to pool: gwf pool REPORT.json...")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, files []string) error {
			reps := make([]crossval.Report, len(files))
			for i, f := range files {
				rep, err := crossval.ReadFile(f)
				if err != nil {
					return err
				}
				reps[i] = rep
			}
			out, err := crossval.Pool(files, reps)
			if errors.Is(err, crossval.ErrMismatch) {
				return cli.Usage(err)
			}
			if err != nil {
				return err
			}
			if v := out.Versions(); len(v) > 1 {
				a.Log.Warnf("the reports were made by %d builds of gwf (%s): their numbers may differ for that reason too", len(v), strings.Join(v, "; "))
			}
			first := reps[0]
			a.Log.Infof("pooled %d folds of %d reports of %s", out.Pooled.Folds, len(reps), first.Dataset())
			if asJSON {
				return cli.WriteJSON(cmd.OutOrStdout(), out)
			}
			return out.WriteText(cmd.OutOrStdout(), first)
		},
	}
	jsonFlag(cmd.Flags(), &asJSON, "the summaries")
	return cmd
}
