package training

import (
	"fmt"

	"github.com/gwf-graphs/gwf/layers"
)

// Config holds the hyperparameters of a GWF model and of Algorithm 4. DefaultConfig gives the
// paper's experimental settings.
type Config struct {
	// Atoms is K, the number of atoms.
	Atoms int `json:"atoms"`
	// AtomSize is the number of nodes of every atom when atoms are initialised randomly; 0 means
	// warm start: each atom is a random observed graph (its size, structure and features), as in
	// the paper's experiments.
	AtomSize int `json:"atom_size"`
	// Solver is layers.SolverPPA, SolverBADMM or SolverCG, stored as its string (see
	// layers.NewSolver); Gamma, Layers and Inner configure it (Inner: PPA only; for CG, Layers
	// is the iteration limit).
	Solver layers.SolverName `json:"solver"`
	Gamma  float64           `json:"gamma"`
	Layers int               `json:"layers"`
	Inner  int               `json:"inner"`
	// Tol > 0 runs PPA and BADMM in their converged mode (layers.SolverOptions.Tol); 0, the
	// paper's setting, leaves model files as they were.
	Tol float64 `json:"tol,omitempty"`
	// OrderStart runs CG from a second, ordered start as well (layers.CG.OrderStart).
	OrderStart bool `json:"order_start,omitempty"`
	// Anchors is the number of CG's anchored starts (layers.CG.Anchors); files written before
	// it existed read as 0, the single start they were made with.
	Anchors int `json:"anchors,omitempty"`
	// StartJitter perturbs the start of every PPA and BADMM solve (layers.PPA.Jitter), so that
	// they leave the product coupling on graphs with symmetries; 0, the paper's start, leaves
	// model files as they were.
	StartJitter float64 `json:"start_jitter,omitempty"`
	// FeatureWeight weighs the node-feature cost in the fused GW cost (FGW).
	FeatureWeight float64 `json:"feature_weight"`
	// GWBLayers is L, the number of barycenter layers.
	GWBLayers int `json:"gwb_layers"`
	// LearningRate is Adam's step size; Epochs and Batch drive Algorithm 4: gradients are summed
	// over a mini-batch of graphs, then one Adam step is taken.
	LearningRate float64 `json:"learning_rate"`
	Epochs       int     `json:"epochs"`
	Batch        int     `json:"batch"`
	// ZInitStd is the standard deviation of the initial embeddings z_i (mean 0). Each z_i gets
	// one Adam step per epoch, of size about LearningRate, so a large initial spread would
	// dominate what training can add.
	ZInitStd float64 `json:"z_init_std"`
	// Seed makes initialisation and shuffling reproducible.
	Seed uint64 `json:"seed"`
}

// DefaultConfig returns the paper's settings: K = 30 warm-started atoms, PPA with γ = 0.01,
// M = 50 (5 Sinkhorn sweeps per layer, see layers.DefaultPPA), L = 2, Adam with learning rate
// 0.05, 10 epochs; batches of 32 graphs.
func DefaultConfig() Config {
	p := layers.DefaultPPA()
	return Config{
		Atoms: 30, Solver: layers.SolverPPA, Gamma: p.Gamma, Layers: p.Layers, Inner: p.Inner,
		FeatureWeight: 1, GWBLayers: 2, LearningRate: 0.05, Epochs: 10, Batch: 32,
		ZInitStd: 0.01, Seed: 1,
	}
}

// WithSolverDefaults selects the named solver with the paper's settings for it
// (layers.DefaultSolverOptions): γ = 0.01 and 5 sweeps for PPA, γ = 1 for BADMM; Layers is
// M = 50 for both and CG's iteration limit and anchored starts for CG. Inner is kept for solvers without sweeps,
// and an unknown name is left for Validate to report.
func (c Config) WithSolverDefaults(solver layers.SolverName) Config {
	c.Solver = solver
	if o, err := layers.DefaultSolverOptions(solver); err == nil {
		c.Gamma, c.Layers, c.Anchors = o.Gamma, o.Layers, o.Anchors
		if o.Inner > 0 {
			c.Inner = o.Inner
		}
	}
	return c
}

