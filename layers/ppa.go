package layers

import (
	"context"
	"fmt"
	"math"

	"github.com/gwf-graphs/gwf/internal/simd"
)

// PPA is the proximal point GWD module (Algorithm 1): each layer solves
// min_T <L(T⁽ᵐ⁾),T> + γ·KL(T‖T⁽ᵐ⁾) approximately with Inner Sinkhorn sweeps:
//
//	Φ = exp(−L(T⁽ᵐ⁾)/γ) ⊙ T⁽ᵐ⁾;  Inner × { b = μt ⊘ Φᵀa;  a = μs ⊘ Φb };  T⁽ᵐ⁺¹⁾ = diag(a)·Φ·diag(b)
//
// with L from eq. (5) (not line 1 of the algorithm as printed, which swaps μ and 1), T⁽⁰⁾ = μs·μtᵀ
// and a = μs carried from layer to layer. Rows of T match μs exactly after every layer; columns
// converge to μt.
//
// T⁽⁰⁾ = μs·μtᵀ is a fixed point where the graphs have symmetries: every update keeps T
// invariant under the automorphisms, so a 6-cycle against itself ends at objective 4/9, not 0
// (TestPPAStaysAtSymmetricStart). Jitter breaks the tie (an 8-cycle or a 4-node path against
// itself then reaches 0, a 6-cycle a lower stationary point, 2/9; TestJitterLeavesSymmetricStart);
// CG's anchored starts do where a single discrepancy matters ('gwf gw' uses CG by default).
//
// Numerics: the kernel is shifted per row (the shift is absorbed into a, kept in the log domain),
// so exp never overflows; when a marginal sum would still underflow (tiny γ, large weights), that
// layer is recomputed in the log domain. Where nothing underflows the result equals the plain
// update up to rounding.
type PPA struct {
	Gamma  float64 // proximal weight γ; the paper uses 0.01
	Layers int     // M; the paper uses 50
	// Inner is the number of Sinkhorn sweeps per layer: 1 is Algorithm 1 as printed.
	Inner int
	// Weight of the feature cost D (FGW); 1 in the paper.
	Weight float64
	// Tol > 0 is the converged mode: each layer runs Sinkhorn sweeps (ignoring Inner) until
	// the transport's marginal error is at most Tol, or MaxSweeps sweeps (0:
	// DefaultMaxSweeps); State.SweepCapHits counts the layers that stopped at the cap. Tol = 0
	// is Algorithm 1 with Inner sweeps, the paper's setting.
	Tol       float64
	MaxSweeps int
	// Round projects the final transport onto Π(μs, μt) (State.Round), so that it is feasible
	// to rounding whatever the tolerance.
	Round bool
	// Jitter > 0 starts from T⁽⁰⁾ = μs·μtᵀ ⊙ (1 + Jitter·u), u a fixed pattern in [−1, 1) of
	// the node indices, instead of the paper's μs·μtᵀ, which the updates keep where the graphs
	// have symmetries (see above); at most MaxJitter. 0 is the paper's start.
	Jitter float64

	forceLog bool // tests: take the log-domain path in every layer
}

// ppaWork is PPA's state from one layer to the next in a State.
type ppaWork struct {
	// logA is the scaling vector a (ns), kept as a logarithm because it grows like exp(L/γ).
	logA []float64
}

// DefaultPPA returns the paper's experimental settings — γ = 0.01, M = 50, feature weight 1 —
// with 5 Sinkhorn sweeps per layer, as the authors' code does: more sweeps bring the
// transports closer to their marginals for little extra time (a sweep is O(N²), a layer's
// products O(N³)); docs/design.md has the measurement (TestInnerSweepsStudy).
func DefaultPPA() PPA { return PPA{Gamma: 0.01, Layers: 50, Inner: 5, Weight: 1} }

// ppaOf is the PPA that the plain options o ask for (see SolverOptions); it refuses CG's starts.
func ppaOf(o SolverOptions) (PPA, error) {
	if err := noCGStarts(o); err != nil {
		return PPA{}, err
	}
	return PPA{Gamma: o.Gamma, Layers: o.Layers, Inner: o.Inner, Weight: o.FeatureWeight,
		Tol: o.Tol, MaxSweeps: o.MaxSweeps, Round: o.Round, Jitter: o.Jitter}, nil
}

// options are p's settings as plain values, which ppaOf reads back to p.
func (p PPA) options() SolverOptions {
	return SolverOptions{Name: SolverPPA, Gamma: p.Gamma, Layers: p.Layers, Inner: p.Inner, FeatureWeight: p.Weight,
		Tol: p.Tol, MaxSweeps: p.MaxSweeps, Round: p.Round, Jitter: p.Jitter}
}

// Name implements Solver.
func (p PPA) Name() string { return string(SolverPPA) }

