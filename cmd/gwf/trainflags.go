package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sirupsen/logrus"
	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// trainFlags are the hyperparameter flags of fit and cluster; their defaults are
// training.DefaultConfig (the paper's settings).
type trainFlags struct {
	atoms    int
	atomSize string
	solverFlags
	featureWeight featureWeightFlag
	gwbLayers     int
	lr            float64
	epochs        int
	batch         int
	seed          uint64
	workers       int
	skipNonFinite bool
}

func (t *trainFlags) register(fs *pflag.FlagSet) {
	d := training.DefaultConfig()
	fs.IntVar(&t.atoms, "atoms", d.Atoms, "number of atoms K")
	fs.StringVar(&t.atomSize, "atom-size", "warm", `nodes per atom, or "warm" (or 0): each atom starts as a random observed graph (the paper's setting)`)
	t.solverFlags.register(fs, "converged mode of every GWD (ppa, badmm): Sinkhorn sweeps until the marginal error is below this (0: the paper's fixed sweeps; much slower, see 'gwf gw --help')")
	t.featureWeight.register(fs, d.FeatureWeight, false, `weight of the node-feature cost in the fused GW cost (1 in the paper), or "auto": the weight that gives the feature and structure terms the same mean over the data, measured without labels (see 'gwf fit --help')`)
	fs.IntVar(&t.gwbLayers, "gwb-layers", d.GWBLayers, "barycenter (GWB) layers L")
	fs.Float64Var(&t.lr, "lr", d.LearningRate, "Adam learning rate")
	fs.IntVar(&t.epochs, "epochs", d.Epochs, "training epochs (with fit --resume: the total, counting those already done)")
	fs.IntVar(&t.batch, "batch", d.Batch, "graphs per mini-batch (one Adam step per batch)")
	fs.Uint64Var(&t.seed, "seed", d.Seed, "seed of initialisation and shuffling")
	workersFlag(fs, &t.workers, "goroutines per batch")
	fs.BoolVar(&t.skipNonFinite, "skip-nonfinite", false, "leave out (with a warning) a graph whose loss or gradients are NaN or infinite, instead of stopping")
}

// trainField ties a flag to the Config field it sets.
type trainField struct {
	flag  string
	apply func(c *training.Config)
	show  func(c training.Config) string
}

// fields lists the flags that set Config fields, in the order of the help text. atomSize must
// have been parsed (see parseAtomSize).
func (t *trainFlags) fields(atomSize int) []trainField {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return []trainField{
		{"atoms", func(c *training.Config) { c.Atoms = t.atoms }, func(c training.Config) string { return strconv.Itoa(c.Atoms) }},
		{"atom-size", func(c *training.Config) { c.AtomSize = atomSize }, func(c training.Config) string { return showAtomSize(c.AtomSize) }},
		{"solver", func(c *training.Config) { c.Solver = t.solver }, func(c training.Config) string { return c.Solver }},
		{"gamma", func(c *training.Config) { c.Gamma = t.gamma }, func(c training.Config) string { return g(c.Gamma) }},
		{"layers", func(c *training.Config) { c.Layers = t.layers }, func(c training.Config) string { return strconv.Itoa(c.Layers) }},
		{"inner", func(c *training.Config) { c.Inner = t.inner }, func(c training.Config) string { return strconv.Itoa(c.Inner) }},
		{"tol", func(c *training.Config) { c.Tol = t.tol }, func(c training.Config) string { return g(c.Tol) }},
		{"feature-weight", func(c *training.Config) { t.featureWeight.apply(c) }, func(c training.Config) string { return g(c.FeatureWeight) }},
		{"gwb-layers", func(c *training.Config) { c.GWBLayers = t.gwbLayers }, func(c training.Config) string { return strconv.Itoa(c.GWBLayers) }},
		{"lr", func(c *training.Config) { c.LearningRate = t.lr }, func(c training.Config) string { return g(c.LearningRate) }},
		{"epochs", func(c *training.Config) { c.Epochs = t.epochs }, func(c training.Config) string { return strconv.Itoa(c.Epochs) }},
		{"batch", func(c *training.Config) { c.Batch = t.batch }, func(c training.Config) string { return strconv.Itoa(c.Batch) }},
		{"seed", func(c *training.Config) { c.Seed = t.seed }, func(c training.Config) string { return strconv.FormatUint(c.Seed, 10) }},
	}
}

func showAtomSize(n int) string {
	if n == 0 {
		return "warm"
	}
	return strconv.Itoa(n)
}

// parseAtomSize reads --atom-size: "warm" (or 0) for warm-started atoms, else a node count.
func (t *trainFlags) parseAtomSize() (int, error) {
	s := strings.TrimSpace(t.atomSize)
	if strings.EqualFold(s, "warm") {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, usagef(`--atom-size: %q is neither "warm" nor a number of nodes`, t.atomSize)
	}
	return n, nil
}