// SolverOptions are the configured solver's settings.
func (c Config) SolverOptions() layers.SolverOptions {
	return layers.SolverOptions{Name: c.Solver, Gamma: c.Gamma, Layers: c.Layers, Inner: c.Inner,
		FeatureWeight: c.FeatureWeight, Tol: c.Tol, OrderStart: c.OrderStart,
		Anchors: c.Anchors, Jitter: c.StartJitter}
}

// Validate reports the first invalid hyperparameter.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("training config: %s", fmt.Sprintf(format, args...))
	}
	switch {
	case c.Atoms < 1 || c.Atoms > MaxAtoms:
		return bad("atoms = %d must be between 1 and %d", c.Atoms, MaxAtoms)
	case c.AtomSize < 0 || c.AtomSize > MaxAtomSize:
		return bad("atom size = %d must be 0 (warm start) or between 1 and %d", c.AtomSize, MaxAtomSize)
	case float64(c.Atoms)*float64(c.AtomSize)*float64(c.AtomSize) > MaxAtomCells:
		return bad("%d atoms of %d nodes hold more than %d values", c.Atoms, c.AtomSize, MaxAtomCells)
	case c.GWBLayers < 1 || c.GWBLayers > MaxGWBLayers:
		return bad("gwb layers = %d must be between 1 and %d", c.GWBLayers, MaxGWBLayers)
	case !(c.LearningRate > 0) || c.LearningRate > MaxLearningRate:
		return bad("learning rate = %v must be positive and at most %v", c.LearningRate, float64(MaxLearningRate))
	case c.Epochs < 0 || c.Epochs > MaxEpochs:
		return bad("epochs = %d must be between 0 and %d", c.Epochs, MaxEpochs)
	case c.Batch < 1 || c.Batch > MaxBatch:
		return bad("batch = %d must be between 1 and %d", c.Batch, MaxBatch)
	case !(c.ZInitStd >= 0) || c.ZInitStd > MaxZInitStd:
		return bad("z init std = %v must be between 0 and %v", c.ZInitStd, float64(MaxZInitStd))
	case !(c.FeatureWeight >= 0) || c.FeatureWeight > MaxFeatureWeight:
		return bad("feature weight = %v must be between 0 and %v", c.FeatureWeight, MaxFeatureWeight)
	}
	_, err := c.GWDSolver() // the solver's settings, and the starts of another solver (layers.NewSolver)
	return err
}

// GWDSolver validates the solver's settings and returns the configured GWD module.
func (c Config) GWDSolver() (layers.Solver, error) {
	s, err := layers.NewSolver(c.SolverOptions())
	if err != nil {
		return nil, fmt.Errorf("training config: %w", err)
	}
	return s, nil
}

// Forward returns the forward pass (GWB with L layers, then the final GWD).
func (c Config) Forward() (layers.Forward, error) {
	s, err := c.GWDSolver()
	if err != nil {
		return layers.Forward{}, err
	}
	return layers.Forward{GWB: layers.GWB{Solver: s, Layers: c.GWBLayers}}, nil
}

// Describe says the settings in one line, as the command logs them: K, the atoms' size, the
// solver and its parameters, the feature weight where it is not 1, and the training settings.
func (c Config) Describe() string {
	s := fmt.Sprintf("K=%d atoms (%s), %s γ=%g M=%d", c.Atoms, atomSizeText(c.AtomSize), c.Solver, c.Gamma, c.Layers)
	if c.Solver == layers.SolverPPA {
		s += fmt.Sprintf(" inner=%d", c.Inner)
	}
	if c.StartJitter > 0 {
		s += fmt.Sprintf(" start jitter %g", c.StartJitter)
	}
	if c.FeatureWeight != 1 {
		s += fmt.Sprintf(", feature weight %.4g", c.FeatureWeight)
	}
	return s + fmt.Sprintf(", L=%d, lr=%g, %d epochs, batch %d, seed %d", c.GWBLayers, c.LearningRate, c.Epochs, c.Batch, c.Seed)
}

func atomSizeText(n int) string {
	if n == 0 {
		return "warm start"
	}
	return fmt.Sprintf("%d nodes", n)
}
