package main

import (
	"io"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup/crossval"
)

// protocolFlags are the flags 'gwf classify' and 'gwf semisup' share: how the labelled graphs
// are split (nested --folds, or one --labeled-fraction) and what is written.
type protocolFlags struct {
	folds     int
	foldSeed  uint64
	fraction  float64
	output    string
	outputDir string
	predFile  string
	json      bool
	// given is set by partlyLabelled: train on the labels as the data give them and predict
	// the graphs without one.
	given bool
}

// register adds the flags; output and outputDir say what the classifier file and the folder
// hold for the command.
func (p *protocolFlags) register(fs *pflag.FlagSet, output, outputDir string) {
	fs.IntVar(&p.folds, "folds", 10, "cross-validation folds")
	fs.Uint64Var(&p.foldSeed, "fold-seed", 1, "seed of the fold split (and of the --labeled-fraction choice)")
	fs.Float64Var(&p.fraction, "labeled-fraction", 0, "train once with this fraction of labelled graphs and score the rest (instead of --folds); 1: train one classifier on all labelled graphs")
	outputFlag(fs, &p.output, "", output)
	cli.RenamedFlag(fs, "output", "model") // --model reads a model elsewhere; here it wrote one
	outputDirFlag(fs, &p.outputDir, outputDir)
	fs.StringVar(&p.predFile, "predictions", "", "write the predictions as CSV to this file: with --folds every held-out graph's (graph,label,predicted,fold), with --labeled-fraction every graph's")
	jsonFlag(fs, &p.json, "the report")
}

// checkFraction refuses a --labeled-fraction outside [0, 1].
func (p *protocolFlags) checkFraction() error {
	if !(p.fraction >= 0 && p.fraction <= 1) {
		return cli.Usagef("--labeled-fraction = %v must be in (0, 1]", p.fraction)
	}
	return nil
}

// partlyLabelled decides what becomes of data where only some graphs have a class label (a
// folder read with graphs.PartialLabelsKept): with --folds or --labeled-fraction given, they
// score the labelled graphs alone, the others left out; with neither, the labelled graphs are
// trained on and the others predicted (p.given). Either way the log says so.
func (p *protocolFlags) partlyLabelled(a *app, fs *pflag.FlagSet, ds *graphs.Dataset) *graphs.Dataset {
	n := ds.Unlabelled()
	if n == 0 || n == len(ds.Graphs) {
		return ds
	}
	if fs.Changed("folds") || p.fraction > 0 {
		a.Log.Warnf("%d of the %d graphs have no class label: left out, the %d labelled ones used alone (without --folds and --labeled-fraction the others are predicted)", n, len(ds.Graphs), len(ds.Graphs)-n)
		return ds.LabelledOnly()
	}
	p.given = true
	a.Log.Infof("%d of the %d graphs have no class label: training on the %d labelled ones and predicting the others (--predictions writes every graph's prediction; --folds scores the labelled ones instead)", n, len(ds.Graphs), len(ds.Graphs)-n)
	return ds
}

// split is the one-split protocol of the flags: the labels as given (partlyLabelled), or
// --labeled-fraction.
func (p *protocolFlags) split() crossval.Fraction {
	return crossval.Fraction{Share: p.fraction, Seed: p.foldSeed, Given: p.given}
}

// classLabels are the class of every graph and the number of classes
// (crossval.ClassLabels); in --folds mode the classes must fill the folds, and a class with
// fewer graphs than folds is said to miss some.
func (p *protocolFlags) classLabels(a *app, ds *graphs.Dataset) ([]int, int, error) {
	if p.given {
		return crossval.PartlyClassLabels(ds)
	}
	labels, k, err := crossval.ClassLabels(ds)
	if err != nil || p.fraction > 0 {
		return labels, k, err
	}
	if p.folds < 2 || p.folds > len(labels) {
		return nil, 0, cli.Usagef("--folds = %d must be between 2 and the number of graphs (%d)", p.folds, len(labels))
	}
	short, err := crossval.FoldFit(labels, k, p.folds)
	if err != nil {
		return nil, 0, err
	}
	for _, c := range short {
		a.Log.Warnf("class %s has fewer graphs than the %d folds: some test folds hold none of it", ds.ClassText(c), p.folds)
	}
	return labels, k, nil
}

// writePredictions writes --predictions, if given.
func (p *protocolFlags) writePredictions(ds *graphs.Dataset, labels []int, s crossval.Split, text func(int) string) error {
	if p.predFile == "" {
		return nil
	}
	return cli.WriteOutput(nil, p.predFile, func(w io.Writer) error { return crossval.WritePredictions(w, graphNames(ds), labels, s, text) })
}

// writeHeldOut writes --predictions, if given, in --folds mode: the folds' held-out graphs.
func (p *protocolFlags) writeHeldOut(ds *graphs.Dataset, labels []int, folds []crossval.HeldOutFold) error {
	if p.predFile == "" {
		return nil
	}
	return cli.WriteOutput(nil, p.predFile, func(w io.Writer) error {
		return crossval.WriteHeldOut(w, graphNames(ds), labels, folds, ds.ClassText)
	})
}

// writeReport writes a classification report as --json says: JSON or text.
func (p *protocolFlags) writeReport(w io.Writer, rep interface{ WriteText(io.Writer) error }) error {
	if p.json {
		return cli.WriteJSON(w, rep)
	}
	return rep.WriteText(w)
}

// graphNames are the names of the graphs of ds, in data order.
func graphNames(ds *graphs.Dataset) []string {
	names := make([]string, len(ds.Graphs))
	for i, g := range ds.Graphs {
		names[i] = g.Name
	}
	return names
}
