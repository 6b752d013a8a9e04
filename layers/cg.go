package layers

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
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
	// OrderStart runs CG a second time, from the coupling that matches the nodes of the two
	// graphs in the order of their structure's row sums (degrees of an adjacency, total
	// distances of shortest paths; north-west corner of the sorted masses), and keeps the
	// lower objective. The product coupling μs·μtᵀ is a stationary point on symmetric graphs
	// (regular graphs, ego networks), where CG stays; from the ordered start it can leave.
	// MUTAG, 60 graphs: the ordered start is lower on 47% of the pairs (adjacency), by 6% on
	// average. Up to twice the iterations. Not the classifier's default (fgwsvm): MUTAG's
	// nested accuracy moved from 85.1 to 84.9 % (3 fold seeds) at 1.6× the time.
	OrderStart bool
}

// DefaultCG returns POT's defaults: 10000 iterations, tolerances 1e-9, feature weight 1.
func DefaultCG() CG { return CG{MaxIter: 10000, Weight: 1, TolRel: 1e-9, TolAbs: 1e-9} }

// Name implements Solver.
func (c CG) Name() string { return "cg" }

// Depth implements Solver: the iteration limit (of both starts with OrderStart).
func (c CG) Depth() int {
	if c.OrderStart {
		return 2 * c.MaxIter
	}
	return c.MaxIter
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
	// The dense products only: CG's exact OT steps land on vertices of Π(μ,ν), and a rounding
	// difference in the gradient can tip a tie between two of them; a CG result should not
	// depend on how the barycenter is stored.
	st.cs.lr, st.ct.lr = nil, nil
	st.cgX = grow(st.cgX, st.ns*st.nt)
	st.cgSym = symmetric(st.cs.g) && symmetric(st.ct.g)
	st.emd.Warm = false // a new problem: its marginals may differ from the last basis's
	st.cgObj = st.Objective()
	st.cgPrev = math.NaN()
	st.cgStart, st.cgSteps = 0, 0
	return nil
}

