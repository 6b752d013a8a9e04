package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/training/shard"
)

// methodLambdaSVM is 'gwf semisup --method lambda-svm': the paper's GWF model trained without
// labels on every graph, and an SVM on its λ (GDL's protocol).
const methodLambdaSVM = crossval.MethodLambdaSVM

// lambdaFlags are the flags of --method lambda-svm alone.
type lambdaFlags struct {
	epochs      []int
	repeats     int
	labelsAlone bool
}

func (l *lambdaFlags) register(fs *pflag.FlagSet) {
	fs.IntSliceVar(&l.epochs, "svm-epochs", nil, "--method lambda-svm: comma-separated epochs whose λ the SVM's inner cross-validation chooses among, with γ and C (default: the last of --epochs alone)")
	fs.IntVar(&l.repeats, "inner-repeats", crossval.DefaultInnerRepeats, "--method lambda-svm: repeat the SVM's inner 5-fold cross-validation over this many fold assignments and choose by the mean accuracy, steadier among near-equal epochs (1: GDL's protocol, one split)")
	fs.BoolVar(&l.labelsAlone, "labels-alone", false, "--method lambda-svm with --labeled-fraction: also fit the same model on the labelled graphs alone, embed every graph with its atoms fixed as 'gwf predict' does (the labelled ones too; once for each --svm-epochs candidate) and score the same SVM: what the unlabelled graphs add")
}

// checkLambdaMethod refuses the flags of the other methods with --method lambda-svm, and its
// own without it.
func (f *semisupFlags) checkLambdaMethod(fs *pflag.FlagSet) error {
	if f.tmpl.method != methodLambdaSVM {
		if name := cli.FirstChanged(fs, "svm-epochs", "inner-repeats", "labels-alone"); name != "" {
			return cli.Usagef("--%s is a setting of --method lambda-svm", name)
		}
		return nil
	}
	if err := f.checkGWFMethod(fs); err != nil {
		return err
	}
	if name := cli.FirstChanged(fs, "beta", "hidden", "activation", "head-input", "detach", "encoder", "encoder-hidden", "encoder-lr", "no-gwf",
		"head-steps", "head-lr", "head-decay", "validation", "select-beta", "select-detach", "select-unsupervised", "select-decay",
		"select-encoder-lr", "select-hidden", "refit", "baselines", "shard", "resume", "output"); name != "" {
		return cli.Usagef("--%s is not a setting of --method lambda-svm (the GWF model trains without labels; an SVM classifies; no classifier is saved)", name)
	}
	return nil
}

// runLambdaSVM is 'gwf semisup --method lambda-svm': cross-validation (--folds), or one split
// (--labeled-fraction under 1, or a folder labelled in part).
func runLambdaSVM(cmd *cobra.Command, a *app, f *semisupFlags) error {
	fs, p := cmd.Flags(), &f.protocol
	if err := f.data.check(); err != nil {
		return err
	}
	if err := p.checkFraction(); err != nil {
		return err
	}
	if p.fraction == 1 {
		return cli.Usagef("--method lambda-svm saves no classifier: --labeled-fraction 1 would score nothing (use a fraction under 1, or --folds)")
	}
	if p.outputDir != "" && p.fraction > 0 {
		return cli.Usagef("--output-dir is for cross-validation; with --labeled-fraction nothing is kept")
	}
	cfg, err := f.train.configLogged(fs, a.Log)
	if err != nil {
		return err
	}
	if r := f.lambda.repeats; r < 1 || r > crossval.MaxInnerRepeats { // the spec reads 0 as its default; the flag takes what it is given
		return cli.Usagef("--inner-repeats = %d: want 1 to %d", r, crossval.MaxInnerRepeats)
	}
	spec := crossval.LambdaSVMSpec{Epochs: f.lambda.epochs, InnerRepeats: f.lambda.repeats, LabelsAlone: f.lambda.labelsAlone}
	if fs.Changed("wl-labels") { // the template model's default (3) is not lambda-svm's (0)
		spec.WLLabels = f.tmpl.wlLabels
		if spec.WLLabels < 0 || spec.WLLabels > graphs.MaxWLIterations {
			return cli.Usagef("--wl-labels = %d: want 0 to %d", spec.WLLabels, graphs.MaxWLIterations)
		}
	}
	if err := spec.Validate(cfg.Epochs); err != nil {
		return cli.Usagef("--svm-epochs, --inner-repeats: %v", err)
	}
	release, err := lockOutputDir(p.outputDir, shard.Whole(), a.Log)
	if err != nil {
		return err
	}
	defer release()
	f.data.PartialLabels = graphs.PartialLabelsKept
	ds, err := f.data.loadTraining(a.Log)
	if err != nil {
		return err
	}
	ds = p.partlyLabelled(a, fs, ds)
	if spec.LabelsAlone && p.fraction == 0 {
		return cli.Usagef("--labels-alone needs --labeled-fraction: it scores both models on the graphs whose labels were hidden")
	}
	labels, classes, err := p.classLabels(a, ds)
	if err != nil {
		return err
	}
	read, err := spec.Read(ds.Graphs) // the graphs as the model reads them, for --feature-weight auto
	if err != nil {
		return cli.Usagef("--wl-labels: %v", err)
	}
	if err := f.train.resolveFeatureWeight(&cfg, graphs.Slice(read), a.Log); err != nil {
		return err
	}
	opt := crossval.CVOptions{Folds: p.folds, Seed: p.foldSeed, Dir: p.outputDir}
	opt.Workers, opt.Observe = f.train.Workers, a.observer("training", nil)
	a.Log.Infof("classifying %s (%d graphs, %d classes) with an SVM on the λ of the GWF model trained without labels: %s", ds.Name, len(ds.Graphs), classes, cfg.Describe())
	if p.fraction > 0 || p.given {
		rep, split, err := crossval.FractionLambdaSVM(cmd.Context(), ds, labels, classes, cfg, p.split(), spec, opt)
		if err != nil {
			return err
		}
		if err := p.writePredictions(ds, labels, split, ds.ClassText); err != nil {
			return err
		}
		return p.writeReport(cmd.OutOrStdout(), rep)
	}
	rep, err := crossval.CrossValidateLambdaSVM(cmd.Context(), ds, labels, classes, cfg, spec, opt)
	if err != nil {
		return err
	}
	if err := p.writeReport(cmd.OutOrStdout(), rep); err != nil {
		return err
	}
	return p.writeHeldOut(ds, labels, rep.HeldOut())
}
