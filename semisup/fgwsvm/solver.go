package fgwsvm

import (
	"fmt"

	"github.com/gwf-graphs/gwf/layers"
)

// DefaultIterations bounds the conditional gradient's iterations in DefaultSolver, as POT
// 0.8's ot.optim.cg does (200; FGW's own code: 500). Most pairs stop long before it, but
// adjacency matrices of dense graphs leave Frank-Wolfe on long plateaus, which the bound cuts
// short for a small change in the discrepancies (docs/design.md and
// docs/results/classification.md have the measurements).
const DefaultIterations = 200

// DefaultTolerance is the relative change of the objective at which DefaultSolver's
// iterations stop (POT's is 1e-9). Frank-Wolfe crawls along plateaus of adjacency matrices for
// dozens of iterations that change a discrepancy by parts per million, less than the choice
// between the equal-cost plans of the exact OT steps does; the kernel's decisions do not see
// them (docs/results/classification.md has the measurements).
const DefaultTolerance = 1e-6

// DefaultSolver is the GWD module the discrepancies are computed with: the exact conditional
// gradient (FGW's solver) from the product coupling alone, as FGW's code, with at most
// DefaultIterations iterations, DefaultTolerance and feature weight 1 (each candidate sets its
// own). Inner is PPA's 5 sweeps, which CG does not use: the kept matrices' names and the
// classifier files have always recorded it.
func DefaultSolver() layers.SolverOptions {
	return layers.SolverOptions{Name: layers.SolverCG, Layers: DefaultIterations, Tol: DefaultTolerance, Inner: layers.DefaultPPA().Inner, FeatureWeight: 1}
}

// checkSolver reports the first setting of o that no discrepancy can be computed with, as
// training.Config.Validate does for the same fields.
func checkSolver(o layers.SolverOptions) error {
	if !(o.FeatureWeight >= 0) || o.FeatureWeight > layers.MaxFeatureWeight {
		return fmt.Errorf("solver: feature weight = %v must be between 0 and %v", o.FeatureWeight, float64(layers.MaxFeatureWeight))
	}
	if err := o.Validate(); err != nil { // the settings, and the starts of another solver
		return fmt.Errorf("solver: %w", err)
	}
	return nil
}

// solverFile is the GWD module as classifier files and the names of kept matrices and plans
// hold it: in the JSON layout of training.Config, whose fields of GWF's training are fixed at
// training.DefaultConfig's values, byte for byte, so that the files and kept matrices written
// in that layout are read and found again (TestSolverFileAsConfig).
type solverFile struct {
	Atoms         int               `json:"atoms"`
	AtomSize      int               `json:"atom_size"`
	Solver        layers.SolverName `json:"solver"`
	Gamma         float64           `json:"gamma"`
	Layers        int               `json:"layers"`
	Inner         int               `json:"inner"`
	Tol           float64           `json:"tol,omitempty"`
	OrderStart    bool              `json:"order_start,omitempty"`
	Anchors       int               `json:"anchors,omitempty"`
	StartJitter   float64           `json:"start_jitter,omitempty"`
	FeatureWeight float64           `json:"feature_weight"`
	GWBLayers     int               `json:"gwb_layers"`
	LearningRate  float64           `json:"learning_rate"`
	Epochs        int               `json:"epochs"`
	Batch         int               `json:"batch"`
	ZInitStd      float64           `json:"z_init_std"`
	Seed          uint64            `json:"seed"`
	// MaxSweeps and Round, which training.Config lacks, come last and only when set, so that
	// every name made without them stays as it was.
	MaxSweeps int  `json:"max_sweeps,omitempty"`
	Round     bool `json:"round,omitempty"`
}

// fileSolver is o in the layout of solverFile.
func fileSolver(o layers.SolverOptions) solverFile {
	return solverFile{
		Atoms: 30, Solver: o.Name, Gamma: o.Gamma, Layers: o.Layers, Inner: o.Inner, Tol: o.Tol,
		OrderStart: o.OrderStart, Anchors: o.Anchors, StartJitter: o.Jitter, FeatureWeight: o.FeatureWeight,
		GWBLayers: 2, LearningRate: 0.05, Epochs: 10, Batch: 32, ZInitStd: 0.01, Seed: 1,
		MaxSweeps: o.MaxSweeps, Round: o.Round,
	}
}

// options are the solver's settings that f holds.
func (f solverFile) options() layers.SolverOptions {
	return layers.SolverOptions{Name: f.Solver, Gamma: f.Gamma, Layers: f.Layers, Inner: f.Inner,
		FeatureWeight: f.FeatureWeight, Tol: f.Tol, MaxSweeps: f.MaxSweeps, Round: f.Round,
		OrderStart: f.OrderStart, Anchors: f.Anchors, Jitter: f.StartJitter}
}