// Depth implements Solver.
func (p PPA) Depth() int { return p.Layers }

// FeatureWeight implements Solver.
func (p PPA) FeatureWeight() float64 { return p.Weight }

// Check validates the hyperparameters.
func (p PPA) Check() error {
	if err := checkCommon(p.Name(), p.Gamma, p.Layers, p.Weight); err != nil {
		return err
	}
	if p.Inner < 1 || p.Inner > MaxInner {
		return errorf("ppa: inner sweeps = %d must be in [1, %d]", p.Inner, MaxInner)
	}
	if err := checkJitter(p.Name(), p.Jitter); err != nil {
		return err
	}
	return checkConverged(p.Name(), p.Tol, p.MaxSweeps)
}

// sweepCap is the most sweeps a converged-mode layer runs.
func (p PPA) sweepCap() int {
	if p.MaxSweeps > 0 {
		return p.MaxSweeps
	}
	return DefaultMaxSweeps
}

// finish implements finisher: the optional rounding.
func (p PPA) finish(_ context.Context, st *State) {
	if p.Round {
		st.Round()
	}
}

// Init implements Solver.
func (p PPA) Init(st *State, src, dst Space) error {
	if err := p.Check(); err != nil {
		return err
	}
	if err := checkPair(src, dst); err != nil {
		return err
	}
	st.reset(src, dst, p.Weight, p.Jitter)
	st.ppa.logA = grow(st.ppa.logA, st.ns)
	for i, m := range st.mus {
		st.ppa.logA[i] = math.Log(m)
	}
	return nil
}

// Step implements Solver: one PPA layer. The converged mode's sweeps check ctx.
func (p PPA) Step(ctx context.Context, st *State) {
	ns, nt := st.ns, st.nt
	// Row shifts s_i = min_j L_ij (left by costOf) keep every exponent ≤ 0.
	st.costOf(st.t)
	invG := 1 / p.Gamma
	shift := st.rowShift
	// a in the shifted frame: α_i = a_i·exp(−s_i/γ), normalised (a's scale is irrelevant).
	alpha := st.rowv
	mx := math.Inf(-1)
	for i := range alpha {
		alpha[i] = st.ppa.logA[i] - shift[i]*invG
		if alpha[i] > mx {
			mx = alpha[i]
		}
	}
	for i := range alpha {
		alpha[i] = math.Exp(alpha[i] - mx)
	}
	for i := 0; i < ns; i++ { // Φ = exp(−(L − s)/γ) ⊙ T
		simd.ExpScaled(st.phi[i*nt:(i+1)*nt], st.cost[i*nt:(i+1)*nt], st.t[i*nt:(i+1)*nt], shift[i], invG)
	}
	var ok bool
	if p.Tol > 0 {
		var n int
		var err error
		ok, n, err = sinkhornTol(ctx, st.phi, alpha, st.colv, st.colw, st.mus, st.mut, p.sweepCap(), p.Tol, false)
		if err != nil {
			st.err = fmt.Errorf("layer %d: %w", st.Layer+1, err)
			return
		}
		if ok {
			st.countSweeps(n, p.sweepCap())
		}
	} else {
		ok = sinkhorn(st.phi, alpha, st.colv, st.mus, st.mut, p.Inner)
	}
	if p.forceLog || !ok {
		p.logStep(ctx, st)
		return
	}
	b := st.colv
	for i := 0; i < ns; i++ {
		ai := alpha[i]
		// Φ_ij·b_j first: those are the terms of the row sum, so nothing significant underflows.
		simd.MulScaled(st.t[i*nt:(i+1)*nt], ai, st.phi[i*nt:(i+1)*nt], b)
		st.ppa.logA[i] = math.Log(ai) + shift[i]*invG
		st.logRow[i] = false
	}
	st.Layer++
}

// sinkhorn runs Sinkhorn sweeps b = μt ⊘ Kᵀa, a = μs ⊘ K·b on the ns×nt kernel k, starting
// from the given a. It reports false when a marginal sum is too small (or too large) to trust.
// The two passes over K are a vector–matrix and a matrix–vector product: most of a layer's
// time for small graphs.
func sinkhorn(k, a, b, mus, mut []float64, sweeps int) bool {
	ns, nt := len(a), len(b)
	for s := 0; s < sweeps; s++ {
		clear(b)
		simd.MulAdd(1, nt, ns, 1, a, ns, k, nt, b, nt)
		for j, c := range b {
			if !(c >= tiny) || c > math.MaxFloat64 {
				return false
			}
			b[j] = mut[j] / c
		}
		simd.MulVec(ns, nt, k, nt, b, a)
		for i, r := range a {
			if !(r >= tiny) || r > math.MaxFloat64 {
				return false
			}
			a[i] = mus[i] / r
		}
	}
	return true
}

