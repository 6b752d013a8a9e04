package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/shard"
)

// semisupFlags are the flags of 'gwf semisup': the template model (the default) and the
// paper's semi-supervised GWF model (--method gwf).
type semisupFlags struct {
	data       dataFlags
	train      trainFlags
	protocol   protocolFlags
	beta       float64
	hidden     string
	activation string
	input      string
	detach     bool
	encoder    encoderFlags
	selEncLR   []float64
	noGWF      bool
	head       semisup.HeadTraining
	shard      string
	resume     bool
	validation float64
	selBeta    []float64
	selDetach  bool
	selUnsup   bool
	selDecay   []float64
	selHidden  string
	refit      bool
	baselines  bool
	tmpl       templateFlags
	lambda     lambdaFlags
}

func newSemisupCmd(a *app) *cobra.Command {
	var f semisupFlags
	cmd := &cobra.Command{
		Use:   "semisup (--dataset NAME | --tu DIR | --graphs DIR)",
		Short: "Classify graphs, labelled and unlabelled: FGW discrepancies to learned templates; --method gwf: the paper's semi-supervised GWF model",
		Long: `semisup trains a classifier on labelled graphs (and, where the data have them, unlabelled
ones) and scores it. --method chooses the model: templates, the default, gwf, the paper's, or
lambda-svm, an SVM on the paper's model trained without labels.

--method templates (the default): a graph is embedded as its FGW discrepancies to K learned
template graphs (TFGW, Vincent-Cuaz et al., NeurIPS 2022), an MLP reads them, and the
templates' structures and node features, the MLP and (with --encoder gin) a GIN encoder of the
node features train together on the cross-entropy with Gorgonia's Adam; the transports (exact
CG) are detached. It reads the data's node features, as 'gwf classify' does (--wl N adds N
rounds of Weisfeiler-Lehman neighbour means to them; --encoder auto trains without an encoder
and with GIN and keeps the better on the validation split). --beta B > 0
makes it semi-supervised: every training graph, labelled or not, is also reconstructed as the
GW barycenter of the templates (the paper's GWF loss, the templates as its atoms). The
templates (--templates) have at most --template-nodes nodes (several sizes: equal groups of
templates, each bounded by its own); a --validation fraction of the
labelled graphs chooses the epoch, and --members models from different seeds predict by their
mean class probabilities; --layers caps each template solve's CG iterations. The defaults the
flags show are its own; where the paper's model's differ, a flag shows both ("--method gwf:
X"). --folds cross-validates (--output-dir keeps each finished fold, for a rerun to reuse);
--labeled-fraction p and a folder labelled in part work as for --method gwf below, and
--labeled-fraction 1 --output saves a classifier for 'gwf predict'. The flags of
the paper's model alone (--atoms, --solver, --detach, --select-*, --encoder gcn, --shard,
--resume, ...) are refused without --method gwf.

--method gwf: the paper's semi-supervised GWF model. GWF models with a classifier head on the
embeddings (the paper's eq. ssl: the GWF loss plus beta times the head's cross-entropy on the
labelled graphs, one Gorgonia graph and one backward pass per mini-batch) and scores its
predictions. After the joint epochs the head alone is trained to convergence on the final
embeddings (--head-steps full-batch Adam steps; 0 turns this off): during them it gets only one
step per mini-batch.

With --method gwf it runs by default nested stratified --folds cross-validation: for each fold,
the held-out graphs take part in the GWF term unlabelled; a stratified --validation fraction of
the other folds' labelled graphs is held out too, and chooses the stopping epoch and, when
--select-beta, --select-detach or --select-decay name several settings, the configuration; the
chosen model (or, with --refit, the chosen settings retrained on all the fold's labels) is
scored once on the held-out fold. The β = 0 head below is a candidate too
(--select-unsupervised, on by default): where it scores better on the validation split, it is
the fold's classifier, so that where the labels make the embeddings worse the classifier can
fall back to embeddings trained without them (the trained model's own held-out accuracy is
reported as joint_accuracy). No held-out label chooses anything. On the same folds it scores
two baselines (--baselines): the same head on the embeddings of the same model trained without
labels (β = 0: GWF for free z, the encoder trained by the GWF term alone with --encoder; its
epoch chosen on the same validation split) and a logistic regression on that model's λ (C
chosen by 5-fold cross-validation on the fold's training graphs; none with --no-gwf).
--validation 0 gives the un-nested protocol (fixed settings, last epoch), with the authors'
best-epoch number as a diagnostic. --output-dir keeps every finished fold (fold<f>.json), the
model trained without labels (unsupervised.json) and the report (report.json), and checkpoints
whatever is training after each of its epochs (fold<f>.checkpoint.json with two models,
unsupervised.checkpoint): run again with the same data and settings, the command reuses what is
saved there, so a killed cross-validation continues at the epoch where it stopped (folds saved
without the β = 0 candidate keep their trained models, the candidate is added). With it,
--shard i/n runs only the folds f with (f − 1) mod n = i, so that n processes or machines
sharing the folder run the folds side by side; a last run without --shard reuses them all and
writes the report. --predictions writes each held-out graph's prediction and fold as CSV.

With --labeled-fraction p it instead keeps the labels of a stratified random fraction p of the
graphs (seeded by --fold-seed), trains once and scores the predictions on the other graphs;
--predictions writes every graph's prediction as CSV. --labeled-fraction 1 trains one
classifier on all labelled graphs: --output saves it for 'gwf predict'. In a folder where
only some graphs have a class label, with neither --folds nor --labeled-fraction it trains on
all graphs, the labels as given, and predicts the unlabelled ones (--predictions); --output
saves that model for 'gwf predict'.

--method lambda-svm: the paper's GWF model trained without labels on every graph (the
unlabelled and held-out ones too: it reads no label), and an SVM on the Gaussian kernel of its
λ trained on the labelled graphs, γ and C chosen by 5-fold cross-validation on them (GDL's
protocol, Vincent-Cuaz et al., ICML 2021). --svm-epochs E1,E2,... lets that cross-validation
choose the epoch too (after the paper's 10 epochs λ is nearly uniform: --epochs 50
--svm-epochs 10,20,30,40,50 is the recipe measured in docs/results/labelfree.md), and
--inner-repeats R (default 5; 1 is GDL's protocol) repeats it over R fold assignments,
choosing by the mean accuracy. --wl-labels N (0 by default here) has the model read each
node's categorical features (node labels, or --features degrees) with its hashed
Weisfeiler-Lehman labels after 1..N iterations one-hot beside them. --folds
cross-validates (the model is trained once for all folds; --output-dir keeps it, checkpointed
after every epoch, for a rerun); --labeled-fraction p < 1 trains the SVM on a fraction of the
labels and scores the rest, and --labels-alone also fits the same model on the labelled graphs
alone, embeds every graph with its atoms as 'gwf predict' does (the labelled ones too; once
for each --svm-epochs candidate) and scores the same SVM: what the unlabelled graphs add when
labels are few. It saves no classifier.

The training flags of --method gwf and lambda-svm are those of 'gwf fit', with the paper's defaults. 'gwf
classify' is the SVM on FGW discrepancies, the classifier GW graph methods are benchmarked with.`,
		Example: `  gwf semisup --dataset MUTAG --folds 10 --json
  gwf semisup --dataset MUTAG --labeled-fraction 0.1 --beta 0.1   # few labels: the GWF term on every graph
  gwf semisup --dataset MUTAG --folds 10 --template-nodes 12,0   # half the templates of the median graph size
  gwf semisup --dataset MUTAG --labeled-fraction 1 --output mutag.classifier
  gwf predict --model mutag.classifier --tu ./new-graphs --json
  gwf semisup --method gwf --dataset MUTAG --folds 10 --select-beta 0.1,1 --select-detach --json
  gwf semisup --method gwf --dataset PROTEINS --folds 10 --output-dir results/   # rerun to continue after a kill
  gwf semisup --method gwf --dataset PROTEINS --folds 10 --output-dir results/ --shard 0/2   # and 1/2 elsewhere; then without --shard
  gwf semisup --method gwf --dataset MUTAG --labeled-fraction 1 --output mutag.gwf-classifier
  gwf semisup --method lambda-svm --dataset PROTEINS --epochs 50 --svm-epochs 10,20,30,40,50 --output-dir results/
  gwf semisup --method lambda-svm --dataset MUTAG --labeled-fraction 0.1 --labels-alone   # what the unlabelled graphs add`,
		Annotations: cli.Interruptible("no report written (with --output-dir, the same command continues from what it kept)"),
		Args:        cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSemisup(cmd, a, &f)
		},
	}
	f.register(cmd.Flags())
	return cmd
}

