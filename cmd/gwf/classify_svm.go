package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
	classexp "github.com/gwf-graphs/gwf/semisup/experiment"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
)

// The two classifiers of 'gwf classify'.
const (
	methodSVM = classexp.MethodSVM // an SVM on a kernel of pairwise FGW discrepancies (the default)
	methodGWF = classexp.MethodGWF // the paper's semi-supervised GWF model
)

// svmFlags are the flags that --method fgw-svm reads besides the data flags.
var svmFlags = map[string]bool{
	"method": true, "wl": true, "feature-weight": true, "inner-folds": true, "inner-repeats": true, "screen": true, "vote": true, "output-dir": true,
	"folds": true, "fold-seed": true, "labeled-fraction": true, "output": true, "model": true,
	"predictions": true, "json": true, "quiet": true, "workers": true,
}

// checkSVMFlags refuses the flags of the GWF model with --method fgw-svm.
func checkSVMFlags(fs *pflag.FlagSet) error {
	var err error
	fs.Visit(func(fl *pflag.Flag) {
		if err == nil && !svmFlags[fl.Name] && fs.Lookup(fl.Name) != nil && !isDataFlag(fl.Name) {
			err = usagef("--%s is a setting of the GWF model: give --method gwf with it (the default --method fgw-svm chooses its own settings on the training graphs)", fl.Name)
		}
	})
	return err
}

func isDataFlag(name string) bool {
	switch name {
	case "dataset", "tu", "graphs", "features", "standardize", "max-nodes", "max-memory", "subset", "subset-seed", "structure":
		return true
	}
	return false
}

// svmCandidates are the candidates the flags leave to choose from (fgwsvm.Candidates): one
// structure when --structure names it, one weight when --feature-weight is a number, one
// number of Weisfeiler-Lehman iterations when --wl is.
func (f *classifyFlags) svmCandidates(fs *pflag.FlagSet, data []*graphs.Graph, enc graphs.FeatureEncoding) ([]fgwsvm.Candidate, error) {
	var n fgwsvm.Narrow
	if s, auto := f.data.StructureChoice(); !auto {
		n.Structure = s
	}
	if fs.Changed("feature-weight") && !f.train.featureWeight.auto {
		n.FeatureWeight = f.train.featureWeight.w
	}
	if f.wl != "auto" {
		h, err := strconv.Atoi(f.wl)
		if err != nil || h < 0 || h > graphs.MaxWLIterations {
			return nil, usagef("--wl = %q: give auto or a number of iterations from 0 to %d", f.wl, graphs.MaxWLIterations)
		}
		n.WL = &h
	}
	return fgwsvm.Candidates(data, enc, n)
}

