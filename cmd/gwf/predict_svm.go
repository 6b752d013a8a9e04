package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/internal/cli"
	classexp "github.com/gwf-graphs/gwf/semisup/experiment"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
)

// isSVMClassifier reports whether the file at path is a classifier of 'gwf classify
// with --labeled-fraction 1 --output' (false for any other file, or one it cannot read: Load says why).
func isSVMClassifier(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	return fgwsvm.IsClassifierFile(head[:n])
}

// svmClassLabel is class c of m for the report: its name for text labels, else its number.
func svmClassLabel(m *fgwsvm.Model, c int) any {
	if m.ClassNames != nil {
		return m.LabelText(c)
	}
	return m.Label(c)
}

// runPredictSVM predicts with an fgw-svm classifier: the discrepancies of every graph to the
// classifier's support graphs, as cross-validation computed them for held-out graphs.
func runPredictSVM(cmd *cobra.Command, a *app, f *predictFlags) error {
	if cmd.Flags().Changed("steps") || f.embed.transform {
		return cli.Usagef("--steps and --transform are for GWF classifiers: an fgw-svm classifier compares graphs directly")
	}
	m, err := fgwsvm.Load(f.model)
	if err != nil {
		return err
	}
	if err := f.data.useModelFeatures(a.log, &m.Features); err != nil {
		return err
	}
	ds, err := f.data.load()
	if err != nil {
		return err
	}
	warnUnknownNodeLabels(a.log, ds.UnknownNodeLabels)
	data := ds.Graphs
	opt := fgwsvm.Options{Workers: f.embed.workers, Observe: a.observer("computing", nil)}
	a.log.Infof("comparing %d graphs with the classifier's %d support graphs (%s)", len(data), len(m.Graphs), m.Vote())
	pred, err := m.Predict(cmd.Context(), data, opt)
	if err != nil {
		return err
	}
	var classes []any
	for c := 0; c < m.Voters[0].SVM.Classes; c++ {
		classes = append(classes, svmClassLabel(m, c))
	}
	rep, err := classexp.NewPredictions(ds, classes, pred, nil)
	if err != nil {
		return err
	}
	return f.write(cmd.OutOrStdout(), a, rep)
}
