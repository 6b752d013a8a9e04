package layers

import (
	"fmt"
	"math"
)

// Bounds on the work a solver may be asked for: beyond them a mistyped option would run for
// days rather than fail.
const (
	MaxLayers = 100000  // layers M (PPA, BADMM) or iterations (CG)
	MaxInner  = 10000   // fixed Sinkhorn sweeps per PPA layer
	MaxSweeps = 1000000 // sweep cap of the converged mode (per PPA layer; BADMM's projection)
)

// SolverOptions name a GWD solver and its settings as plain values (flags, config files); it is
// the one place where solvers are validated and built by name. Each solver reads its own
// fields, in the file of its solver (ppaOf, badmmOf, cgOf):
//
//   - PPA: Gamma, Layers, Inner, FeatureWeight, Tol, MaxSweeps, Round, Jitter.
//   - BADMM: Gamma, Layers, FeatureWeight, Tol, MaxSweeps, Round, Jitter.
//   - CG: Layers, FeatureWeight, Tol, OrderStart, Anchors.
//
// The settings of another solver's starts are refused (Jitter with CG; OrderStart and Anchors
// with PPA and BADMM): a start asked for and not made would be a different experiment. The
// other fields a solver does not read are ignored, so that one configuration may switch
// solvers: configuration and classifier files store PPA's Inner with every solver.
type SolverOptions struct {
	// Name is SolverPPA, SolverBADMM or SolverCG.
	Name SolverName
	// Gamma is γ (PPA, BADMM).
	Gamma float64
	// Layers is M (PPA, BADMM) or the maximum number of Frank-Wolfe iterations (CG).
	Layers int
	// Inner is the number of Sinkhorn sweeps per PPA layer (with Tol = 0).
	Inner int
	// FeatureWeight weighs the node-feature cost D in the fused GW cost.
	FeatureWeight float64
	// Tol > 0 selects the converged mode of PPA and BADMM: the marginal error of the transport
	// is driven below Tol (see PPA.Tol, BADMM.Tol). For CG it is the relative change of the
	// objective at which the iterations stop (0: CG's default).
	Tol float64
	// MaxSweeps caps the converged mode of PPA and BADMM (0: DefaultMaxSweeps).
	MaxSweeps int
	// Round projects the final transport onto Π(μs, μt) (PPA, BADMM; see Round).
	Round bool
	// OrderStart runs CG from a second, ordered start too (see CG.OrderStart).
	OrderStart bool
	// Anchors is the number of CG's anchored starts (see CG.Anchors).
	Anchors int
	// Jitter perturbs the start of PPA and BADMM (see PPA.Jitter).
	Jitter float64
}

// MaxFeatureWeight bounds the weight of the feature cost that the module's configurations
// accept (training.Config, the FGW-SVM's solver): beyond it the fused cost of ordinary
// (standardized) features overflows the solvers' exponentials long before any structure is
// seen.
const MaxFeatureWeight = 1e6

// DefaultMaxSweeps is the sweep cap of the converged mode when none is given.
const DefaultMaxSweeps = 10000

// DefaultSolverOptions returns the paper's settings for the named solver: PPA with γ = 0.01,
// M = 50, 5 sweeps; BADMM with γ = 1, M = 50; CG with POT's stopping rule (relative and
// absolute objective change 1e-9), at most 10000 iterations and DefaultAnchors anchored starts.
// The feature weight is 1. They are DefaultPPA, DefaultBADMM and DefaultCG as plain values.
func DefaultSolverOptions(name SolverName) (SolverOptions, error) {
	switch name {
	case SolverPPA:
		return DefaultPPA().options(), nil
	case SolverBADMM:
		return DefaultBADMM().options(), nil
	case SolverCG:
		return DefaultCG().options(), nil
	}
	return SolverOptions{}, unknownSolver(name)
}

// Validate reports the first invalid option, naming it.
func (o SolverOptions) Validate() error {
	_, err := NewSolver(o)
	return err
}

// NewSolver validates the options and builds the named solver. Its errors wrap ErrInput.
func NewSolver(o SolverOptions) (Solver, error) {
	// Tol and MaxSweeps are bounded whichever solver reads them (CG reads Tol as its relative
	// tolerance and ignores MaxSweeps), so that a configuration's values are checked as one.
	if o.MaxSweeps < 0 || o.MaxSweeps > MaxSweeps {
		return nil, fmt.Errorf("%s: %w: max sweeps = %d must be in [0, %d]", o.Name, ErrInput, o.MaxSweeps, MaxSweeps)
	}
	if !(o.Tol >= 0 && o.Tol < 1) {
		return nil, fmt.Errorf("%s: %w: tol = %v must be in [0, 1)", o.Name, ErrInput, o.Tol)
	}
	var (
		s interface {
			Solver
			Check() error
		}
		err error
	)
	switch o.Name {
	case SolverPPA:
		s, err = ppaOf(o)
	case SolverBADMM:
		s, err = badmmOf(o)
	case SolverCG:
		s, err = cgOf(o)
	default:
		return nil, unknownSolver(o.Name)
	}
	if err != nil {
		return nil, err
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return s, nil
}

// noCGStarts refuses CG's starts (OrderStart, Anchors) in the options of a solver without them.
func noCGStarts(o SolverOptions) error {
	switch {
	case o.OrderStart:
		return fmt.Errorf("%s: %w: order start: the ordered start is a setting of cg (%s has the start jitter)", o.Name, ErrInput, o.Name)
	case o.Anchors != 0:
		return fmt.Errorf("%s: %w: anchors = %d: the anchored starts are a setting of cg (%s has the start jitter)", o.Name, ErrInput, o.Anchors, o.Name)
	}
	return nil
}

// checkCommon validates the hyperparameters shared by PPA and BADMM.
func checkCommon(name string, gamma float64, layers int, w float64) error {
	if !(gamma > 0) || math.IsInf(gamma, 0) {
		return fmt.Errorf("%s: %w: gamma = %v must be positive and finite", name, ErrInput, gamma)
	}
	if layers < 1 || layers > MaxLayers {
		return fmt.Errorf("%s: %w: layers = %d must be in [1, %d]", name, ErrInput, layers, MaxLayers)
	}
	if !(w >= 0) || math.IsInf(w, 0) {
		return fmt.Errorf("%s: %w: feature weight = %v must be finite and non-negative", name, ErrInput, w)
	}
	return nil
}

// MaxJitter bounds PPA.Jitter and BADMM.Jitter: a start at most 1.5 times the product
// coupling, and at least half of it, anywhere.
const MaxJitter = 0.5

// checkJitter validates the start jitter of PPA and BADMM.
func checkJitter(name string, jitter float64) error {
	if !(jitter >= 0 && jitter <= MaxJitter) {
		return fmt.Errorf("%s: %w: start jitter = %v must be in [0, %v]", name, ErrInput, jitter, MaxJitter)
	}
	return nil
}

// checkConverged validates the converged-mode options of PPA and BADMM.
func checkConverged(name string, tol float64, maxSweeps int) error {
	if !(tol >= 0 && tol < 1) {
		return fmt.Errorf("%s: %w: tol = %v must be in [0, 1)", name, ErrInput, tol)
	}
	if maxSweeps < 0 || maxSweeps > MaxSweeps {
		return fmt.Errorf("%s: %w: sweep cap = %d must be in [0, %d]", name, ErrInput, maxSweeps, MaxSweeps)
	}
	return nil
}