// sinkhornTol runs Sinkhorn sweeps like sinkhorn until the marginal error of diag(a)·K·diag(b)
// is at most tol (rows are exact after each sweep, so it is the columns' error, read off the
// next sweep's Kᵀa at no extra cost) or sweeps sweeps have run; c is scratch of len(b).
// valid says whether the b given on entry belongs to a (then the first sweep can stop at once).
// It returns whether every sum stayed representable and the number of sweeps run (sweeps+1
// when the cap was hit), or ctx's error once ctx is done.
func sinkhornTol(ctx context.Context, k, a, b, c, mus, mut []float64, sweeps int, tol float64, valid bool) (bool, int, error) {
	ns, nt := len(a), len(b)
	for s := 0; s < sweeps; s++ {
		if err := sweepStop(ctx, s); err != nil {
			return false, s, err
		}
		clear(c)
		simd.MulAdd(1, nt, ns, 1, a, ns, k, nt, c, nt)
		if s > 0 || valid {
			worst := 0.0
			for j, v := range c {
				// Not math.Max: it is not inlined, and this loop runs every sweep. A NaN still
				// propagates (and is caught below).
				if d := math.Abs(b[j]*v - mut[j]); !(d <= worst) {
					worst = d
				}
			}
			if worst <= tol {
				return true, s, nil
			}
		}
		for j, v := range c {
			if !(v >= tiny) || v > math.MaxFloat64 {
				return false, s, nil
			}
			b[j] = mut[j] / v
		}
		simd.MulVec(ns, nt, k, nt, b, a)
		for i, r := range a {
			if !(r >= tiny) || r > math.MaxFloat64 {
				return false, s, nil
			}
			a[i] = mus[i] / r
		}
	}
	return true, sweeps + 1, nil
}

// ctxSweeps is how many sweeps of the converged mode run between two checks of the context:
// up to DefaultMaxSweeps sweeps of a 1,500-node pair take a minute per layer.
const ctxSweeps = 16

// sweepStop returns ctx's error (wrapped) at every ctxSweeps-th sweep s once ctx is done.
func sweepStop(ctx context.Context, s int) error {
	if s%ctxSweeps != ctxSweeps-1 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("stopped after %d sweeps: %w", s, err)
	}
	return nil
}

// countSweeps records n sweeps of a converged-mode layer (n > cap: it hit the cap).
func (st *State) countSweeps(n, cap int) {
	if n > cap {
		st.SweepCapHits++
		n = cap
	}
	st.Sweeps += n
}

// logColumns sets logB_j = log μt_j − log Σ_i exp(logα_i + g_ij), reading g by rows; mx and
// tmp are scratch of len(logB).
func logColumns(logB, logAlpha, g, mut, mx, tmp []float64) {
	nt := len(logB)
	for j := range mx {
		mx[j] = math.Inf(-1)
	}
	for i, la := range logAlpha {
		simd.MaxInto(mx, la, g[i*nt:(i+1)*nt])
	}
	for j := range mx {
		mx[j] = -mx[j]
	}
	clear(logB)
	for i, la := range logAlpha {
		simd.ExpAdd(tmp, la, g[i*nt:(i+1)*nt], mx) // exp(logα_i + g_ij − max_j)
		for j, e := range tmp {
			logB[j] += e
		}
	}
	for j, s := range logB {
		logB[j] = math.Log(mut[j]) - (math.Log(s) - mx[j])
	}
}

// logRows sets logα_i = log μs_i − log Σ_j exp(g_ij + logB_j); tmp is scratch of len(logB).
func logRows(logAlpha, logB, g, mus, tmp []float64) {
	nt := len(logB)
	for i := range logAlpha {
		gr := g[i*nt : (i+1)*nt]
		mx := simd.MaxAdd(gr, logB)
		simd.ExpAdd(tmp, -mx, gr, logB)
		s := 0.0
		for _, e := range tmp {
			s += e
		}
		logAlpha[i] = math.Log(mus[i]) - (mx + math.Log(s))
	}
}

// linearSweeps runs Sinkhorn sweeps on the kernel k (ns×nt) from a = 1 and reports whether
// every marginal sum stayed representable; a and b then hold the scalings.
func linearSweeps(k, a, b, mus, mut []float64, sweeps int) bool {
	for i := range a {
		a[i] = 1
	}
	for j := range b {
		b[j] = 1
	}
	return sinkhorn(k, a, b, mus, mut, sweeps)
}

