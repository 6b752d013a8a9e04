package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/semisup"
)

// maxReportBytes bounds a classify report read by pool: a report of 10 folds is a few hundred
// kilobytes (its held-out predictions and validation curves).
const maxReportBytes = 256 << 20

// poolReport is the JSON of 'gwf pool': each report's summary and the folds of all pooled.
type poolReport struct {
	Reports []pooledRun `json:"reports"`
	Pooled  pooledRun   `json:"pooled"`
}

// pooledRun summarises the folds of one report, or of all (File empty, Seed 0).
type pooledRun struct {
	File      string           `json:"file,omitempty"`
	Seed      uint64           `json:"seed,omitempty"`
	Folds     int              `json:"folds"`
	Accuracy  meanStd          `json:"accuracy"`
	Baselines *semisup.Summary `json:"baselines,omitempty"`
}

func newPoolCmd(a *app) *cobra.Command {
	var asJSON, quiet bool
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
			a.quiet(cmd.Flags(), quiet)
			method, _, err := reportMethod(files[0])
			if err != nil {
				return err
			}
			if method == methodSVM {
				return runPoolSVM(cmd, a, files, asJSON)
			}
			var reps []*classifyReport
			for _, f := range files {
				rep, err := readClassifyReport(f)
				if err != nil {
					return err
				}
				if len(reps) > 0 {
					if err := samePoolSettings(reps[0], rep, files[0], f); err != nil {
						return usageError{err}
					}
				}
				reps = append(reps, rep)
			}
			out := poolReports(files, reps)
			a.log.Infof("pooled %d folds of %d reports of %s", out.Pooled.Folds, len(reps), reps[0].Dataset)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), out)
			}
			return writePool(cmd.OutOrStdout(), reps[0], out)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summaries as JSON")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "do not log")
	return cmd
}

// readClassifyReport reads a cross-validation report of 'gwf classify --method gwf --json'.
func readClassifyReport(path string) (*classifyReport, error) {
	_, b, err := reportMethod(path)
	if err != nil {
		return nil, err
	}
	var rep classifyReport
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("%s: not a report of gwf classify --json: %w", path, err)
	}
	accs := make([]float64, len(rep.Folds))
	for i, r := range rep.Folds {
		accs[i] = r.Accuracy
	}
	if err := checkFoldAccuracies(path, accs); err != nil {
		return nil, err
	}
	return &rep, nil
}

// checkFoldAccuracies refuses a report without folds or with an accuracy outside [0, 1].
func checkFoldAccuracies(path string, accs []float64) error {
	if len(accs) == 0 {
		return fmt.Errorf("%s: no folds: not the report of a cross-validation (gwf classify --folds, --json)", path)
	}
	for i, a := range accs {
		if !(a >= 0 && a <= 1) {
			return fmt.Errorf("%s: fold %d: accuracy %v is not in [0, 1]", path, i+1, a)
		}
	}
	return nil
}

// samePoolSettings says whether the reports a and b (of the files fa and fb) can be pooled:
// the same data and settings, the seeds aside.
func samePoolSettings(a, b *classifyReport, fa, fb string) error {
	key := func(r *classifyReport) map[string]any {
		cfg := r.Config
		cfg.Seed = 0
		k := map[string]any{"dataset": r.Dataset, "graphs": r.Graphs, "classes": r.Classes, "folds": len(r.Folds),
			"head and encoder (semisup)": r.Semisup, "GWF settings (config)": cfg, "baselines": r.Baselines != nil}
		if r.Selection != nil {
			sel := *r.Selection
			sel.Seed = 0
			k["selection"] = sel
		}
		return k
	}
	ka, kb := key(a), key(b)
	for _, name := range []string{"dataset", "graphs", "classes", "folds", "GWF settings (config)", "head and encoder (semisup)", "selection", "baselines"} {
		ja, err1 := json.Marshal(ka[name])
		jb, err2 := json.Marshal(kb[name])
		if err1 != nil || err2 != nil {
			return fmt.Errorf("comparing %s: %v %v", name, err1, err2)
		}
		if !bytes.Equal(ja, jb) {
			da, db := difference(ja, jb)
			return fmt.Errorf("%s and %s differ in %s (%s against %s): pool runs of one setting that differ in their seed only", fa, fb, name, da, db)
		}
	}
	return nil
}

// difference shows where the JSON values a and b first differ: each from a few bytes before
// that point, cut after some more.
func difference(a, b []byte) (string, string) {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-30)
	show := func(x []byte) string {
		s, end := string(x[from:]), ""
		if len(s) > 90 {
			s, end = s[:90], "..."
		}
		if from > 0 {
			s = "..." + s
		}
		return s + end
	}
	return show(a), show(b)
}

// poolReports summarises each report and all their folds together.
func poolReports(files []string, reps []*classifyReport) poolReport {
	var out poolReport
	var all []semisup.FoldResult
	for i, rep := range reps {
		out.Reports = append(out.Reports, summariseFolds(rep.Folds))
		out.Reports[i].File, out.Reports[i].Seed = files[i], rep.Config.Seed
		all = append(all, rep.Folds...)
	}
	out.Pooled = summariseFolds(all)
	return out
}

func summariseFolds(folds []semisup.FoldResult) pooledRun {
	m, s := semisup.MeanStd(folds)
	return pooledRun{Folds: len(folds), Accuracy: meanStd{Mean: m, Std: s}, Baselines: semisup.Summarize(folds)}
}

func writePool(w io.Writer, first *classifyReport, p poolReport) error {
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

// runPoolSVM pools the reports of 'gwf classify --method fgw-svm'.
func runPoolSVM(cmd *cobra.Command, a *app, files []string, asJSON bool) error {
	var reps []*svmReport
	for _, f := range files {
		method, b, err := reportMethod(f)
		if err != nil {
			return err
		}
		if method != methodSVM {
			return usagef("%s is a report of --method %s, %s of --method %s: pool reports of one classifier", f, method, files[0], methodSVM)
		}
		rep, err := decodeSVMReport(f, b)
		if err != nil {
			return err
		}
		if len(reps) > 0 {
			if err := sameSVMSettings(reps[0], rep, files[0], f); err != nil {
				return usageError{err}
			}
		}
		reps = append(reps, rep)
	}
	out := poolSVM(files, reps)
	a.log.Infof("pooled %d folds of %d reports of %s", out.Pooled.Folds, len(reps), reps[0].Dataset)
	if asJSON {
		return writeJSON(cmd.OutOrStdout(), out)
	}
	return writePoolSVM(cmd.OutOrStdout(), reps[0], out)
}