// register adds the flags of both models to fs.
func (f *semisupFlags) register(fs *pflag.FlagSet) {
	d := semisup.DefaultConfig()
	f.data.register(fs)
	f.data.RegisterEdgeLabels(fs, semisup.DefaultTemplateConfig().WLEdgeLabels, "--method templates: read edge labels (TU bond types; the edge attribute label of node-link, GraphML, GML and GEXF files) where every graph has them, into the Weisfeiler-Lehman labels of --wl-labels, as 'gwf classify' compares them")
	f.train.register(fs)
	f.protocol.register(fs, "with --labeled-fraction: write the classifier to this file, for 'gwf predict' (--method gwf: its atoms, embeddings, head and class names, after every epoch, also for --resume)",
		"folder to keep each finished cross-validation fold, for a rerun to reuse (--method gwf: also the model trained without labels, both checkpointed after every epoch, and report.json)")
	fs.Float64Var(&f.beta, "beta", d.Beta, "--method templates: weight of the GWF reconstruction of every graph (0: the labels alone); --method gwf: weight β of the classification loss")
	fs.StringVar(&f.hidden, "hidden", widthsText(d.Hidden), `hidden layer sizes of the head, comma-separated ("" or 0: a linear head)`)
	fs.StringVar(&f.activation, "activation", string(d.Activation), "activation of the hidden layers: relu or tanh")
	fs.StringVar(&f.input, "head-input", string(d.Input), "what the head reads: centered (z minus its mean: the identifiable part of z), lambda (softmax(z)) or z (the raw embedding, as eq. ssl)")
	fs.BoolVar(&f.detach, "detach", d.Detach, "--method gwf: stop the classification gradient at the embeddings: the labels train the head only. The default with free z (--encoder none), where the cross-entropy reaches only the labelled graphs' own z and moves them away from the unlabelled graphs of their class; --detach=false is the paper's eq. ssl. False by default with an encoder (gcn, gin), whose shared weights carry the labels to every graph")
	f.encoder.register(fs, "the GWF term and the labels")
	fs.BoolVar(&f.noGWF, "no-gwf", false, "train without the GWF term (the labels alone): the baseline that shows what the GWF term adds")
	fs.IntVar(&f.head.Steps, "head-steps", d.Head.Steps, "after the joint epochs, train the head alone on the final embeddings for this many full-batch Adam steps (0: not at all)")
	fs.Float64Var(&f.head.LearningRate, "head-lr", d.Head.LearningRate, "learning rate of those head steps")
	fs.Float64Var(&f.head.WeightDecay, "head-decay", d.Head.WeightDecay, "weight decay (L2 on the head's weights) of those head steps")
	fs.Float64Var(&f.validation, "validation", crossval.DefaultValidation, "fraction of the (fold's) labelled graphs held out to choose the epoch (--method gwf: the nested protocol's, choosing the settings too; 0 there: no selection, the un-nested protocol)")
	fs.Float64SliceVar(&f.selBeta, "select-beta", nil, "nested protocol: comma-separated values of β to choose from (default: --beta alone)")
	fs.BoolVar(&f.selDetach, "select-detach", false, "nested protocol: also try the other value of --detach")
	fs.BoolVar(&f.selUnsup, "select-unsupervised", true, "nested protocol: the β = 0 head (the baseline's: the model trained without labels) is a candidate too, kept where it scores better on the validation split (false: the trained candidates only)")
	fs.Float64SliceVar(&f.selDecay, "select-decay", nil, "nested protocol: comma-separated head weight decays to choose from (default: --head-decay alone)")
	fs.Float64SliceVar(&f.selEncLR, "select-encoder-lr", nil, "nested protocol: comma-separated encoder learning rates to choose from (default: --encoder-lr alone)")
	fs.StringVar(&f.selHidden, "select-hidden", "", `nested protocol: head shapes to choose from, separated by ";" (e.g. "32;64,32;0"; default: --hidden alone)`)
	fs.BoolVar(&f.refit, "refit", false, "nested protocol: retrain the chosen settings on all the fold's labels up to the chosen epoch (instead of keeping the chosen epoch's model)")
	fs.BoolVar(&f.baselines, "baselines", true, "nested protocol: also score the β = 0 head and a logistic regression on the unsupervised λ, on the same folds")
	fs.StringVar(&f.shard, "shard", "", "cross-validation with --output-dir: run only the folds f with (f − 1) mod n = i (0-based i of n shards), for n processes or machines sharing the folder")
	resumeFlag(fs, &f.resume, " (a classifier, with --labeled-fraction), exactly where it stopped")
	f.tmpl.register(fs)
	f.lambda.register(fs)
	methodDefaults(fs)
}

