package layers

import (
	"context"
	"fmt"
	"math"

	"github.com/gwf-graphs/gwf/internal/simd"
)

// BADMM is the Bregman ADMM GWD module (Algorithm 2), in the paper's update order:
//
//	Φ1 = exp((2·Csᵀ·T⁽ᵐ⁾·Ct + Z)/γ) ⊙ T⁽ᵐ⁾;   S = Φ1·diag(μt ⊘ Φ1ᵀ1)
//	Φ2 = exp(−(L(S) + Z)/γ) ⊙ S;             T⁽ᵐ⁺¹⁾ = diag(μs ⊘ Φ2·1)·Φ2
//	Z  = Z + γ·(T⁽ᵐ⁺¹⁾ − S)
//
// with L from eq. (5), T⁽⁰⁾ = μs·μtᵀ and Z = 0. Rows of T match μs exactly; S's columns match μt.
// Both normalisations are exact, so each exponent is shifted by its column (Φ1) or row (Φ2)
// maximum with no effect on the result; a layer whose sums still underflow is recomputed in
// the log domain.
type BADMM struct {
	Gamma  float64 // γ; the paper uses 1
	Layers int     // M; the paper uses 50
	Weight float64 // weight of the feature cost D (FGW); 1 in the paper
	// Tol > 0 is the converged mode: after the M layers, Sinkhorn sweeps scale the rows and
	// columns of T until its marginal error is at most Tol (the KL projection of T onto
	// Π(μs, μt)), or MaxSweeps sweeps (0: DefaultMaxSweeps; State.SweepCapHits is then 1).
	// BADMM has no inner sweeps to run longer, and more layers do not help: on random pairs
	// its columns stayed 1e-2 off after 100000 extra layers. Tol = 0 is the paper's setting.
	Tol       float64
	MaxSweeps int
	// Round projects the final transport onto Π(μs, μt) (State.Round).
	Round bool
	// Jitter > 0 perturbs the start μs·μtᵀ as PPA.Jitter does; 0 is the paper's start.
	Jitter float64
}

// badmmWork is BADMM's state from one layer to the next in a State.
type badmmWork struct {
	// s is the auxiliary transport S and z the dual variable Z, both ns×nt.
	s, z []float64
}

// DefaultBADMM returns the paper's experimental settings: γ = 1, M = 50, weight 1.
func DefaultBADMM() BADMM { return BADMM{Gamma: 1, Layers: 50, Weight: 1} }

// badmmOf is the BADMM that the plain options o ask for (see SolverOptions); it refuses CG's
// starts and ignores Inner (BADMM has no inner sweeps).
func badmmOf(o SolverOptions) (BADMM, error) {
	if err := noCGStarts(o); err != nil {
		return BADMM{}, err
	}
	return BADMM{Gamma: o.Gamma, Layers: o.Layers, Weight: o.FeatureWeight,
		Tol: o.Tol, MaxSweeps: o.MaxSweeps, Round: o.Round, Jitter: o.Jitter}, nil
}

// options are b's settings as plain values, which badmmOf reads back to b.
func (b BADMM) options() SolverOptions {
	return SolverOptions{Name: SolverBADMM, Gamma: b.Gamma, Layers: b.Layers, FeatureWeight: b.Weight,
		Tol: b.Tol, MaxSweeps: b.MaxSweeps, Round: b.Round, Jitter: b.Jitter}
}

// Name implements Solver.
func (b BADMM) Name() string { return string(SolverBADMM) }

// Depth implements Solver.
func (b BADMM) Depth() int { return b.Layers }

// FeatureWeight implements Solver.
func (b BADMM) FeatureWeight() float64 { return b.Weight }

// Check validates the hyperparameters.
func (b BADMM) Check() error {
	if err := checkCommon(b.Name(), b.Gamma, b.Layers, b.Weight); err != nil {
		return err
	}
	if err := checkJitter(b.Name(), b.Jitter); err != nil {
		return err
	}
	return checkConverged(b.Name(), b.Tol, b.MaxSweeps)
}

// finish implements finisher: the converged mode's projection and the optional rounding.
func (b BADMM) finish(ctx context.Context, st *State) {
	if b.Tol > 0 {
		if err := st.project(ctx, b.Tol, b.MaxSweeps); err != nil {
			st.err = fmt.Errorf("projection: %w", err)
			return
		}
	}
	if b.Round {
		st.Round()
	}
}

// Init implements Solver.
func (b BADMM) Init(st *State, src, dst Space) error {
	if err := b.Check(); err != nil {
		return err
	}
	if err := checkPair(src, dst); err != nil {
		return err
	}
	st.reset(src, dst, b.Weight, b.Jitter)
	m := st.ns * st.nt
	w := &st.badmm
	w.s = grow(w.s, m)
	w.z = grow(w.z, m)
	clear(w.z)
	return nil
}

