package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/training/shard"
)

// methodTemplates is 'gwf semisup --method templates', the default (methodGWF: the paper's model).
const methodTemplates = crossval.MethodTemplates

// templateFlags are the flags of 'gwf semisup --method templates' beyond those it shares with
// the GWF model (--epochs, --lr, --batch, --seed, --feature-weight, --encoder, --encoder-hidden,
// --hidden, --validation, --structure, --beta, --layers), whose registered defaults are the
// template model's (methodDefaults).
type templateFlags struct {
	method      string
	templates   int
	nodes       []int
	decay       float64
	learnWeight bool
	learnNodes  bool
	wl          int
	wlLabels    int
	wlRare      int
	members     int
	patience    int
	maxEpochs   int
	average     float64
	pseudo      float64
	statistics  bool
}

func (t *templateFlags) register(fs *pflag.FlagSet) {
	d := semisup.DefaultTemplateConfig()
	fs.StringVar(&t.method, "method", methodTemplates, "the model: templates (FGW discrepancies to learned template graphs, optionally after a GIN encoder, trained end to end; the defaults shown are its own) gwf (the paper's semi-supervised GWF model, with the training flags of 'gwf fit'; its defaults are shown as \"--method gwf: X\" where they differ) or lambda-svm (the paper's GWF model trained without labels on every graph, an SVM on its λ; the training flags and defaults of --method gwf)")
	fs.IntVar(&t.templates, "templates", d.Templates, fmt.Sprintf("--method templates: number of templates (0: %d per class)", semisup.TemplatesPerClass))
	fs.IntSliceVar(&t.nodes, "template-nodes", []int{d.TemplateNodes}, "--method templates: nodes of a template at most (0: the median size of the training graphs); several sizes, as 12,0, bound equal groups of the templates in turn, and the head reads them all")
	fs.Float64Var(&t.decay, "weight-decay", d.WeightDecay, "--method templates: L2 penalty of Adam")
	fs.BoolVar(&t.learnWeight, "learn-feature-weight", d.LearnWeight, "--method templates: learn the feature weight, from --feature-weight")
	fs.BoolVar(&t.learnNodes, "learn-node-weights", d.LearnNodeWeights, "--method templates: learn each template's node weights (TFGW's), from uniform")
	fs.IntVar(&t.wl, "wl", d.WLRounds, "--method templates: rounds of continuous Weisfeiler-Lehman refinement added to the node features (each node's features averaged with its neighbours', round after round, as WWL does; 0: the features as they are; at most 10)")
	fs.IntVar(&t.wlLabels, "wl-labels", d.WLLabels, "--method templates (and --method lambda-svm, where it is 0 unless given): iterations of hashed Weisfeiler-Lehman labels added to the node features, one-hot (FGW's WL labels: two nodes match where their labelled neighbourhood trees are the same) of categorical node features (labels, or the one-hot degrees of graphs without features; attributes are read as they are); 0: none; at most 10; --wl replaces them")
	fs.IntVar(&t.wlRare, "wl-rare-columns", d.WLRareColumns, "--method templates, with --wl-labels: one-hot columns per iteration for the codes outside the vocabulary, each code's column drawn from its hash, so that rare neighbourhood trees differ from each other (0: they all look alike)")
	fs.BoolVar(&t.statistics, "statistics", d.GraphStatistics, "--method templates: the head also reads each graph's statistics (sizes, degrees, clustering, path lengths, spectra: those of 'gwf classify --compare statistics'), standardized, beside its discrepancies to the templates")
	fs.IntVar(&t.patience, "patience", d.Patience, "--method templates: end training once the validation accuracy has not risen for this many epochs (0: every epoch of --epochs)")
	fs.IntVar(&t.maxEpochs, "max-epochs", d.MaxEpochs, "--method templates, with a validation split: train past --epochs, up to this many, while the validation accuracy still rose within the last sixth of --epochs (0: --epochs)")
	fs.Float64Var(&t.average, "average-epochs", d.AverageEpochs, "--method templates: validate and keep a moving average of the weights over about this many epochs of steps (Polyak averaging; 0: the weights as trained)")
	fs.Float64Var(&t.pseudo, "pseudo-labels", d.PseudoLabels, "--method templates, with graphs left unlabelled (--labeled-fraction < 1, or labels in part): self-training: the model trained on the labels predicts the other graphs, the most confident share `S` of those predicted each class take that class, and the model trains again on both (0: the unlabelled graphs train only through --beta)")
	fs.IntVar(&t.members, "members", d.Members, "--method templates: models trained from different seeds, whose mean class probabilities predict (1: a single model)")
}

