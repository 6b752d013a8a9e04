package layers

import (
	"fmt"
	"math"
)

// CG is the conditional gradient (Frank-Wolfe) solver of the (fused) GW problem
// min_{T∈Π(μs,μt)} f(T) = <Cst − 2·Cs·T·Ctᵀ + w·D, T>, as in Vayer et al., "Optimal Transport
// for structured data with application on graphs" (ICML 2019) and POT's gromov_wasserstein /
// fused_gromov_wasserstein. Each iteration (one Step, a "layer" for the Solver interface)
//
//	G = ∇f(T) = Cst + w·D − 2·(Cs·T·Ctᵀ + Csᵀ·T·Ct)
//	X = argmin_{X∈Π(μs,μt)} <G, X>          (exact OT: network simplex, layers/emd)
//	τ = argmin_{τ∈[0,1]} f(T + τ·(X − T))   (exact: f is quadratic along the segment)
//	T = T + τ·(X − T)
//
// from T⁽⁰⁾ = μs·μtᵀ, and stops when the objective changes by at most TolAbs or TolRel
// relative to it (POT's rule and defaults), or after MaxIter iterations. Every iterate is a
// transport of Π(μs, μt) up to rounding. f is not convex, so CG finds a stationary point,
// which depends on the start as POT's does.
type CG struct {
	MaxIter        int     // at most this many iterations; POT's default is 10000
	Weight         float64 // weight w of the feature cost D (FGW)
	TolRel, TolAbs float64 // stopping thresholds on the objective's change; POT's are 1e-9
}

// DefaultCG returns POT's defaults: 10000 iterations, tolerances 1e-9, feature weight 1.
func DefaultCG() CG { return CG{MaxIter: 10000, Weight: 1, TolRel: 1e-9, TolAbs: 1e-9} }

// Name implements Solver.
func (c CG) Name() string { return "cg" }

// Depth implements Solver: the iteration limit.
func (c CG) Depth() int { return c.MaxIter }

// FeatureWeight implements Solver.
func (c CG) FeatureWeight() float64 { return c.Weight }

// Check validates the settings.
func (c CG) Check() error {
	switch {
	case c.MaxIter < 1 || c.MaxIter > MaxLayers:
		return fmt.Errorf("cg: %w: iterations = %d must be in [1, %d]", ErrInput, c.MaxIter, MaxLayers)
	case !(c.Weight >= 0) || math.IsInf(c.Weight, 0):
		return fmt.Errorf("cg: %w: feature weight = %v must be finite and non-negative", ErrInput, c.Weight)
	case !(c.TolRel >= 0 && c.TolRel < 1) || !(c.TolAbs >= 0 && c.TolAbs < 1):
		return fmt.Errorf("cg: %w: tolerances %v (relative) and %v (absolute) must be in [0, 1)", ErrInput, c.TolRel, c.TolAbs)
	}
	return nil
}

// Init implements Solver.
func (c CG) Init(st *State, src, dst Space) error {
	if err := c.Check(); err != nil {
		return err
	}
	if err := checkPair(src, dst); err != nil {
		return err
	}
	st.reset(src, dst, c.Weight)
	st.cgX = grow(st.cgX, st.ns*st.nt)
	st.emd.Warm = false // a new problem: its marginals may differ from the last basis's
	st.cgObj = st.Objective()
	st.cgPrev = math.NaN()
	return nil
}

// Step implements Solver: one Frank-Wolfe iteration.
func (c CG) Step(st *State) {
	ns, nt := st.ns, st.nt
	// G = L(T) − 2·Csᵀ·T·Ct, into st.cost.
	st.costOf(st.t)
	st.cs.mul(st.p, st.t, nt, true)
	st.ct.mulRight(st.phi, st.p, ns, false)
	for k, v := range st.phi {
		st.cost[k] -= 2 * v
	}
	if _, err := st.emd.Solve(st.cgX, st.cost, st.mus, st.mut); err != nil {
		st.err = fmt.Errorf("linearised problem at iteration %d: %w", st.Layer+1, err)
		return
	}
	st.emd.Warm = true
	// Along Δ = X − T: f(T + τΔ) = f(T) + τ·<G,Δ> − 2τ²·<Cs·Δ·Ctᵀ, Δ> (the Cst term is
	// constant on Π).
	delta := st.logT // scratch: CG keeps no logarithms
	b := 0.0
	for k, x := range st.cgX {
		delta[k] = x - st.t[k]
		b += st.cost[k] * delta[k]
	}
	st.cs.mul(st.p, delta, nt, false)
	st.ct.mulRight(st.phi, st.p, ns, true)
	a := 0.0
	for k, v := range st.phi {
		a -= 2 * v * delta[k]
	}
	tau := lineSearch(a, b)
	for k, d := range delta {
		st.t[k] += tau * d
	}
	st.cgPrev = st.cgObj
	st.cgObj += tau*b + tau*tau*a
	st.Layer++
}

// lineSearch minimises a·τ² + b·τ over [0, 1].
func lineSearch(a, b float64) float64 {
	if a > 0 {
		return math.Min(1, math.Max(0, -b/(2*a)))
	}
	if a+b < 0 {
		return 1
	}
	return 0
}

// done implements stopper: POT's stopping rule on the objective's change.
func (c CG) done(st *State) bool {
	if st.err != nil {
		return true
	}
	change := math.Abs(st.cgObj - st.cgPrev)
	return change <= c.TolAbs || change <= c.TolRel*math.Abs(st.cgObj)
}
