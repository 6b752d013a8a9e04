package trainflags

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/training"
)

// Flags are the hyperparameter flags of the commands that train; their defaults are
// training.DefaultConfig (the paper's settings).
type Flags struct {
	Atoms    int
	AtomSize string // a node count, or "warm"
	Solver
	FeatureWeight FeatureWeight
	GWBLayers     int
	LearningRate  float64
	Epochs        int
	Batch         int
	Seed          uint64
	Workers       int
	SkipNonFinite bool
}

// Register adds the flags to fs.
func (t *Flags) Register(fs *pflag.FlagSet) {
	d := training.DefaultConfig()
	fs.IntVar(&t.Atoms, "atoms", d.Atoms, "number of atoms K")
	fs.StringVar(&t.AtomSize, "atom-size", "warm", `nodes per atom, or "warm" (or 0): each atom starts as a random observed graph (the paper's setting)`)
	t.Solver.Register(fs, "converged mode of every GWD (ppa, badmm): Sinkhorn sweeps until the marginal error is below this (0: the paper's fixed sweeps; much slower, see 'gwf gw --help')")
	t.FeatureWeight.Register(fs, d.FeatureWeight, false, `weight of the node-feature cost in the fused GW cost (1 in the paper), or "auto": the weight that gives the feature and structure terms the same mean over the data, measured without labels (see 'gwf fit --help')`)
	fs.IntVar(&t.GWBLayers, "gwb-layers", d.GWBLayers, "barycenter (GWB) layers L")
	fs.Float64Var(&t.LearningRate, "lr", d.LearningRate, "Adam learning rate")
	fs.IntVar(&t.Epochs, "epochs", d.Epochs, "training epochs (with fit --resume: the total, counting those already done)")
	fs.IntVar(&t.Batch, "batch", d.Batch, "graphs per mini-batch (one Adam step per batch)")
	fs.Uint64Var(&t.Seed, "seed", d.Seed, "seed of initialisation and shuffling")
	RegisterWorkers(fs, &t.Workers, "goroutines per batch")
	fs.BoolVar(&t.SkipNonFinite, "skip-nonfinite", false, "leave out (with a warning) a graph whose loss or gradients are NaN or infinite, instead of stopping")
}

// field ties a flag to the Config field it sets.
type field struct {
	flag  string
	apply func(c *training.Config)
	show  func(c training.Config) string
}

// fields lists the flags that set Config fields, in the order of the help text.
func (t *Flags) fields(atomSize int) []field {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	i := strconv.Itoa
	return []field{
		{"atoms", func(c *training.Config) { c.Atoms = t.Atoms }, func(c training.Config) string { return i(c.Atoms) }},
		{"atom-size", func(c *training.Config) { c.AtomSize = atomSize }, func(c training.Config) string { return showAtomSize(c.AtomSize) }},
		{"solver", func(c *training.Config) { c.Solver = t.solver() }, func(c training.Config) string { return string(c.Solver) }},
		{"gamma", func(c *training.Config) { c.Gamma = t.Gamma }, func(c training.Config) string { return g(c.Gamma) }},
		{"layers", func(c *training.Config) { c.Layers = t.Layers }, func(c training.Config) string { return i(c.Layers) }},
		{"inner", func(c *training.Config) { c.Inner = t.Inner }, func(c training.Config) string { return i(c.Inner) }},
		{"tol", func(c *training.Config) { c.Tol = t.Tol }, func(c training.Config) string { return g(c.Tol) }},
		{"start-jitter", func(c *training.Config) { c.StartJitter = t.Jitter }, func(c training.Config) string { return g(c.StartJitter) }},
		{"feature-weight", t.FeatureWeight.apply, func(c training.Config) string { return g(c.FeatureWeight) }},
		{"gwb-layers", func(c *training.Config) { c.GWBLayers = t.GWBLayers }, func(c training.Config) string { return i(c.GWBLayers) }},
		{"lr", func(c *training.Config) { c.LearningRate = t.LearningRate }, func(c training.Config) string { return g(c.LearningRate) }},
		{"epochs", func(c *training.Config) { c.Epochs = t.Epochs }, func(c training.Config) string { return i(c.Epochs) }},
		{"batch", func(c *training.Config) { c.Batch = t.Batch }, func(c training.Config) string { return i(c.Batch) }},
		{"seed", func(c *training.Config) { c.Seed = t.Seed }, func(c training.Config) string { return strconv.FormatUint(c.Seed, 10) }},
	}
}

func showAtomSize(n int) string {
	if n == 0 {
		return "warm"
	}
	return strconv.Itoa(n)
}

// parse checks what the Config's own validation cannot: the workers, the epochs and
// --atom-size ("warm" or 0: warm-started atoms, else a node count).
func (t *Flags) parse() (atomSize int, err error) {
	switch {
	case t.Workers < 0:
		return 0, fmt.Errorf("--workers = %d must not be negative", t.Workers)
	case t.Epochs < 1:
		// With none, the commands would write and score the random initialisation as if it
		// were a trained model (training.Config allows 0 for library users).
		return 0, fmt.Errorf("--epochs = %d must be at least 1", t.Epochs)
	}
	s := strings.TrimSpace(t.AtomSize)
	if strings.EqualFold(s, "warm") {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf(`--atom-size: %q is neither "warm" nor a number of nodes`, t.AtomSize)
	}
	return n, nil
}

// Config builds the training configuration from the flags of fs: the paper's defaults, the
// solver's default γ (and sweeps) when --solver is given without --gamma, then every flag that
// was set; an "auto" feature weight is left for FeatureWeight.Resolve. It returns warnings about flags that
// have no effect.
func (t *Flags) Config(fs *pflag.FlagSet) (training.Config, []string, error) {
	atomSize, err := t.parse()
	if err != nil {
		return training.Config{}, nil, err
	}
	cfg := training.DefaultConfig()
	if fs.Changed("solver") {
		cfg = cfg.WithSolverDefaults(t.solver()) // Validate below reports an unknown name
	}
	for _, f := range t.fields(atomSize) {
		if fs.Changed(f.flag) {
			f.apply(&cfg)
		}
	}
	if err := cfg.Validate(); err != nil {
		return training.Config{}, nil, err
	}
	return cfg, innerWarning(fs, cfg.Solver), nil
}

// ResumeConfig is the configuration to resume a checkpoint trained with file: file, with
// --epochs applied when given. Every other flag of fs that asks for a different value is
// reported in the warnings and ignored.
func (t *Flags) ResumeConfig(fs *pflag.FlagSet, file training.Config) (training.Config, []string, error) {
	atomSize, err := t.parse()
	if err != nil {
		return training.Config{}, nil, err
	}
	cfg := file
	var warnings []string
	for _, f := range t.fields(atomSize) {
		if !fs.Changed(f.flag) {
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
		return training.Config{}, nil, err
	}
	return cfg, warnings, nil
}