// methodDefaults makes the defaults of the flags both models read the template model's (the
// default --method: semisup.DefaultTemplateConfig), and names the paper's model's in the help
// where they differ (semisup.DefaultConfig, training.DefaultConfig): gwfConfig and the
// training flags (trainflags.Flags.Config) apply those where the flag was not given.
func methodDefaults(fs *pflag.FlagSet) {
	t, g, tr := semisup.DefaultTemplateConfig(), semisup.DefaultConfig(), training.DefaultConfig()
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	tmplWeight := num(t.FeatureWeight)
	if t.BalanceWeight { // the balanced weight (FeatureWeight 1 times it), as --feature-weight auto gives
		tmplWeight = "auto"
	}
	tmplLayers := t.SolverIterations
	if tmplLayers == 0 {
		tmplLayers = layers.DefaultCG().MaxIter // TemplateConfig's 0
	}
	// --layers is a different setting in each model.
	fs.Lookup("layers").Usage = "--method templates: most CG iterations of each template solve; --method gwf: GWD layers M (cg: most iterations, default " + strconv.Itoa(layers.DefaultCG().MaxIter) + ")"
	for _, d := range []struct{ flag, tmpl, gwf string }{
		{"epochs", strconv.Itoa(t.Epochs), strconv.Itoa(tr.Epochs)},
		{"lr", num(t.LearningRate), num(tr.LearningRate)},
		{"batch", strconv.Itoa(t.BatchSize), strconv.Itoa(tr.Batch)},
		{"seed", strconv.FormatUint(t.Seed, 10), strconv.FormatUint(tr.Seed, 10)},
		{"feature-weight", tmplWeight, num(tr.FeatureWeight)},
		{"layers", strconv.Itoa(tmplLayers), strconv.Itoa(tr.Layers)},
		{"hidden", widthsText(t.Hidden), widthsText(g.Hidden)},
		{"beta", num(t.Beta), num(g.Beta)},
		{"validation", num(t.Validation), num(crossval.DefaultValidation)},
		{"encoder", string(t.Encoder), string(semisup.EncoderNone)},
		{"encoder-hidden", widthsText(t.EncoderHidden), widthsText(semisup.DefaultEncoderHidden())},
	} {
		methodDefault(fs.Lookup(d.flag), d.tmpl, d.gwf)
	}
	fs.Lookup("encoder").Usage = "the template model's node features: none (the graphs' own), gin (a GIN encoder of them, trained with the templates) or auto " +
		"(both trained, the one better on the validation split kept: about twice the time); --method gwf's embeddings: none (one free z per graph, the paper's model), " +
		"gcn or gin (z = a graph neural network of the graph, trained by the GWF term and the labels; unseen graphs are embedded by one forward pass)"
	// Without --features the template model reads the data's own node features or the
	// structure alone, the paper's model none: the help says so in place of pflag's (default
	// "none").
	ft := fs.Lookup("features")
	ft.Usage += ` (default: the data's own, as 'gwf classify' reads them, or the structure alone where it does clearly better on the validation split; --method gwf: "none")`
	ft.DefValue = ""
}

