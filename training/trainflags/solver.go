package trainflags

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/layers"
)

// Solver is the GWD solver's flags, the same in 'gwf gw' and in the commands that train:
// --solver, --gamma, --layers, --inner, --tol. Their defaults are PPA's at the paper's
// settings; a command that is given --solver and not the others takes that solver's defaults.
type Solver struct {
	Name   string // --solver: a layers.SolverName once checked
	Gamma  float64
	Layers int
	Inner  int
	Tol    float64
	Jitter float64 // --start-jitter
}

// Register adds the flags; tolUsage says what --tol does in the command.
func (s *Solver) Register(fs *pflag.FlagSet, tolUsage string) {
	p, b, cg := layers.DefaultPPA(), layers.DefaultBADMM(), layers.DefaultCG()
	fs.StringVar(&s.Name, "solver", p.Name(), "GWD solver: ppa (proximal point, Algorithm 1), badmm (Bregman ADMM, Algorithm 2) or cg (conditional gradient, exact OT)")
	fs.Float64Var(&s.Gamma, "gamma", p.Gamma, fmt.Sprintf("solver weight γ (default %g with ppa, %g with badmm)", p.Gamma, b.Gamma))
	fs.Lookup("gamma").DefValue = "0" // hides "(default 0.01)": it depends on --solver, as the usage says
	fs.IntVar(&s.Layers, "layers", p.Layers, fmt.Sprintf("GWD layers M (cg: most iterations, default %d)", cg.MaxIter))
	fs.IntVar(&s.Inner, "inner", p.Inner, "Sinkhorn sweeps per PPA layer (ppa only)")
	fs.Float64Var(&s.Tol, "tol", 0, tolUsage)
	fs.Float64Var(&s.Jitter, "start-jitter", 0, "ppa, badmm: start from the product coupling perturbed by this relative amount (a fixed pattern, at most 0.5), which they leave on graphs with symmetries (cycles, stars, cliques) where the paper's start (0) stays")
}

// Options are the solver options the flags of fs ask for: the named solver's defaults
// (layers.DefaultSolverOptions), with each of --gamma, --layers and --inner that was given,
// and --tol and --start-jitter. The warnings name the flags given that the solver has no use for.
func (s *Solver) Options(fs *pflag.FlagSet) (layers.SolverOptions, []string, error) {
	name, err := layers.ParseSolverName(s.Name)
	if err != nil {
		return layers.SolverOptions{}, nil, err
	}
	o, err := layers.DefaultSolverOptions(name)
	if err != nil {
		return o, nil, err
	}
	if fs.Changed("gamma") {
		o.Gamma = s.Gamma
	}
	if fs.Changed("layers") {
		o.Layers = s.Layers
	}
	if fs.Changed("inner") {
		o.Inner = s.Inner
	}
	warnings := innerWarning(fs, o.Name)
	if o.Name == layers.SolverCG && fs.Changed("gamma") {
		warnings = append(warnings, "--gamma has no effect with --solver cg")
	}
	o.Tol, o.Jitter = s.Tol, s.Jitter
	return o, warnings, nil
}

// innerWarning is the warning of an --inner given to a solver other than PPA.
func innerWarning(fs *pflag.FlagSet, solver layers.SolverName) []string {
	if solver != layers.SolverPPA && fs.Changed("inner") {
		return []string{"--inner has no effect with --solver " + string(solver)}
	}
	return nil
}

// solver is --solver as a solver name, unchecked: Options and training.Config.Validate report
// a name that is no solver's.
func (s *Solver) solver() layers.SolverName { return layers.SolverName(s.Name) }

// RegisterWorkers adds --workers, the goroutines of a command's parallel work: what says of
// what.
func RegisterWorkers(fs *pflag.FlagSet, v *int, what string) {
	fs.IntVar(v, "workers", 0, what+" (0: one per CPU); results do not depend on it")
}