// templateConfig is the template model's configuration: its defaults, with every shared flag
// the command line gave.
func (f *semisupFlags) templateConfig(fs *pflag.FlagSet) (semisup.TemplateConfig, error) {
	c := semisup.DefaultTemplateConfig()
	// The flags only the paper's model reads are refused rather than ignored, and first, so
	// that the message names the model they belong to.
	if name := cli.FirstChanged(fs, "head-input", "activation", "detach", "no-gwf", "head-steps", "head-lr", "head-decay", "select-beta",
		"select-detach", "select-decay", "select-encoder-lr", "select-hidden", "select-unsupervised", "refit", "baselines", "encoder-lr",
		"atoms", "atom-size", "solver", "gamma", "inner", "gwb-layers", "tol", "start-jitter", "skip-nonfinite", "shard", "resume"); name != "" {
		return c, gwfSetting(fs, "--"+name)
	}
	if f.encoder.encoder() == semisup.EncoderGCN {
		return c, gwfSetting(fs, "--encoder gcn")
	}
	c.Templates, c.WeightDecay, c.LearnWeight = f.tmpl.templates, f.tmpl.decay, f.tmpl.learnWeight
	switch n := f.tmpl.nodes; len(n) {
	case 0:
		return c, cli.Usagef("--template-nodes: give a size, or several as 12,0")
	case 1:
		c.TemplateNodes = n[0]
	default:
		c.TemplateSizes = n
	}
	if m := f.tmpl.members; m < 1 || m > semisup.MaxMembers { // the library's 0 (its default) is no setting to type
		return c, cli.Usagef("--members = %d: want 1 to %d", m, semisup.MaxMembers)
	}
	c.Members, c.Patience, c.LearnNodeWeights, c.WLRounds = f.tmpl.members, f.tmpl.patience, f.tmpl.learnNodes, f.tmpl.wl
	c.GraphStatistics, c.WLLabels, c.AverageEpochs, c.WLRareColumns = f.tmpl.statistics, f.tmpl.wlLabels, f.tmpl.average, f.tmpl.wlRare
	c.MaxEpochs, c.PseudoLabels = f.tmpl.maxEpochs, f.tmpl.pseudo
	if fs.Changed("wl") && !fs.Changed("wl-labels") { // the continuous rounds in place of the labels
		c.WLLabels = 0
	}
	c.WLEdgeLabels = f.data.EdgeLabels && c.WLLabels > 0
	if c.WLEdgeLabels != f.data.EdgeLabels && fs.Changed("edge-labels") {
		return c, cli.Usagef("--edge-labels refines the Weisfeiler-Lehman labels: it needs --wl-labels of 1 or more")
	}
	t := &f.train
	if fs.Changed("epochs") {
		c.Epochs = t.Epochs
	}
	if fs.Changed("lr") {
		c.LearningRate = t.LearningRate
	}
	if fs.Changed("batch") {
		c.BatchSize = t.Batch
	}
	if fs.Changed("seed") {
		c.Seed = t.Seed
	}
	if fs.Changed("feature-weight") {
		// auto: the weight that balances the structure and feature costs, as for the paper's model.
		c.FeatureWeight, c.BalanceWeight = t.FeatureWeight.Weight, t.FeatureWeight.Auto
		if t.FeatureWeight.Auto {
			c.FeatureWeight = 1
		}
	}
	if fs.Changed("encoder") {
		c.Encoder = f.encoder.encoder()
	}
	if fs.Changed("encoder-hidden") {
		h, err := f.encoder.widths()
		if err != nil {
			return c, err
		}
		c.EncoderHidden = h
	}
	if fs.Changed("hidden") {
		h, err := semisup.ParseHidden(f.hidden)
		if err != nil {
			return c, cli.Usagef("--hidden: %v", err)
		}
		c.Hidden = h
	}
	if fs.Changed("beta") {
		c.Beta = f.beta
	}
	if fs.Changed("validation") {
		c.Validation = f.validation
	}
	if fs.Changed("layers") {
		if t.Layers < 1 || t.Layers > semisup.MaxSolverIterations { // as --method gwf refuses 0
			return c, cli.Usagef("--layers = %d: want 1 to %d CG iterations a template solve", t.Layers, semisup.MaxSolverIterations)
		}
		c.SolverIterations = t.Layers
	}
	if fs.Changed("features") { // the features named, not a choice
		c.NodeFeatures = semisup.NodeFeaturesData
	}
	s, auto := f.data.StructureChoice()
	if auto {
		return c, cli.Usagef("--method templates: --structure takes adjacency or shortest-path")
	}
	c.Structure = s
	if err := c.Validate(); err != nil {
		return c, cli.Usagef("%v", err)
	}
	return c, nil
}