// Step implements Solver: one BADMM layer (it runs no loop long enough to check ctx).
func (b BADMM) Step(_ context.Context, st *State) {
	invG := 1 / b.Gamma
	s, z := st.badmm.s, st.badmm.z
	// E1 = (2·Csᵀ·T·Ct + Z)/γ, into st.cost.
	st.cs.mul(st.p, st.t, st.nt, true)
	st.ct.mulRight(st.cost, st.p, st.ns, false)
	for k, v := range st.cost {
		st.cost[k] = (2*v + z[k]) * invG
	}
	logS := b.columnNormalise(st)
	// E2 = −(L(S) + Z)/γ, into st.cost.
	st.costOf(s)
	for k, v := range st.cost {
		st.cost[k] = -(v + z[k]) * invG
	}
	b.rowNormalise(st, logS)
	for k, t := range st.t {
		z[k] += b.Gamma * (t - s[k])
	}
	st.Layer++
}

// columnNormalise sets S = exp(E)⊙T scaled so that each column sums to μt_j. When a column
// or row sum underflows it computes S in the log domain, leaves log S in st.phi and reports
// true, so that rowNormalise can keep working with logarithms.
func (b BADMM) columnNormalise(st *State) (inLog bool) {
	ns, nt, s := st.ns, st.nt, st.badmm.s
	mx := st.colv
	for j := range mx {
		mx[j] = math.Inf(-1)
	}
	for i := 0; i < ns; i++ {
		for j, v := range st.cost[i*nt : (i+1)*nt] {
			if v > mx[j] { // not math.Max (slow in this hot loop); a NaN still reaches the sums
				mx[j] = v
			}
		}
	}
	sum := st.colw
	clear(sum)
	for i := 0; i < ns; i++ {
		// S_ij = exp(E_ij − mx_j)·T_ij, with the exponent's negation in st.p (free here).
		dx := st.p[i*nt : (i+1)*nt]
		for j, v := range st.cost[i*nt : (i+1)*nt] {
			dx[j] = mx[j] - v
		}
		sr := s[i*nt : (i+1)*nt]
		simd.ExpScaled(sr, dx, st.t[i*nt:(i+1)*nt], 0, 1)
		for j, e := range sr {
			sum[j] += e
		}
	}
	ok := true
	for j, c := range sum {
		if !(c >= tiny) {
			ok = false
			break
		}
		sum[j] = st.mut[j] / c
	}
	if ok {
		for i := 0; i < ns && ok; i++ {
			row := s[i*nt : (i+1)*nt]
			r := 0.0
			for j := range row {
				row[j] = flushSubnormal(row[j] * sum[j])
				r += row[j]
			}
			ok = r >= tiny
		}
	}
	if ok {
		return false
	}
	// Log domain: log S_ij = E_ij + log T_ij − LSE_i(E + log T)_j + log μt_j.
	st.LogDomainLayers++
	logS := st.phi
	st.logKernel(logS, st.cost)
	for j := 0; j < nt; j++ {
		shift := math.Log(st.mut[j]) - logSumExp(ns, func(i int) float64 { return logS[i*nt+j] })
		for i := 0; i < ns; i++ {
			logS[i*nt+j] += shift
			s[i*nt+j] = math.Exp(logS[i*nt+j])
		}
	}
	return true
}

// rowNormalise sets T = exp(E)⊙S scaled so that each row sums to μs_i; with logS, st.phi
// holds log S and rows whose plain sum underflows are computed from it.
func (b BADMM) rowNormalise(st *State, inLog bool) {
	ns, nt, s := st.ns, st.nt, st.badmm.s
	for i := 0; i < ns; i++ {
		er := st.cost[i*nt : (i+1)*nt]
		sr := s[i*nt : (i+1)*nt]
		tr := st.t[i*nt : (i+1)*nt]
		mx := math.Inf(-1)
		for _, v := range er {
			if v > mx {
				mx = v
			}
		}
		simd.ExpScaled(tr, er, sr, mx, -1) // exp(E_ij − mx)·S_ij
		sum := 0.0
		for _, e := range tr {
			sum += e
		}
		if sum >= tiny {
			scale := st.mus[i] / sum
			for j := range tr {
				tr[j] = flushSubnormal(tr[j] * scale)
			}
			st.logRow[i] = false
			continue
		}
		st.LogDomainLayers++
		lr := st.logT[i*nt : (i+1)*nt]
		for j, v := range er {
			if inLog {
				lr[j] = v + st.phi[i*nt+j]
			} else {
				lr[j] = v + math.Log(sr[j])
			}
		}
		st.setLogRow(i, st.mus[i])
	}
}