// Step implements Solver: one Frank-Wolfe iteration.
func (c CG) Step(st *State) {
	if st.cgSym {
		c.symmetricGradient(st)
	} else {
		c.gradient(st)
	}
	if _, err := st.emd.Solve(st.cgX, st.cost, st.mus, st.mut); err != nil {
		st.err = fmt.Errorf("linearised problem at iteration %d: %w", st.Layer+1, err)
		return
	}
	st.emd.Warm = true
	// Along Δ = X − T: f(T + τΔ) = f(T) + τ·<G,Δ> − 2τ²·<Cs·Δ·Ctᵀ, Δ> (the Cst term is
	// constant on Π).
	var a, b float64
	if st.cgSym {
		a, b = c.symmetricLine(st)
	} else {
		a, b = c.line(st)
	}
	tau := lineSearch(a, b)
	for k, x := range st.cgX {
		st.t[k] += tau * (x - st.t[k])
	}
	st.cgPrev = st.cgObj
	st.cgObj += tau*b + tau*tau*a
	st.Layer++
	st.cgSteps++
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
// symmetric Cs and Ct (then Csᵀ·T·Ct = A): one product pair per iteration instead of two.
func (c CG) symmetricGradient(st *State) {
	st.costOf(st.t) // Cst + D − 2·A
	nt := st.nt
	for i := 0; i < st.ns; i++ {
		row, arow := st.cost[i*nt:(i+1)*nt], st.phi[i*nt:(i+1)*nt]
		for j, v := range row {
			base := st.fs[i] + st.ft[j]
			if st.d != nil {
				base += st.d[i*nt+j]
			}
			arow[j] = (base - v) / 2
			row[j] = v - 2*arow[j]
		}
	}
}

// line returns the coefficients a (of τ²) and b (of τ) of f along Δ = X − T.
func (c CG) line(st *State) (a, b float64) {
	delta := st.logT // scratch: CG keeps no logarithms
	for k, x := range st.cgX {
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
// non-zeros (the OT basis), so <A(X),X> is a double sum over them, and A(T) is in st.phi.
func (c CG) symmetricLine(st *State) (a, b float64) {
	nt := st.nt
	rows, cols, flows := st.emd.Basis()
	cs, ct := st.cs.g, st.ct.g
	axx, atx := 0.0, 0.0
	for p, f := range flows {
		if f == 0 {
			continue
		}
		i, j := int(rows[p]), int(cols[p])
		atx += f * st.phi[i*nt+j]
		b += f * st.cost[i*nt+j]
		csRow, ctRow := cs.Data[i*cs.Stride:], ct.Data[j*ct.Stride:]
		s := 0.0
		for q, g := range flows {
			if g != 0 {
				s += g * csRow[rows[q]] * ctRow[cols[q]]
			}
		}
		axx += f * s
	}
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

// done implements stopper: POT's stopping rule on the objective's change, or MaxIter
// iterations of the start; with OrderStart, the first start's end begins the second.
func (c CG) done(st *State) bool {
	if st.err != nil {
		return true
	}
	change := math.Abs(st.cgObj - st.cgPrev)
	stop := change <= c.TolAbs || change <= c.TolRel*math.Abs(st.cgObj) || st.cgSteps >= c.MaxIter
	if !stop || !c.OrderStart || st.cgStart == 1 {
		return stop
	}
	st.cgBest = grow(st.cgBest, len(st.t))
	copy(st.cgBest, st.t)
	st.cgBestObj = st.cgObj
	st.cgStart, st.cgSteps = 1, 0
	orderedCoupling(st)
	st.cgObj = st.Objective()
	st.cgPrev = math.NaN()
	return false
}

// finish implements finisher: with OrderStart, the plan of the lower objective.
func (c CG) finish(st *State) {
	if c.OrderStart && st.cgStart == 1 && st.cgBestObj < st.cgObj {
		copy(st.t, st.cgBest)
		st.cgObj = st.cgBestObj
	}
}

// orderedCoupling writes into st.t the north-west-corner coupling of μs and μt with the nodes
// of each side sorted by their structure row sums, ties kept in node order.
func orderedCoupling(st *State) {
	ns, nt := st.ns, st.nt
	st.cgKeyS, st.cgIdxS = rowSumOrder(st.cgKeyS, st.cgIdxS, st.cs.g, ns)
	st.cgKeyT, st.cgIdxT = rowSumOrder(st.cgKeyT, st.cgIdxT, st.ct.g, nt)
	clear(st.t)
	a, b := 0, 0
	ra, rb := st.mus[st.cgIdxS[0]], st.mut[st.cgIdxT[0]]
	for a < ns && b < nt {
		m := math.Min(ra, rb)
		st.t[st.cgIdxS[a]*nt+st.cgIdxT[b]] += m
		ra -= m
		rb -= m
		// The side with less left (0 up to rounding) moves on, both at a tie.
		moveA, moveB := ra <= rb, rb <= ra
		if moveA {
			if a++; a < ns {
				ra = st.mus[st.cgIdxS[a]]
			}
		}
		if moveB {
			if b++; b < nt {
				rb = st.mut[st.cgIdxT[b]]
			}
		}
	}
}

// rowSumOrder returns the row sums of c's n rows (in key) and the rows sorted by them.
func rowSumOrder(key []float64, idx []int, c blas64.General, n int) ([]float64, []int) {
	key = grow(key, n)
	if cap(idx) < n {
		idx = make([]int, n)
	}
	idx = idx[:n]
	for i := range n {
		s := 0.0
		for _, v := range c.Data[i*c.Stride : i*c.Stride+c.Cols] {
			s += v
		}
		key[i], idx[i] = s, i
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(key[x], key[y]) })
	return key, idx
}
