package layers

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/emd"
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
// from T⁽⁰⁾ = μs·μtᵀ (or CG.Start, POT's G0), and stops when the objective changes by at most TolAbs or TolRel
// relative to it (POT's rule and defaults), or after MaxIter iterations. Every iterate is a
// transport of Π(μs, μt) up to rounding. f is not convex, so CG finds a stationary point,
// which depends on the start as POT's does; CG.OrderStart and CG.Anchors add starts and keep
// the lowest objective (cg_starts.go).
type CG struct {
	MaxIter        int     // at most this many iterations; POT's default is 10000
	Weight         float64 // weight w of the feature cost D (FGW)
	TolRel, TolAbs float64 // stopping thresholds on the objective's change; POT's are 1e-9
	// OrderStart runs CG a second time, from the coupling that matches the nodes of the two
	// graphs in the order of their structure's row sums (degrees of an adjacency, total
	// distances of shortest paths; north-west corner of the sorted masses), and keeps the
	// lower objective. The product coupling μs·μtᵀ is a stationary point on symmetric graphs
	// (regular graphs, ego networks), where CG stays; from the ordered start it can leave.
	// It costs up to twice the iterations (measurements: docs/results/classification.md).
	OrderStart bool
	// Anchors runs CG from this many more starts, each a seeded matching of the nodes
	// (anchoredCoupling): one node of the source is matched to the Anchors target nodes most
	// like it in turn, and the rest greedily, each to the free node that adds the least to the
	// objective. On graphs with symmetries (cycles, grids, complete bipartite graphs, the
	// Petersen graph) the product coupling is a stationary point far from the optimum, and
	// every start from a matching of the right orbit reaches the isomorphism (objective 0).
	// The lowest objective of all starts is kept.
	Anchors int
	// Start, when non-nil, replaces the product coupling as the first start (POT's G0). It
	// must be an ns×nt coupling of μs and μt: non-negative, with row and column sums equal to
	// the masses up to 1e-9 (relative to the total mass).
	Start *mat.Dense
}

// cgWork is CG's state from one iteration to the next in a State, and from one start to the
// next (cg_starts.go).
type cgWork struct {
	// prev and obj are the objective before and after the last iteration.
	prev, obj float64
	// x is the optimal plan of the linearised problem (ns×nt), which TargetPotentials reads.
	x []float64
	// solving marks a State whose last solve is CG's (set by Init, cleared by every solver's
	// reset), so that TargetPotentials refuses a State another solver filled since.
	solving bool
	// sym: both structure matrices are symmetric, so that the gradient and the line search
	// take the cheaper forms that symScratch serves.
	sym        bool
	symScratch cgSymScratch
	// emd is the exact OT solver's workspace; its basis warm-starts the next iteration.
	emd emd.Workspace
	// start is the start being run (0: the first) and steps its iterations; laterMax is the
	// iteration limit of the later starts, best the plan of the lowest objective bestObj of
	// the starts ended.
	start, steps, laterMax int
	best                   []float64
	bestObj                float64
	// couplings is the scratch that makes the ordered and anchored starts.
	couplings couplingScratch
}

// DefaultCG returns POT's defaults (10000 iterations, tolerances 1e-9, feature weight 1, the
// product coupling as the start) and DefaultAnchors anchored starts.
func DefaultCG() CG {
	return CG{MaxIter: 10000, Weight: 1, TolRel: 1e-9, TolAbs: 1e-9, Anchors: DefaultAnchors}
}

// cgOf is the CG that the plain options o ask for (see SolverOptions): DefaultCG with the
// iteration limit, the feature weight, the starts and, when Tol > 0, the relative tolerance of
// o. It refuses the start jitter of PPA and BADMM and ignores their other settings (Gamma,
// Inner, MaxSweeps, Round: every CG iterate is a transport).
func cgOf(o SolverOptions) (CG, error) {
	if o.Jitter != 0 {
		return CG{}, fmt.Errorf("cg: %w: jitter = %v: the start jitter is a setting of ppa and badmm (cg has anchored starts)", ErrInput, o.Jitter)
	}
	c := DefaultCG()
	c.MaxIter, c.Weight, c.OrderStart, c.Anchors = o.Layers, o.FeatureWeight, o.OrderStart, o.Anchors
	if o.Tol > 0 {
		c.TolRel = o.Tol
	}
	return c, nil
}

// options are c's settings as plain values, which cgOf reads back to c where c has the
// absolute tolerance of DefaultCG, a positive relative one and no Start (the plain options
// hold no other).
func (c CG) options() SolverOptions {
	o := SolverOptions{Name: SolverCG, Layers: c.MaxIter, FeatureWeight: c.Weight, OrderStart: c.OrderStart, Anchors: c.Anchors}
	if c.TolRel != DefaultCG().TolRel {
		o.Tol = c.TolRel
	}
	return o
}

// DefaultAnchors is the number of anchored starts of DefaultCG.
const DefaultAnchors = 2

// MaxAnchors bounds CG.Anchors: each start may cost as much as the whole first one.
const MaxAnchors = 64

// Name implements Solver.
func (c CG) Name() string { return string(SolverCG) }

// Depth implements Solver: the iteration limit of all starts together.
func (c CG) Depth() int { return c.starts() * c.MaxIter }

