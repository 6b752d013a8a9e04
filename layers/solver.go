package layers

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Solver is an unrolled GWD module: M layers that map T⁽ᵐ⁾ to T⁽ᵐ⁺¹⁾ for the (fused) GW
// problem min_{T∈Π(μs,μt)} <Cst − 2·Cs·T·Ctᵀ + D, T>. PPA (Algorithm 1) and BADMM
// (Algorithm 2) implement it, and so does CG (conditional gradient, an exact solver whose
// "layers" are Frank-Wolfe iterations), so barycenters, losses and experiments take a Solver
// value. NewSolver builds one by name.
type Solver interface {
	// Name is the solver's SolverName as a string: "ppa", "badmm" or "cg" for those NewSolver
	// builds.
	Name() string
	// Depth is the number of layers M.
	Depth() int
	// FeatureWeight is the weight of the feature cost D in the fused cost.
	FeatureWeight() float64
	// Init binds the problem to st and sets T⁽⁰⁾ = μs·μtᵀ and the solver's own state.
	// It checks sizes only; values are the caller's responsibility (see Space.Validate).
	Init(st *State, src, dst Space) error
	// Step applies one layer. A layer whose loops run for seconds on large graphs checks ctx
	// inside them and, once ctx is done, stops and fails with ctx's error (wrapped), which
	// Solve returns.
	Step(ctx context.Context, st *State)
}

// Solve runs all layers of s on the problem, leaving the transport in st. It returns an error
// for malformed problems and for non-finite results. ctx is checked before every layer and
// inside the loops of a layer that run for seconds on large graphs (the network simplex's
// pivots, CG's anchored matchings, the converged mode's Sinkhorn sweeps): once it is done,
// Solve stops with an error wrapping ctx's error, within milliseconds even on 1,500-node
// graphs.
func Solve(ctx context.Context, s Solver, st *State, src, dst Space) error {
	if err := s.Init(st, src, dst); err != nil {
		return err
	}
	tracing := st.Trace != nil
	stop, canStop := s.(stopper)
	for m := 0; m < s.Depth(); m++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: stopped at layer %d: %w", s.Name(), m, err)
		}
		s.Step(ctx, st)
		if st.err != nil { // a failure, or a stop inside the layer (ctx done)
			break
		}
		if tracing {
			st.Trace = append(st.Trace, st.Objective())
		}
		if canStop && stop.done(ctx, st) {
			break
		}
	}
	if f, ok := s.(finisher); ok && st.err == nil {
		f.finish(ctx, st)
	}
	if st.err != nil {
		return fmt.Errorf("%s: %w", s.Name(), st.err)
	}
	for _, v := range st.t {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: %w: transport has a non-finite entry", s.Name(), ErrNumerical)
		}
	}
	return nil
}

// stopper is implemented by solvers that may stop before Depth layers (CG, once converged);
// done may begin another start, checking ctx as a layer does.
type stopper interface {
	done(ctx context.Context, st *State) bool
}

// finisher is implemented by solvers with work after their last layer (the converged mode and
// rounding of PPA and BADMM), which checks ctx as a layer does.
type finisher interface {
	finish(ctx context.Context, st *State)
}

// GWD validates the two spaces, solves, and returns the transport (rows = src nodes) and the
// objective <L(T),T>. It allocates; hot loops should call Solve with a reused State.
// Discrepancy returns the same with the transport's feasibility. Like Discrepancy it runs to
// the end: work that must stop on cancellation calls Solve with its context.
func GWD(s Solver, src, dst Space) (*mat.Dense, float64, error) {
	r, err := Discrepancy(s, src, dst)
	return r.Transport, r.Objective, err
}

// Result is a solved GWD problem.
type Result struct {
	Transport *mat.Dense // rows = source nodes
	Objective float64    // <L(T),T>
	// MarginalError is the largest absolute deviation of a row sum of T from μs or of a column
	// sum from μt: how far T is from a feasible transport (see State.MarginalError).
	MarginalError float64
	// Layers is the number of layers (CG: iterations) run; SweepCapHits the number of layers
	// whose converged-mode sweeps stopped at the cap rather than at the tolerance.
	Layers, SweepCapHits int
}

// Discrepancy validates the two spaces, solves, and returns the result. It allocates; hot
// loops should call Solve with a reused State. It is for one pair ('gwf gw', examples, tests)
// and runs to the end (context.Background()): work that must stop on cancellation calls Solve
// with its context.
func Discrepancy(s Solver, src, dst Space) (Result, error) {
	if err := src.Validate("source"); err != nil {
		return Result{}, err
	}
	if err := dst.Validate("target"); err != nil {
		return Result{}, err
	}
	var st State
	if err := Solve(context.Background(), s, &st, src, dst); err != nil {
		return Result{}, err
	}
	return Result{Transport: st.Transport(), Objective: st.Objective(), MarginalError: st.MarginalError(),
		Layers: st.Layer, SweepCapHits: st.SweepCapHits}, nil
}

// tiny is the smallest marginal sum the plain (exp-domain) updates accept; below it the layer
// is redone in the log domain, where nothing underflows.
const tiny = 1e-200

// logSumExp returns log Σ exp(x_i) over the values produced by at(i), i < n, ignoring −∞.
func logSumExp(n int, at func(int) float64) float64 {
	mx := math.Inf(-1)
	for i := 0; i < n; i++ {
		if v := at(i); v > mx {
			mx = v
		}
	}
	if math.IsInf(mx, -1) {
		return mx
	}
	s := 0.0
	for i := 0; i < n; i++ {
		s += math.Exp(at(i) - mx)
	}
	return mx + math.Log(s)
}

// rescale multiplies v so that it sums to total and returns the factor.
func rescale(v []float64, total float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	f := total / s
	for i := range v {
		v[i] = flushSubnormal(v[i] * f)
	}
	return f
}

// flushSubnormal maps subnormal numbers to 0. Transports and barycenters are flushed when they
// are written (simd.ExpScaled and simd.MulScaled flush theirs): x86 multiplies subnormals two
// orders of magnitude more slowly, so a few of them slow every product over their transport
// (docs/speed.md, "Subnormal numbers flushed to zero"); they carry no weight in a row that sums
// to 1/N.
func flushSubnormal(x float64) float64 {
	if math.Abs(x) < 0x1p-1022 {
		return 0
	}
	return x
}