// logStep is the same layer computed in the log domain; st.cost still holds L(T⁽ᵐ⁾). The
// converged mode's sweeps check ctx.
func (p PPA) logStep(ctx context.Context, st *State) {
	ns, nt := st.ns, st.nt
	invG := 1 / p.Gamma
	// log kernel g = −(L_ij − s_i)/γ + log T_ij; the exponent goes into st.cost first.
	for i := 0; i < ns; i++ {
		si := st.rowShift[i]
		row := st.cost[i*nt : (i+1)*nt]
		for j, v := range row {
			row[j] = (si - v) * invG
		}
	}
	g := st.phi
	st.logKernel(g, st.cost)
	logAlpha := st.rowv
	for i := range logAlpha {
		logAlpha[i] = st.ppa.logA[i] - st.rowShift[i]*invG
	}
	logB := st.colv
	logColumns(logB, logAlpha, g, st.mut, st.colw, st.colx)
	logRows(logAlpha, logB, g, st.mus, st.colx)
	// One sweep in the log domain leaves potentials under which the kernel
	// K_ij = exp(logα_i + g_ij + logB_j) has row sums μs and column sums near μt: its entries are
	// representable, so the remaining sweeps run on K in the linear domain (n·m exps instead of
	// 2·n·m per sweep), as in stabilised Sinkhorn with absorption. Should a sum still
	// under- or overflow, the sweeps go on in the log domain.
	k := st.logT // scratch until the transport is written below
	for i := 0; i < ns; i++ {
		simd.ExpAdd(k[i*nt:(i+1)*nt], logAlpha[i], g[i*nt:(i+1)*nt], logB)
	}
	a, b := st.roww, st.colw
	var ok bool
	if p.Tol > 0 {
		for i := range a {
			a[i] = 1
		}
		for j := range b {
			b[j] = 1
		}
		var n int
		var err error
		ok, n, err = sinkhornTol(ctx, k, a, b, st.colx, st.mus, st.mut, p.sweepCap()-1, p.Tol, true)
		if err != nil {
			st.err = fmt.Errorf("layer %d: %w", st.Layer+1, err)
			return
		}
		if ok {
			st.countSweeps(n+1, p.sweepCap())
		}
	} else {
		ok = linearSweeps(k, a, b, st.mus, st.mut, p.Inner-1)
	}
	if ok {
		for i := range logAlpha {
			logAlpha[i] += math.Log(a[i])
		}
		for j := range logB {
			logB[j] += math.Log(b[j])
		}
		// T = diag(a)·K·diag(b) needs no exp; its logarithms are the potentials plus g.
		for i := 0; i < ns; i++ {
			tr, lr, gr := st.t[i*nt:(i+1)*nt], st.logT[i*nt:(i+1)*nt], g[i*nt:(i+1)*nt]
			simd.MulScaled(tr, a[i], lr, b) // lr still holds row i of K here
			lf := math.Log(rescale(tr, st.mus[i]))
			for j, v := range gr {
				lr[j] = logAlpha[i] + v + logB[j] + lf
			}
			st.logRow[i] = true
			st.ppa.logA[i] = logAlpha[i] + st.rowShift[i]*invG
		}
	} else {
		if p.Tol > 0 {
			if err := p.logSweepsTol(ctx, st, logAlpha, logB, g); err != nil {
				st.err = fmt.Errorf("layer %d: %w", st.Layer+1, err)
				return
			}
		}
		for s := 1; s < p.Inner && p.Tol == 0; s++ {
			logColumns(logB, logAlpha, g, st.mut, st.colw, st.colx)
			logRows(logAlpha, logB, g, st.mus, st.colx)
		}
		for i := 0; i < ns; i++ {
			lr := st.logT[i*nt : (i+1)*nt]
			gr := g[i*nt : (i+1)*nt]
			for j := range lr {
				lr[j] = logAlpha[i] + gr[j] + logB[j]
			}
			st.setLogRow(i, st.mus[i])
			st.ppa.logA[i] = logAlpha[i] + st.rowShift[i]*invG
		}
	}
	st.LogDomainLayers++
	st.Layer++
}

// logSweepsTol runs the converged mode's sweeps in the log domain: the column error of the
// current potentials is μt_j·|exp(logB_j − logB'_j) − 1|, with logB' the next column update.
// It returns ctx's error once ctx is done.
func (p PPA) logSweepsTol(ctx context.Context, st *State, logAlpha, logB, g []float64) error {
	next := st.coly
	for s := 1; ; s++ {
		if err := sweepStop(ctx, s); err != nil {
			return err
		}
		logColumns(next, logAlpha, g, st.mut, st.colw, st.colx)
		worst := 0.0
		for j, v := range next {
			worst = math.Max(worst, st.mut[j]*math.Abs(math.Exp(logB[j]-v)-1))
		}
		if worst <= p.Tol || s >= p.sweepCap() {
			st.countSweeps(s+boolInt(worst > p.Tol), p.sweepCap())
			return nil
		}
		copy(logB, next)
		logRows(logAlpha, logB, g, st.mus, st.colx)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