// config builds the training configuration from the flags: the paper's defaults, the solver's
// default γ (and sweeps) when --solver is given without --gamma, then every flag that was set.
// It returns warnings about flags that have no effect. Its errors are usage errors.
func (t *trainFlags) config(fs *pflag.FlagSet) (training.Config, []string, error) {
	if t.workers < 0 {
		return training.Config{}, nil, usagef("--workers = %d must not be negative", t.workers)
	}
	if err := t.checkEpochs(); err != nil {
		return training.Config{}, nil, err
	}
	atomSize, err := t.parseAtomSize()
	if err != nil {
		return training.Config{}, nil, err
	}
	cfg := training.DefaultConfig()
	if changed(fs, "solver") {
		cfg = cfg.WithSolverDefaults(t.solver) // Validate below reports an unknown name
	}
	for _, f := range t.fields(atomSize) {
		if changed(fs, f.flag) {
			f.apply(&cfg)
		}
	}
	if err := cfg.Validate(); err != nil {
		return training.Config{}, nil, usageError{err}
	}
	var warnings []string
	if cfg.Solver != "ppa" && changed(fs, "inner") {
		warnings = append(warnings, "--inner has no effect with --solver "+cfg.Solver)
	}
	return cfg, warnings, nil
}

// resumeConfig returns the configuration to resume a checkpoint with: the file's, with --epochs
// applied when given. Every other flag that asks for a different value is reported in the
// warnings and ignored. Its errors are usage errors.
func (t *trainFlags) resumeConfig(fs *pflag.FlagSet, file training.Config) (training.Config, []string, error) {
	if err := t.checkEpochs(); err != nil {
		return training.Config{}, nil, err
	}
	atomSize, err := t.parseAtomSize()
	if err != nil {
		return training.Config{}, nil, err
	}
	cfg := file
	var warnings []string
	for _, f := range t.fields(atomSize) {
		if !changed(fs, f.flag) {
			continue
		}
		want := file
		f.apply(&want)
		if f.flag == "epochs" {
			cfg.Epochs = want.Epochs
			continue
		}
		if f.show(want) != f.show(file) {
			warnings = append(warnings, fmt.Sprintf("--%s=%s ignored: the checkpoint was trained with %s = %s", f.flag, f.show(want), f.flag, f.show(file)))
		}
	}
	if err := cfg.Validate(); err != nil {
		return training.Config{}, nil, usageError{err}
	}
	return cfg, warnings, nil
}

// checkEpochs refuses --epochs below 1: with none, the commands would write and score the
// random initialisation as if it were a trained model. (training.Config allows 0 for library
// users who want an untrained model.)
func (t *trainFlags) checkEpochs() error {
	if t.epochs < 1 {
		return usagef("--epochs = %d must be at least 1", t.epochs)
	}
	return nil
}

// featureWeightFlag is --feature-weight: a non-negative number, or "auto" for the weight of
// training.BalanceFeatures, which needs the data and is resolved once it is read
// (trainFlags.resolveFeatureWeight).
type featureWeightFlag struct {
	auto bool
	w    float64
}

func (f *featureWeightFlag) String() string {
	if f.auto {
		return "auto"
	}
	return strconv.FormatFloat(f.w, 'g', -1, 64)
}

func (f *featureWeightFlag) Set(s string) error {
	if strings.EqualFold(strings.TrimSpace(s), "auto") {
		f.auto = true
		return nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return fmt.Errorf(`want a number or "auto"`)
	}
	f.auto, f.w = false, v
	return nil
}

func (f *featureWeightFlag) Type() string { return "weight|auto" }

// register adds --feature-weight, the weight w or "auto" by default; usage says what auto
// means in the command.
func (f *featureWeightFlag) register(fs *pflag.FlagSet, w float64, auto bool, usage string) {
	f.w, f.auto = w, auto
	fs.Var(f, "feature-weight", usage)
}

// apply sets a numeric weight; "auto" leaves c alone until the data is read.
func (f *featureWeightFlag) apply(c *training.Config) {
	if !f.auto {
		c.FeatureWeight = f.w
	}
}

// configLogged is config with its warnings logged.
func (t *trainFlags) configLogged(fs *pflag.FlagSet, log logrus.FieldLogger) (training.Config, error) {
	cfg, warnings, err := t.config(fs)
	for _, w := range warnings {
		log.Warn(w)
	}
	return cfg, err
}

// resolveFeatureWeight sets cfg.FeatureWeight from the data when --feature-weight is "auto",
// and says what it measured.
func (t *trainFlags) resolveFeatureWeight(cfg *training.Config, data graphs.Source, log logrus.FieldLogger) error {
	if !t.featureWeight.auto {
		return nil
	}
	b, err := training.BalanceFeatures(data)
	if err != nil {
		return err
	}
	cfg.FeatureWeight = b.Weight
	if b.Features == 0 {
		log.Infof("--feature-weight auto: the data has no varying node features; weight 1")
		return nil
	}
	log.Infof("--feature-weight auto: %.6g (mean structure cost %.4g, mean feature cost %.4g under independent couplings)", b.Weight, b.Structure, b.Features)
	return nil
}