// methodDefault sets fl's default to tmpl, the template model's. Where the paper's model's,
// gwf, differs, the help shows both, "(default tmpl; --method gwf: gwf)", in place of
// pflag's "(default tmpl)", which a DefValue that pflag takes for a zero value hides.
func methodDefault(fl *pflag.Flag, tmpl, gwf string) {
	if err := fl.Value.Set(tmpl); err != nil {
		panic(fmt.Sprintf("--%s: default %q: %v", fl.Name, tmpl, err)) // a default the flag refuses: a bug
	}
	fl.DefValue = fl.Value.String()
	if gwf == fl.DefValue {
		return
	}
	show := func(v string) string { return v }
	hidden := "0"
	if fl.Value.Type() == "string" {
		show = strconv.Quote // as pflag shows a string's default
		hidden = ""
	}
	fl.Usage += fmt.Sprintf(" (default %s; --method gwf: %s)", show(fl.DefValue), show(gwf))
	fl.DefValue = hidden
}

// selection is the nested protocol's Selection of the flags (nil with --validation 0).
func (f *semisupFlags) selection(sc semisup.Config) (*crossval.Selection, error) {
	if f.validation == 0 {
		if f.selBeta != nil || f.selDetach || f.selDecay != nil || f.selHidden != "" || f.selEncLR != nil || f.refit {
			return nil, cli.Usagef("--select-beta, --select-detach, --select-decay, --select-hidden, --select-encoder-lr and --refit need --validation > 0")
		}
		return nil, nil
	}
	betas, decays, encLRs := orOne(f.selBeta, sc.Beta), orOne(f.selDecay, sc.Head.WeightDecay), orOne(f.selEncLR, sc.EncoderLearningRate)
	if len(encLRs) > 1 && sc.Encoder != semisup.EncoderGCN && sc.Encoder != semisup.EncoderGIN {
		return nil, cli.Usagef("--select-encoder-lr needs --encoder gcn or gin")
	}
	var shapes [][]int
	if strings.TrimSpace(f.selHidden) != "" {
		for _, p := range strings.Split(f.selHidden, ";") {
			h, err := semisup.ParseHidden(p)
			if err != nil {
				return nil, cli.Usagef("--select-hidden: %v", err)
			}
			shapes = append(shapes, h)
		}
	}
	grid := crossval.Grid{Beta: betas, HeadDecay: decays, Hidden: shapes, EncoderLR: encLRs}
	if f.selDetach {
		grid.Detach = []bool{sc.Detach, !sc.Detach}
	}
	sel := &crossval.Selection{Validation: f.validation, Refit: f.refit, Seed: f.protocol.foldSeed, Unsupervised: f.selUnsup,
		Candidates: grid.Candidates(sc)}
	if err := sel.Validate(); err != nil {
		return nil, cli.Usagef("%v", err)
	}
	return sel, nil
}