// starts is the number of starts: the first (product or Start), the ordered one, the anchored.
func (c CG) starts() int {
	n := 1 + c.Anchors
	if c.OrderStart {
		n++
	}
	return n
}

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
	case c.Anchors < 0 || c.Anchors > MaxAnchors:
		return fmt.Errorf("cg: %w: anchored starts = %d must be in [0, %d]", ErrInput, c.Anchors, MaxAnchors)
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
	st.reset(src, dst, c.Weight, 0)
	if c.Start != nil {
		if err := checkStart(c.Start, src.Mu, dst.Mu); err != nil {
			return err
		}
		copy(st.t, c.Start.RawMatrix().Data) // checkStart: contiguous ns×nt
	}
	// The dense products only: CG's exact OT steps land on vertices of Π(μ,ν), and a rounding
	// difference in the gradient can tip a tie between two of them; a CG result should not
	// depend on how the barycenter is stored.
	st.cs.lr, st.ct.lr = nil, nil
	w := &st.cg
	w.x = grow(w.x, st.ns*st.nt)
	w.sym = symmetric(st.cs.g) && symmetric(st.ct.g)
	if w.sym {
		w.symScratch.setBase(st)
	}
	w.emd.Warm = false // a new problem: its marginals may differ from the last basis's
	w.obj = st.Objective()
	w.prev = math.NaN()
	w.start, w.steps = 0, 0
	w.solving = true
	return nil
}

// Step implements Solver: one Frank-Wolfe iteration. The network simplex checks ctx.
func (c CG) Step(ctx context.Context, st *State) {
	w := &st.cg
	if w.sym {
		c.symmetricGradient(st)
	} else {
		c.gradient(st)
	}
	if _, err := w.emd.Solve(ctx, w.x, st.cost, st.mus, st.mut); err != nil {
		st.err = fmt.Errorf("linearised problem at iteration %d: %w", st.Layer+1, err)
		return
	}
	w.emd.Warm = true
	// Along Δ = X − T: f(T + τΔ) = f(T) + τ·<G,Δ> − 2τ²·<Cs·Δ·Ctᵀ, Δ> (the Cst term is
	// constant on Π).
	var a, b float64
	if w.sym {
		a, b = c.symmetricLine(st)
	} else {
		a, b = c.line(st)
	}
	tau := lineSearch(a, b)
	for k, x := range w.x {
		st.t[k] += tau * (x - st.t[k])
	}
	w.prev = w.obj
	w.obj += tau*b + tau*tau*a
	st.Layer++
	w.steps++
}

// gradient writes G = L(T) − 2·Csᵀ·T·Ct into st.cost.
func (c CG) gradient(st *State) {
	st.costOf(st.t)
	st.cs.mul(st.p, st.t, st.nt, true)
	st.ct.mulRight(st.phi, st.p, st.ns, false)
	for k, v := range st.phi {
		st.cost[k] -= 2 * v
	}
}

// symmetricGradient writes G = Cst + D − 4·A into st.cost and A = Cs·T·Ctᵀ into st.phi, for
// symmetric Cs and Ct (then Csᵀ·T·Ct = A): one product pair per iteration instead of two. The
// constant part Cst + D is st.cg.symScratch.base, made once per problem by Init.
func (c CG) symmetricGradient(st *State) {
	st.cs.mul(st.p, st.t, st.nt, false)
	st.ct.mulRight(st.phi, st.p, st.ns, true)
	floats.AddScaledTo(st.cost, st.cg.symScratch.base, -4, st.phi)
}

// line returns the coefficients a (of τ²) and b (of τ) of f along Δ = X − T.
func (c CG) line(st *State) (a, b float64) {
	delta := st.logT // scratch: CG keeps no logarithms
	for k, x := range st.cg.x {
		delta[k] = x - st.t[k]
		b += st.cost[k] * delta[k]
	}
	st.cs.mul(st.p, delta, st.nt, false)
	st.ct.mulRight(st.phi, st.p, st.ns, true)
	for k, v := range st.phi {
		a -= 2 * v * delta[k]
	}
	return a, b
}

// symmetricLine is line without products: with A(·) = Cs·(·)·Ctᵀ symmetric in its two
// arguments, <A(Δ),Δ> = <A(X),X> − 2·<A(T),X> + <A(T),T>, where X has at most ns+nt−1
// non-zeros (the OT basis), so <A(X),X> is a double sum over them, half of it by the symmetry
// of Cs and Ct, and A(T) is in st.phi.
func (c CG) symmetricLine(st *State) (a, b float64) {
	nt := st.nt
	rows, cols, flows := st.cg.emd.Basis()
	nz := st.cg.symScratch.nonZeros(rows, cols, flows)
	cs, ct := st.cs.g, st.ct.g
	atx := 0.0
	for p, f := range nz.flows {
		k := int(nz.rows[p])*nt + int(nz.cols[p])
		atx += f * st.phi[k]
		b += f * st.cost[k]
	}
	axx := 0.0 // Σ_p Σ_q f_p·f_q·Cs[i_p,i_q]·Ct[j_p,j_q], the terms q < p counted twice
	for p, f := range nz.flows {
		csRow, ctRow := cs.Data[int(nz.rows[p])*cs.Stride:], ct.Data[int(nz.cols[p])*ct.Stride:]
		s := 0.5 * f * csRow[nz.rows[p]] * ctRow[nz.cols[p]]
		for q, g := range nz.flows[:p] {
			s += g * csRow[nz.rows[q]] * ctRow[nz.cols[q]]
		}
		axx += f * s
	}
	axx *= 2
	att := 0.0
	for k, t := range st.t {
		att += st.phi[k] * t
		b -= st.cost[k] * t
	}
	return -2 * (axx - 2*atx + att), b
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