func runClassifySVM(cmd *cobra.Command, a *app, f *classifyFlags) error {
	fs := cmd.Flags()
	if err := checkSVMFlags(fs); err != nil {
		return err
	}
	if !(f.fraction >= 0 && f.fraction <= 1) {
		return usagef("--labeled-fraction = %v must be in (0, 1]", f.fraction)
	}
	if (f.output != "") != (f.fraction == 1) {
		return usagef("--output writes the classifier trained on all labelled graphs: give it with --labeled-fraction 1")
	}
	if f.predFile != "" && f.fraction == 0 {
		return usagef("--predictions needs --labeled-fraction")
	}
	if f.repeats < 1 { // 0 would select the library's default: on the command line it is a mistake
		return usagef("--inner-repeats = %d must be at least 1", f.repeats)
	}
	if err := f.data.check(); err != nil {
		return err
	}
	// The candidates apply their structures themselves: read the adjacency.
	raw := f.data
	raw.Structure = "auto"
	ds, used, err := raw.loadAutoFeatures(fs, a.log)
	if err != nil {
		return err
	}
	data := ds.Graphs
	labels, classesN, err := f.classLabels(a, ds)
	if err != nil {
		return err
	}
	cands, err := f.svmCandidates(fs, data, ds.Encoding)
	if err != nil {
		return err
	}
	grid := fgwsvm.DefaultGrid()
	grid.Folds, grid.Seed, grid.Repeats = f.innerFolds, f.foldSeed, f.repeats
	set := fgwsvm.Settings{Candidates: cands, Grid: grid, Screen: f.screen, Vote: f.vote}
	if err := set.Validate(); err != nil {
		return usagef("%v", err)
	}
	set.Vote = set.VoteFor(len(data))
	a.log.Infof("classifying %s (%d graphs, %d classes) with an SVM on FGW discrepancies (exact CG solver); node features: %s; %d candidates: %s",
		ds.Name, len(data), classesN, used, len(cands), classexp.DescribeCandidates(cands))
	ctx, stop := withSignals(cmd.Context(), a.log)
	defer stop()
	opt := fgwsvm.Options{Workers: f.train.workers, Dir: f.outputDir, Observe: a.observer("computing", nil)}
	interrupted := func(err error) error {
		if ctx.Err() != nil {
			return interruptedError{"interrupted"}
		}
		return err
	}
	switch {
	case f.fraction == 1:
		m, rep, err := classexp.TrainSVM(ctx, ds, labels, classesN, used, set, opt)
		if err != nil {
			return interrupted(err)
		}
		if err := m.Save(f.output); err != nil {
			return err
		}
		rep.Protocol += fmt.Sprintf("; saved to %s for 'gwf predict'", f.output)
		a.log.Infof("chose %s; kept %d support graphs", rep.Chosen(), len(m.Graphs))
		return writeReport(cmd.OutOrStdout(), f.json, rep)
	case f.fraction > 0:
		return classifySVMFraction(ctx, cmd, a, f, ds, labels, classesN, used, set, opt)
	}
	cv, err := classexp.CrossValidateSVM(ctx, ds, labels, classesN, used, classexp.SVMSpec{
		Folds: f.folds, Seed: f.foldSeed, Settings: set, Options: opt, ReportDir: f.outputDir,
		FoldDone: func(r fgwsvm.FoldResult) {
			a.log.Infof("fold %d/%d: accuracy %.2f%% on %d graphs; chose %s", r.Fold, f.folds, 100*r.Accuracy, r.Test, r.Chosen())
		},
	})
	if err != nil {
		return interrupted(err)
	}
	return writeReport(cmd.OutOrStdout(), f.json, cv)
}

// classifySVMFraction keeps a stratified fraction of the labels, trains on them and scores
// the other graphs.
func classifySVMFraction(ctx context.Context, cmd *cobra.Command, a *app, f *classifyFlags, ds *graphs.Dataset, labels []int, classesN int, features string, set fgwsvm.Settings, opt fgwsvm.Options) error {
	rep, split, err := classexp.FractionSVM(ctx, ds, labels, classesN, features, classexp.Fraction{Share: f.fraction, Seed: f.foldSeed}, set, opt)
	if err != nil {
		if ctx.Err() != nil {
			return interruptedError{"interrupted"}
		}
		return err
	}
	a.log.Infof("chose %s", rep.Chosen())
	if err := f.writePredictions(ds, labels, split, func(c int) string { return classText(ds, c) }); err != nil {
		return err
	}
	return writeReport(cmd.OutOrStdout(), f.json, rep)
}

// writePredictions writes --predictions, if given.
func (f *classifyFlags) writePredictions(ds *graphs.Dataset, labels []int, s classexp.Split, text func(int) string) error {
	if f.predFile == "" {
		return nil
	}
	names := make([]string, len(ds.Graphs))
	for i, g := range ds.Graphs {
		names[i] = g.Name
	}
	return writeOutput(nil, f.predFile, func(w io.Writer) error { return classexp.WritePredictions(w, names, labels, s, text) })
}

// classText is class c of the dataset as its files wrote it.
func classText(ds *graphs.Dataset, c int) string {
	switch {
	case c < len(ds.ClassNames):
		return ds.ClassNames[c]
	case c < len(ds.Classes):
		return strconv.Itoa(ds.Classes[c])
	}
	return strconv.Itoa(c)
}