// orOne is list, or def alone when the list is empty.
func orOne(list []float64, def float64) []float64 {
	if len(list) == 0 {
		return []float64{def}
	}
	return list
}

func runSemisup(cmd *cobra.Command, a *app, f *semisupFlags) error {
	if err := f.checkLambdaMethod(cmd.Flags()); err != nil {
		return err
	}
	if f.tmpl.method != methodTemplates {
		f.data.EdgeLabels = false // only the template model reads them
	}
	switch f.tmpl.method {
	case methodTemplates:
		return runTemplates(cmd, a, f)
	case methodLambdaSVM:
		return runLambdaSVM(cmd, a, f)
	case methodGWF:
		if err := f.checkGWFMethod(cmd.Flags()); err != nil {
			return err
		}
	default:
		return cli.Usagef("--method %q: want templates, gwf or lambda-svm", f.tmpl.method)
	}
	flags := cmd.Flags()
	p := &f.protocol
	if err := f.data.check(); err != nil {
		return err
	}
	sc, err := f.gwfConfig(flags)
	if err != nil {
		return err
	}
	if !flags.Changed("detach") && sc.Detach {
		a.Log.Info("free z: the cross-entropy trains the head only (--detach; --detach=false for the paper's eq. ssl)")
	}
	if err := p.checkFraction(); err != nil {
		return err
	}
	if p.outputDir != "" && p.fraction > 0 {
		return cli.Usagef("--output-dir is for cross-validation; with --labeled-fraction use --output")
	}
	sh := shard.Whole()
	if f.shard != "" {
		if sh, err = shard.Parse(f.shard); err != nil {
			return cli.Usagef("--shard: %v", err)
		}
		if p.outputDir == "" || p.fraction > 0 {
			return cli.Usagef("--shard needs cross-validation with --output-dir (the folder the shards share)")
		}
		if sh.Count > p.folds {
			return cli.Usagef("--shard %s: more shards than --folds %d", f.shard, p.folds)
		}
	}
	if f.resume && p.output == "" {
		return cli.Usagef("--resume needs --output")
	}
	release, err := lockOutputDir(p.outputDir, sh, a.Log)
	if err != nil {
		return err
	}
	defer release()
	if f.selUnsup && (f.noGWF || f.validation == 0) {
		// The β = 0 candidate needs a model trained without labels, and a validation split.
		if flags.Changed("select-unsupervised") {
			return cli.Usagef("--select-unsupervised needs the GWF term (not --no-gwf) and --validation > 0")
		}
		f.selUnsup = false
	}
	if f.noGWF && f.baselines {
		// Without the GWF term there is no model to train without labels.
		if flags.Changed("baselines") {
			return cli.Usagef("--baselines needs the GWF term: without it (--no-gwf) nothing trains without labels")
		}
		f.baselines = false
	}
	sel, err := f.selection(sc)
	if err != nil {
		return err
	}
	cfg, err := f.train.configLogged(flags, a.Log)
	if err != nil {
		return err
	}
	f.data.PartialLabels = graphs.PartialLabelsKept
	ds, err := f.data.loadTraining(a.Log)
	if err != nil {
		return err
	}
	ds = p.partlyLabelled(a, flags, ds)
	switch { // after partlyLabelled: labels as given train one model, as --labeled-fraction does
	case p.output != "" && p.fraction == 0 && !p.given:
		return cli.Usagef("--output needs --labeled-fraction (for the folds' files use --output-dir)")
	case p.outputDir != "" && p.given:
		return cli.Usagef("--output-dir keeps the folds of cross-validation, and these graphs, labelled in part, train one model on the labels as given: use --output to keep it, or --folds to cross-validate the labelled graphs alone")
	}
	data := ds.Graphs
	labels, classesN, err := p.classLabels(a, ds)
	if err != nil {
		return err
	}
	if err := f.train.resolveFeatureWeight(&cfg, graphs.Slice(data), a.Log); err != nil {
		return err
	}
	opt := semisup.Options{Workers: f.train.Workers, Observe: a.observer("training", nil)}
	if p.fraction > 0 || p.given {
		return semisupFraction(cmd, a, f, ds, labels, classesN, cfg, sc, opt)
	}
	spec := crossval.GWFSpec{Shard: sh, CVOptions: crossval.CVOptions{
		Folds: p.folds, Seed: p.foldSeed, Options: opt, Dir: p.outputDir, Select: sel,
		Baselines: sel != nil && f.baselines,
	}}
	a.Log.Infof("classifying %s (%d graphs, %d classes): %d folds, β=%g, hidden %v, %s", ds.Name, len(data), classesN, p.folds, sc.Beta, sc.Hidden, cfg.Describe())
	rep, err := crossval.CrossValidateGWF(cmd.Context(), ds, labels, classesN, cfg, sc, spec)
	if err != nil {
		return err
	}
	if err := p.writeReport(cmd.OutOrStdout(), rep); err != nil {
		return err
	}
	return p.writeHeldOut(ds, labels, rep.HeldOut()) // after the report: a fold saved without predictions loses nothing else
}

