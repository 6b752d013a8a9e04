package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/gwf-graphs/gwf/layers"
)

// solverFlags are the GWD solver's flags, the same in gw and in the commands that train
// (fit, cluster, semisup, bench): --solver, --gamma, --layers, --inner, --tol.
// Their defaults are PPA's at the paper's settings; a command that is given --solver and not
// the others takes that solver's defaults.
type solverFlags struct {
	solver string
	gamma  float64
	layers int
	inner  int
	tol    float64
}

// register adds the flags; tolUsage says what --tol does in the command.
func (s *solverFlags) register(fs *pflag.FlagSet, tolUsage string) {
	p, b, cg := layers.DefaultPPA(), layers.DefaultBADMM(), layers.DefaultCG()
	fs.StringVar(&s.solver, "solver", p.Name(), "GWD solver: ppa (proximal point, Algorithm 1), badmm (Bregman ADMM, Algorithm 2) or cg (conditional gradient, exact OT)")
	fs.Float64Var(&s.gamma, "gamma", p.Gamma, fmt.Sprintf("solver weight γ (default %g with ppa, %g with badmm)", p.Gamma, b.Gamma))
	fs.Lookup("gamma").DefValue = "0" // hides "(default 0.01)": it depends on --solver, as the usage says
	fs.IntVar(&s.layers, "layers", p.Layers, fmt.Sprintf("GWD layers M (cg: most iterations, default %d)", cg.MaxIter))
	fs.IntVar(&s.inner, "inner", p.Inner, "Sinkhorn sweeps per PPA layer (ppa only)")
	fs.Float64Var(&s.tol, "tol", 0, tolUsage)
}
