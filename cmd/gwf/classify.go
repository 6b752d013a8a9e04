package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup"
	classexp "github.com/gwf-graphs/gwf/semisup/experiment"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/shard"
)

type classifyFlags struct {
	data       dataFlags
	train      trainFlags
	folds      int
	foldSeed   uint64
	beta       float64
	hidden     string
	activation string
	input      string
	detach     bool
	encoder    encoderFlags
	selEncLR   string
	noGWF      bool
	head       semisup.HeadTraining
	fraction   float64
	output     string
	outputDir  string
	shard      string
	predFile   string
	resume     bool
	validation float64
	selBeta    string
	selDetach  bool
	selUnsup   bool
	selDecay   string
	selHidden  string
	refit      bool
	baselines  bool
	json       bool
	method     string
	wl         string
	innerFolds int
	repeats    int
	screen     int
	vote       int
}

func newClassifyCmd(a *app) *cobra.Command {
	var f classifyFlags
	d := semisup.DefaultConfig()
	cmd := &cobra.Command{
		Use:   "classify (--dataset NAME | --tu DIR)",
		Short: "Classify graphs: an SVM on FGW discrepancies (default) or the paper's semi-supervised GWF",
		Long: `classify trains a graph classifier on labelled graphs and scores it.

The default, --method fgw-svm, is the classifier of Vayer et al. (FGW, ICML 2019): a support
vector machine on the kernel exp(−γ·d) of the pairwise fused GW discrepancies d, computed with
the exact conditional-gradient solver. Unless --features is given it uses what the data have:
node attributes (standardized) and one-hot node labels, either of them, or else node degrees
and the Weisfeiler-Lehman labels that start from them, as well as the structure alone
(--features none: structure only); with both, the attributes alone, both together or the
labels alone are candidates. Everything else is chosen by --inner-folds cross-validation
on the training graphs alone: the structure matrix (adjacency or shortest paths, --structure),
the weight of the node-feature cost (0.25, 2, 16, 128 or 1024 times the weight that balances
the two costs' means; a number given with --feature-weight is kept), on node labels (or none)
whether they are compared as they are or as their Weisfeiler-Lehman labels after 2 or 4
iterations (Hamming distance, as FGW does), γ (relative to the median discrepancy) and C. The
SVMs of the best candidates vote, each with its own γ and C (--vote): the best third (at most
ten) where every candidate is computed in full, the best three of the screening with it. The
discrepancies use no label, so they are computed once for all graphs (n(n−1)/2 solves a
candidate, logged with an ETA; with more than --screen graphs every candidate is first compared
on a random subset and only those the training folds choose there are computed in full); a
held-out graph's row is exactly what a saved classifier computes for an unseen graph. --folds runs nested
cross-validation; --labeled-fraction p trains on a stratified fraction p and scores the rest;
--labeled-fraction 1 --output FILE saves a classifier (its support graphs, voters and SVMs) for
'gwf predict'.

--method gwf trains GWF models with a classifier head on the embeddings (the paper's eq. ssl:
the GWF loss plus beta times the head's cross-entropy on the labelled graphs, one Gorgonia graph
and one backward pass per mini-batch) and scores its predictions. After the joint epochs the head
alone is trained to convergence on the final embeddings (--head-steps full-batch Adam steps; 0
turns this off): during them it gets only one step per mini-batch.

With --method gwf it runs by default nested stratified --folds cross-validation: for each fold, the held-out
graphs take part in the GWF term unlabelled; a stratified --validation fraction of the other
folds' labelled graphs is held out too, and chooses the stopping epoch and, when --select-beta,
--select-detach or --select-decay name several settings, the configuration; the chosen model
(or, with --refit, the chosen settings retrained on all the fold's labels) is scored once on
the held-out fold. The β = 0 head below is a candidate too (--select-unsupervised, on by
default): where it scores better on the validation split, it is the fold's classifier, so that
where the labels make the embeddings worse the classifier can fall back to embeddings trained
without them (the trained model's own held-out accuracy is reported as joint_accuracy). No
held-out label chooses anything. On the same folds it scores two baselines (--baselines): the
same head on the embeddings of the same model trained without labels (β = 0: GWF for free z,
the encoder trained by the GWF term alone with --encoder; its epoch chosen on the same
validation split) and a logistic regression on that model's λ (C chosen by 5-fold
cross-validation on the fold's training graphs; none with --no-gwf). --validation 0 gives the
un-nested protocol (fixed settings, last epoch), with the authors' best-epoch number as a
diagnostic. --output-dir keeps every finished fold (fold<f>.json), the model trained without
labels (unsupervised.json) and the report (report.json), and checkpoints whatever is training
after each of its epochs (fold<f>.checkpoint.json with two models, unsupervised.checkpoint):
run again with the same data and settings, the command reuses what is saved there, so a killed
cross-validation continues at the epoch where it stopped (folds saved without the β = 0
candidate keep their trained models, the candidate is added). With it, --shard i/n runs only
the folds f with (f − 1) mod n = i, so that n processes or machines sharing the folder run the
folds side by side; a last run without --shard reuses them all and writes the report.

With --labeled-fraction p it instead keeps the labels of a stratified random fraction p of the
graphs (seeded by --fold-seed), trains once and scores the predictions on the other graphs;
--predictions writes every graph's prediction as CSV. --labeled-fraction 1 trains one
classifier on all labelled graphs: --output saves it for 'gwf predict'.

Its training flags are those of 'gwf fit' (the paper's defaults); with --method fgw-svm they
are refused.`,
		Example: `  gwf classify --dataset MUTAG --folds 10
  gwf classify --graphs ./my-graphs --labeled-fraction 0.5 --predictions predictions.csv
  gwf classify --graphs ./my-graphs --labeled-fraction 1 --output my.classifier
  gwf predict --model my.classifier --graphs ./new-graphs
  gwf classify --method gwf --dataset MUTAG --folds 10 --select-beta 0.1,1 --select-detach --json
  gwf classify --method gwf --dataset PROTEINS --folds 10 --output-dir results/   # rerun to continue after a kill
  gwf classify --method gwf --dataset PROTEINS --folds 10 --output-dir results/ --shard 0/2   # and 1/2 elsewhere; then without --shard
  gwf classify --method gwf --dataset MUTAG --labeled-fraction 1 --output mutag.classifier
  gwf predict --model mutag.classifier --tu ./new-graphs --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runClassify(cmd, a, &f)
		},
	}
	fs := cmd.Flags()
	f.data.register(fs)
	f.train.register(fs)
	fs.IntVar(&f.folds, "folds", 10, "cross-validation folds")
	fs.Uint64Var(&f.foldSeed, "fold-seed", 1, "seed of the fold split (and of the --labeled-fraction choice)")
	fs.Float64Var(&f.beta, "beta", d.Beta, "weight β of the classification loss")
	fs.StringVar(&f.hidden, "hidden", "32", `hidden layer sizes of the head, comma-separated ("" or 0: a linear head)`)
	fs.StringVar(&f.activation, "activation", d.Activation, "activation of the hidden layers: relu or tanh")
	fs.StringVar(&f.input, "head-input", d.Input, "what the head reads: centered (z minus its mean: the identifiable part of z), lambda (softmax(z)) or z (the raw embedding, as eq. ssl)")
	fs.BoolVar(&f.detach, "detach", false, "stop the classification gradient at the embeddings: the labels train the head only. The default with free z (--encoder none), where the cross-entropy reaches only the labelled graphs' own z and moves them away from the unlabelled graphs of their class; --detach=false is the paper's eq. ssl. Not the default with an encoder, whose shared weights carry the labels to every graph")
	f.encoder.register(fs, "the GWF term and the labels")
	fs.BoolVar(&f.noGWF, "no-gwf", false, "train without the GWF term (the labels alone): the baseline that shows what the GWF term adds")
	fs.IntVar(&f.head.Steps, "head-steps", d.Head.Steps, "after the joint epochs, train the head alone on the final embeddings for this many full-batch Adam steps (0: not at all)")
	fs.Float64Var(&f.head.LearningRate, "head-lr", d.Head.LearningRate, "learning rate of those head steps")
	fs.Float64Var(&f.head.WeightDecay, "head-decay", d.Head.WeightDecay, "weight decay (L2 on the head's weights) of those head steps")
	fs.Float64Var(&f.validation, "validation", classexp.DefaultValidation, "nested protocol: fraction of each fold's labelled graphs held out to choose the epoch and settings (0: no selection, the un-nested protocol)")
	fs.StringVar(&f.selBeta, "select-beta", "", "nested protocol: comma-separated values of β to choose from (default: --beta alone)")
	fs.BoolVar(&f.selDetach, "select-detach", false, "nested protocol: also try the other value of --detach")
	fs.BoolVar(&f.selUnsup, "select-unsupervised", true, "nested protocol: the β = 0 head (the baseline's: the model trained without labels) is a candidate too, kept where it scores better on the validation split (false: the trained candidates only)")
	fs.StringVar(&f.selDecay, "select-decay", "", "nested protocol: comma-separated head weight decays to choose from (default: --head-decay alone)")
	fs.StringVar(&f.selEncLR, "select-encoder-lr", "", "nested protocol: comma-separated encoder learning rates to choose from (default: --encoder-lr alone)")
	fs.StringVar(&f.selHidden, "select-hidden", "", `nested protocol: head shapes to choose from, separated by ";" (e.g. "32;64,32;0"; default: --hidden alone)`)
	fs.BoolVar(&f.refit, "refit", false, "nested protocol: retrain the chosen settings on all the fold's labels up to the chosen epoch (instead of keeping the chosen epoch's model)")
	fs.BoolVar(&f.baselines, "baselines", true, "nested protocol: also score the β = 0 head and a logistic regression on the unsupervised λ, on the same folds")
	fs.Float64Var(&f.fraction, "labeled-fraction", 0, "train once with this fraction of labelled graphs and score the rest (instead of --folds); 1: train one classifier on all labelled graphs")
	outputFlag(fs, &f.output, "", "with --labeled-fraction: write the classifier (atoms, embeddings, head, class names) to this file after every epoch, for 'gwf predict' and --resume")
	fs.StringVar(&f.output, "model", "", "deprecated alias of --output")
	_ = fs.MarkDeprecated("model", "use --output (the file this command writes)")
	fs.StringVar(&f.outputDir, "output-dir", "", "folder to keep what a rerun reuses (the rest is replaced) and report.json: with fgw-svm every discrepancy matrix computed (.npy; the one being computed in part, every 2 minutes and on Ctrl-C), with gwf each finished cross-validation fold and the model trained without labels")
	fs.StringVar(&f.shard, "shard", "", "cross-validation with --output-dir: run only the folds f with (f − 1) mod n = i (0-based i of n shards), for n processes or machines sharing the folder")
	fs.StringVar(&f.predFile, "predictions", "", "with --labeled-fraction: write every graph's prediction as CSV to this file")
	fs.BoolVar(&f.resume, "resume", false, "with --output: continue training the classifier in that file (exactly where it stopped)")
	jsonFlag(fs, &f.json, "the report")
	fs.StringVar(&f.method, "method", methodSVM, "classifier: fgw-svm (an SVM on a kernel of pairwise FGW discrepancies, every setting chosen on the training graphs) or gwf (the paper's semi-supervised GWF model: the flags of 'gwf fit' and the head's)")
	f.data.AllowAutoStructure(fs, "the matrix graphs are compared by: adjacency, shortest-path (sp), or auto (fgw-svm: both, chosen on the training graphs; gwf: adjacency, the paper's)")
	fs.StringVar(&f.wl, "wl", "auto", "fgw-svm: node labels compared as their Weisfeiler-Lehman labels after this many iterations (0: as they are; at most 10), or auto (0, 2 and 4, chosen on the training graphs); categorical node features, or none (WL from the degrees)")
	fs.IntVar(&f.screen, "screen", fgwsvm.DefaultScreen, "fgw-svm: with more graphs than this, compare every candidate on a random subset of this many graphs first and compute all the discrepancies only for those the training graphs choose there (0: every candidate in full)")
	fs.IntVar(&f.innerFolds, "inner-folds", 5, "fgw-svm: folds of the cross-validation on the training graphs that chooses the structure, feature weight, γ and C")
	fs.IntVar(&f.vote, "vote", 0, fmt.Sprintf("fgw-svm: let the SVMs of this many candidates vote, the best by that cross-validation, each with its own γ and C (1: the single best; 0: the best third of the candidates, at most %d, where every candidate is computed in full, the best %d of the screening where they are screened)", fgwsvm.DefaultVote, fgwsvm.DefaultScreenedVote))
	fs.IntVar(&f.repeats, "inner-repeats", 1, "fgw-svm: repeat that cross-validation over this many fold assignments and choose by the mean accuracy")
	return cmd
}

// parseHidden reads "64,32" (or "" / "0" for none).
func parseHidden(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		return nil, nil
	}
	var out []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--hidden: %q is not a list of positive layer sizes", s)
		}
		if n > semisup.MaxHiddenUnits {
			return nil, fmt.Errorf("--hidden: a layer of %d units, more than %d", n, semisup.MaxHiddenUnits)
		}
		out = append(out, n)
	}
	if len(out) > semisup.MaxHiddenLayers {
		return nil, fmt.Errorf("--hidden: %d layers, more than %d", len(out), semisup.MaxHiddenLayers)
	}
	return out, nil
}

// selection is the nested protocol's Selection of the flags (nil with --validation 0).
func (f *classifyFlags) selection(sc semisup.Config) (*classexp.Selection, error) {
	if f.validation == 0 {
		if f.selBeta != "" || f.selDetach || f.selDecay != "" || f.selHidden != "" || f.selEncLR != "" || f.refit {
			return nil, usagef("--select-beta, --select-detach, --select-decay, --select-hidden, --select-encoder-lr and --refit need --validation > 0")
		}
		return nil, nil
	}
	betas, err := parseFloats("--select-beta", f.selBeta, sc.Beta)
	if err != nil {
		return nil, err
	}
	decays, err := parseFloats("--select-decay", f.selDecay, sc.Head.WeightDecay)
	if err != nil {
		return nil, err
	}
	encLRs, err := parseFloats("--select-encoder-lr", f.selEncLR, sc.EncoderLearningRate)
	if err != nil {
		return nil, err
	}
	if len(encLRs) > 1 && sc.Encoder != semisup.EncoderGCN && sc.Encoder != semisup.EncoderGIN {
		return nil, usagef("--select-encoder-lr needs --encoder gcn or gin")
	}
	var shapes [][]int
	if strings.TrimSpace(f.selHidden) != "" {
		for _, p := range strings.Split(f.selHidden, ";") {
			h, err := parseHidden(p)
			if err != nil {
				return nil, usagef("--select-hidden: %v", err)
			}
			shapes = append(shapes, h)
		}
	}
	grid := classexp.Grid{Beta: betas, HeadDecay: decays, Hidden: shapes, EncoderLR: encLRs}
	if f.selDetach {
		grid.Detach = []bool{sc.Detach, !sc.Detach}
	}
	sel := &classexp.Selection{Validation: f.validation, Refit: f.refit, Seed: f.foldSeed, Unsupervised: f.selUnsup,
		Candidates: grid.Candidates(sc)}
	if err := sel.Validate(); err != nil {
		return nil, usagef("%v", err)
	}
	return sel, nil
}

// parseFloats reads a comma-separated list (empty: def alone).
func parseFloats(flag, s string, def float64) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return []float64{def}, nil
	}
	var out []float64
	for _, p := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, usagef("%s: %q is not a list of numbers", flag, s)
		}
		out = append(out, v)
	}
	return out, nil
}

func runClassify(cmd *cobra.Command, a *app, f *classifyFlags) error {
	flags := cmd.Flags()
	switch f.method {
	case methodSVM:
		return runClassifySVM(cmd, a, f)
	case methodGWF:
	default:
		return usagef("--method %q: give fgw-svm or gwf", f.method)
	}
	for _, name := range []string{"wl", "inner-folds", "inner-repeats", "screen", "vote"} {
		if flags.Changed(name) {
			return usagef("--%s is a setting of --method fgw-svm", name)
		}
	}
	if err := f.data.check(); err != nil {
		return err
	}
	hidden, err := parseHidden(f.hidden)
	if err != nil {
		return usagef("%v", err)
	}
	encHidden, err := f.encoder.widths()
	if err != nil {
		return err
	}
	if !flags.Changed("detach") && f.encoder.kind == semisup.EncoderNone {
		f.detach = true
		a.log.Info("free z: the cross-entropy trains the head only (--detach; --detach=false for the paper's eq. ssl)")
	}
	sc := semisup.Config{Beta: f.beta, Hidden: hidden, Activation: f.activation, Input: f.input, Detach: f.detach, Head: f.head,
		Encoder: f.encoder.kind, EncoderHidden: encHidden, EncoderLearningRate: f.encoder.lr, NoGWF: f.noGWF}
	if err := sc.Validate(); err != nil {
		return usagef("%v", err)
	}
	if !(f.fraction >= 0 && f.fraction <= 1) {
		return usagef("--labeled-fraction = %v must be in (0, 1]", f.fraction)
	}
	if (f.output != "" || f.predFile != "") && f.fraction == 0 {
		return usagef("--output and --predictions need --labeled-fraction (for the folds' files use --output-dir)")
	}
	if f.outputDir != "" && f.fraction > 0 {
		return usagef("--output-dir is for cross-validation with --method gwf; with --labeled-fraction use --output")
	}
	sh := shard.All
	if f.shard != "" {
		if sh, err = shard.Parse(f.shard); err != nil {
			return usagef("--shard: %v", err)
		}
		if f.outputDir == "" || f.fraction > 0 {
			return usagef("--shard needs cross-validation with --output-dir (the folder the shards share)")
		}
		if sh.Count > f.folds {
			return usagef("--shard %s: more shards than --folds %d", f.shard, f.folds)
		}
	}
	if f.resume && f.output == "" {
		return usagef("--resume needs --output")
	}
	if f.selUnsup && (f.noGWF || f.validation == 0) {
		// The β = 0 candidate needs a model trained without labels, and a validation split.
		if flags.Changed("select-unsupervised") {
			return usagef("--select-unsupervised needs the GWF term (not --no-gwf) and --validation > 0")
		}
		f.selUnsup = false
	}
	if f.noGWF && f.baselines {
		// Without the GWF term there is no model to train without labels.
		if flags.Changed("baselines") {
			return usagef("--baselines needs the GWF term: without it (--no-gwf) nothing trains without labels")
		}
		f.baselines = false
	}
	sel, err := f.selection(sc)
	if err != nil {
		return err
	}
	cfg, err := f.train.configLogged(flags, a.log)
	if err != nil {
		return err
	}
	ds, err := f.data.load()
	if err != nil {
		return err
	}
	data := ds.Graphs
	labels, classesN, err := f.classLabels(a, ds)
	if err != nil {
		return err
	}
	if err := f.train.resolveFeatureWeight(&cfg, graphs.Slice(data), a.log); err != nil {
		return err
	}
	ctx, stop := withSignals(cmd.Context(), a.log)
	defer stop()
	opt := semisup.Options{Workers: f.train.workers, Observe: a.observer("training", nil)}
	if f.fraction > 0 {
		return classifyFraction(cmd, a, f, ds, labels, classesN, cfg, sc, opt)
	}
	// The folds left after each one, at the mean time of those trained so far (their own
	// seconds: the first fold's run also trains the model without labels, once), for the ETA.
	foldSeconds, trained, reused := 0.0, 0, 0
	spec := classexp.GWFSpec{Shard: sh, CVOptions: classexp.CVOptions{
		Folds: f.folds, Seed: f.foldSeed, Options: opt, Dir: f.outputDir, Select: sel,
		Baselines: sel != nil && f.baselines,
		Reused:    func(int) { reused++ },
		FoldDone: func(r classexp.FoldResult) {
			trained++
			foldSeconds += r.Seconds
			left := (f.folds-sh.Index+sh.Count-1)/sh.Count - trained - reused // this shard's folds
			eta := time.Duration(foldSeconds / float64(trained) * float64(left) * float64(time.Second)).Round(time.Second)
			lines := classexp.FoldLines(r, f.folds)
			lines[0] += fmt.Sprintf("; folds left: %d, eta %s", left, eta)
			for _, l := range lines {
				a.log.Info(l)
			}
		},
	}}
	a.log.Infof("classifying %s (%d graphs, %d classes): %d folds, β=%g, hidden %v, %s", ds.Name, len(data), classesN, f.folds, sc.Beta, hidden, cfg.Describe())
	rep, err := classexp.CrossValidateGWF(ctx, ds, labels, classesN, cfg, sc, spec)
	if err != nil {
		if ctx.Err() != nil {
			return interruptedError{"interrupted"}
		}
		return err
	}
	return writeReport(cmd.OutOrStdout(), f.json, rep)
}

// classifyFraction trains once with a stratified fraction of labels and scores the rest.
func classifyFraction(cmd *cobra.Command, a *app, f *classifyFlags, ds *graphs.Dataset, labels []int, classesN int, cfg training.Config, sc semisup.Config, opt semisup.Options) error {
	data := ds.Graphs
	var m *semisup.Model
	var err error
	if f.resume {
		epochs := 0
		if changed(cmd.Flags(), "epochs") {
			epochs = cfg.Epochs
		}
		if m, err = classexp.ResumeGWFModel(f.output, ds, classesN, epochs); err != nil {
			return err
		}
		a.log.Infof("resuming %s after epoch %d of %d", f.output, len(m.History), m.GWF.Config.Epochs)
	} else if m, err = classexp.NewGWFModel(ds, classesN, cfg, sc); err != nil {
		return err
	}
	if f.output != "" {
		opt.EpochDone = func(m *semisup.Model) error { return m.Save(f.output) }
	}
	if f.fraction == 1 && m.Encoder == nil {
		a.log.Infof("after training, the %d training graphs are re-embedded in transform mode (atoms fixed) and the head trained on them, as 'gwf predict' embeds unseen graphs", len(data))
	}
	ctx, stop := withSignals(cmd.Context(), a.log)
	defer stop()
	rep, split, err := classexp.FractionGWF(ctx, m, ds, labels, classexp.Fraction{Share: f.fraction, Seed: f.foldSeed}, opt,
		training.Options{Workers: f.train.workers, Observe: opt.Observe})
	if err != nil {
		if ctx.Err() != nil {
			return interruptedError{"interrupted"}
		}
		return err
	}
	if f.output != "" {
		if err := m.Save(f.output); err != nil {
			return err
		}
	}
	if err := f.writePredictions(ds, labels, split, m.LabelText); err != nil {
		return err
	}
	return writeReport(cmd.OutOrStdout(), f.json, rep)
}

// classLabels are the class of every graph and the number of classes
// (experiment.ClassLabels); in --folds mode the classes must fill the folds, and a class with
// fewer graphs than folds is said to miss some.
func (f *classifyFlags) classLabels(a *app, ds *graphs.Dataset) ([]int, int, error) {
	labels, k, err := classexp.ClassLabels(ds)
	if err != nil || f.fraction > 0 {
		return labels, k, err
	}
	if f.folds < 2 || f.folds > len(labels) {
		return nil, 0, usagef("--folds = %d must be between 2 and the number of graphs (%d)", f.folds, len(labels))
	}
	short, err := classexp.FoldFit(labels, k, f.folds)
	if err != nil {
		return nil, 0, err
	}
	for _, c := range short {
		a.log.Warnf("class %s has fewer graphs than the %d folds: some test folds hold none of it", classText(ds, c), f.folds)
	}
	return labels, k, nil
}

// writeReport writes a classification report as JSON or as text.
func writeReport(w io.Writer, asJSON bool, rep interface{ WriteText(io.Writer) error }) error {
	if asJSON {
		return writeJSON(w, rep)
	}
	return rep.WriteText(w)
}