// gwfConfig is the configuration of the paper's model (--method gwf): the flags given, and for
// the shared flags that were not, its defaults (semisup.DefaultConfig) rather than the template
// model's they are registered with (methodDefaults); --detach is semisup.DefaultDetach for the
// encoder unless given. Its training flags take theirs in trainflags.Flags.Config.
func (f *semisupFlags) gwfConfig(fs *pflag.FlagSet) (semisup.Config, error) {
	d := semisup.DefaultConfig()
	if !fs.Changed("beta") {
		f.beta = d.Beta
	}
	if !fs.Changed("validation") {
		f.validation = crossval.DefaultValidation
	}
	if !fs.Changed("encoder") {
		f.encoder.kind = string(semisup.EncoderNone) // DefaultConfig's "", as the flag names it
	}
	hidden, encHidden := d.Hidden, semisup.DefaultEncoderHidden()
	var err error
	if fs.Changed("hidden") {
		if hidden, err = semisup.ParseHidden(f.hidden); err != nil {
			return d, cli.Usagef("--hidden: %v", err)
		}
	}
	if fs.Changed("encoder-hidden") {
		if encHidden, err = f.encoder.widths(); err != nil {
			return d, err
		}
	}
	if !fs.Changed("detach") {
		f.detach = semisup.DefaultDetach(f.encoder.encoder()) && !f.noGWF
	}
	sc := semisup.Config{Beta: f.beta, Hidden: hidden, Activation: semisup.Activation(f.activation), Input: semisup.Input(f.input), Detach: f.detach, Head: f.head,
		Encoder: f.encoder.encoder(), EncoderHidden: encHidden, EncoderLearningRate: f.encoder.lr, NoGWF: f.noGWF}
	if err := sc.Validate(); err != nil {
		return sc, cli.Usagef("%v", err)
	}
	return sc, nil
}

