package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/gwf-graphs/gwf/internal/jsonread"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
	"github.com/gwf-graphs/gwf/training/cluster"
)

// reportMethod is the classifier a classify report is of: methodSVM, or methodGWF for reports
// that name none (every report before fgw-svm existed).
func reportMethod(path string) (string, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	b, err := jsonread.Object(f, maxReportBytes)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", path, err)
	}
	var head struct {
		Method string `json:"method"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return "", nil, fmt.Errorf("%s: not a report of gwf classify --json: %w", path, err)
	}
	if head.Method == "" {
		head.Method = methodGWF
	}
	return head.Method, b, nil
}

// decodeSVMReport reads an fgw-svm cross-validation report.
func decodeSVMReport(path string, b []byte) (*svmReport, error) {
	var rep svmReport
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("%s: not a report of gwf classify --json: %w", path, err)
	}
	if err := checkFoldAccuracies(path, foldAccuracies(rep.Folds)); err != nil {
		return nil, err
	}
	return &rep, nil
}

// sameSVMSettings says whether two fgw-svm reports can be pooled: the same data, candidates and
// grid, the seed of the folds aside.
func sameSVMSettings(a, b *svmReport, fa, fb string) error {
	key := func(r *svmReport) []byte {
		s := r.Settings
		s.Grid.Seed = 0
		k, _ := json.Marshal([]any{r.Dataset, r.Graphs, r.Classes, len(r.Folds), r.Features, s})
		return k
	}
	ka, kb := key(a), key(b)
	if !bytes.Equal(ka, kb) {
		da, db := difference(ka, kb)
		return fmt.Errorf("%s and %s differ (%s against %s): pool runs of one setting that differ in their fold seed only", fa, fb, da, db)
	}
	return nil
}

// poolSVM summarises fgw-svm reports, each and all their folds together.
func poolSVM(files []string, reps []*svmReport) poolReport {
	var out poolReport
	var all []float64
	for i, rep := range reps {
		xs := foldAccuracies(rep.Folds)
		m, s := cluster.MeanStd(xs)
		out.Reports = append(out.Reports, pooledRun{File: files[i], Seed: rep.Settings.Grid.Seed, Folds: len(xs), Accuracy: meanStd{Mean: m, Std: s}})
		all = append(all, xs...)
	}
	m, s := cluster.MeanStd(all)
	out.Pooled = pooledRun{Folds: len(all), Accuracy: meanStd{Mean: m, Std: s}}
	return out
}

func writePoolSVM(w io.Writer, first *svmReport, p poolReport) error {
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

// foldAccuracies are the held-out accuracies of an fgw-svm cross-validation, fold by fold.
func foldAccuracies(folds []fgwsvm.FoldResult) []float64 {
	xs := make([]float64, len(folds))
	for i, r := range folds {
		xs[i] = r.Accuracy
	}
	return xs
}