// gwfSetting is the error for a setting of the paper's model (setting) given to the template
// model. Without --method it says to add --method gwf: the paper's model was once the default,
// and a command line written then should say what changed rather than train another model.
func gwfSetting(fs *pflag.FlagSet, setting string) error {
	if fs.Changed("method") {
		return cli.Usagef("%s is a setting of --method gwf, not of --method templates", setting)
	}
	return cli.Usagef("%s is a setting of the paper's GWF model: add --method gwf (without it, 'gwf semisup' trains the template model, --method templates)", setting)
}

// checkGWFMethod refuses the template model's own flags with --method gwf (and lambda-svm,
// which reads --wl-labels too).
func (f *semisupFlags) checkGWFMethod(fs *pflag.FlagSet) error {
	own := []string{"templates", "template-nodes", "weight-decay", "learn-feature-weight", "learn-node-weights", "wl",
		"members", "patience", "max-epochs", "average-epochs", "wl-rare-columns", "statistics", "pseudo-labels", "edge-labels"}
	if f.tmpl.method != methodLambdaSVM {
		own = append(own, "wl-labels")
	}
	if name := cli.FirstChanged(fs, own...); name != "" {
		return cli.Usagef("--%s is a setting of --method templates", name)
	}
	return nil
}

// runTemplates is 'gwf semisup --method templates': cross-validation (--folds), or one model
// trained on a fraction of the labels (--labeled-fraction) or on the labels as given, which
// --output saves for 'gwf predict'.
func runTemplates(cmd *cobra.Command, a *app, f *semisupFlags) error {
	fs, p := cmd.Flags(), &f.protocol
	if err := f.data.check(); err != nil {
		return err
	}
	cfg, err := f.templateConfig(fs)
	if err != nil {
		return err
	}
	if err := p.checkFraction(); err != nil {
		return err
	}
	// The graphs are read with their edges (the encoder passes messages along them); the
	// template layer compares them by cfg.Structure.
	f.data.Structure = string(graphs.Adjacency)
	f.data.PartialLabels = graphs.PartialLabelsKept
	ds, err := f.data.loadAutoFeatures(a.Log)
	if err != nil {
		return err
	}
	ds = p.partlyLabelled(a, fs, ds)
	if p.output != "" && p.fraction == 0 && !p.given {
		return cli.Usagef("--output needs --labeled-fraction (or graphs labelled in part)")
	}
	if p.outputDir != "" && (p.fraction > 0 || p.given) {
		return cli.Usagef("--output-dir keeps the folds of cross-validation; with --labeled-fraction use --output")
	}
	release, err := lockOutputDir(p.outputDir, shard.Whole(), a.Log)
	if err != nil {
		return err
	}
	defer release()
	labels, classes, err := p.classLabels(a, ds)
	if err != nil {
		return err
	}
	opt := crossval.TemplatesOptions{Folds: p.folds, Seed: p.foldSeed, Workers: f.train.Workers, Observe: a.observer("training", nil), Dir: p.outputDir}
	cfg.WLEdgeLabels = cfg.ReadsEdgeLabels(ds.Graphs) // what the report says the model read
	edges := ""
	if cfg.WLEdgeLabels {
		edges = ", with the edge labels"
	}
	a.Log.Infof("classifying %s (%d graphs, %d classes) with the template model: %d templates of ≤ %s, %s encoder, structure %s, Weisfeiler-Lehman labels of %d iterations (of categorical features%s), %d epochs, %d members",
		ds.Name, len(ds.Graphs), classes, cfg.TemplateCount(classes), crossval.TemplateSize(cfg), cfg.Encoder, cfg.Structure, cfg.WLLabels, edges, cfg.Epochs, cfg.MemberCount())
	if p.fraction > 0 || p.given {
		rep, m, split, err := crossval.FractionTemplates(cmd.Context(), ds, labels, classes, cfg, p.split(), opt)
		if err != nil {
			return err
		}
		m.Classes, m.ClassNames = ds.Classes, ds.ClassNames
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
	rep, err := crossval.CrossValidateTemplates(cmd.Context(), ds, labels, classes, cfg, opt)
	if err != nil {
		return err
	}
	if err := p.writeReport(cmd.OutOrStdout(), rep); err != nil {
		return err
	}
	return p.writeHeldOut(ds, labels, rep.HeldOut()) // after the report: a fold kept without predictions loses nothing else
}