// semisupFraction trains once with a stratified fraction of labels (or the labels as given)
// and predicts the rest, scoring those it hid the labels of.
func semisupFraction(cmd *cobra.Command, a *app, f *semisupFlags, ds *graphs.Dataset, labels []int, classesN int, cfg training.Config, sc semisup.Config, opt semisup.Options) error {
	data, p := ds.Graphs, &f.protocol
	var m *semisup.Model
	var err error
	if f.resume {
		epochs := 0
		if cli.Changed(cmd.Flags(), "epochs") {
			epochs = cfg.Epochs
		}
		if m, err = crossval.ResumeGWFModel(p.output, ds, classesN, epochs); err != nil {
			return err
		}
		a.Log.Infof("resuming %s after epoch %d of %d", p.output, len(m.History), m.GWF.Config.Epochs)
	} else if m, err = crossval.NewGWFModel(ds, classesN, cfg, sc); err != nil {
		return err
	}
	if p.output != "" {
		opt.EpochDone = func(m *semisup.Model) error { return m.Save(p.output) }
	}
	if p.fraction == 1 && m.Encoder == nil {
		a.Log.Infof("after training, the %d training graphs are re-embedded in transform mode (atoms fixed) and the head trained on them, as 'gwf predict' embeds unseen graphs", len(data))
	}
	rep, split, err := crossval.FractionGWF(cmd.Context(), m, ds, labels, p.split(), opt,
		training.Options{Workers: f.train.Workers, Observe: opt.Observe})
	if err != nil {
		return err
	}
	if p.output != "" {
		if err := m.Save(p.output); err != nil {
			return err
		}
	}
	if err := p.writePredictions(ds, labels, split, m.LabelText); err != nil {
		return err
	}
	return p.writeReport(cmd.OutOrStdout(), rep)
}
