package layers

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
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
}

// DefaultBADMM returns the paper's experimental settings: γ = 1, M = 50, weight 1.
func DefaultBADMM() BADMM { return BADMM{Gamma: 1, Layers: 50, Weight: 1} }

// Name implements Solver.
func (b BADMM) Name() string { return "badmm" }

// Depth implements Solver.
func (b BADMM) Depth() int { return b.Layers }

// FeatureWeight implements Solver.
func (b BADMM) FeatureWeight() float64 { return b.Weight }

// Check validates the hyperparameters.
func (b BADMM) Check() error { return checkCommon("badmm", b.Gamma, b.Layers, b.Weight) }

// Init implements Solver.
func (b BADMM) Init(st *State, src, dst Space) error {
	if err := b.Check(); err != nil {
		return err
	}
	if err := checkPair(src, dst); err != nil {
		return err
	}
	st.reset(src, dst, b.Weight)
	m := st.ns * st.nt
	st.s = grow(st.s, m)
	st.z = grow(st.z, m)
	for i := range st.z {
		st.z[i] = 0
	}
	return nil
}

// Step implements Solver: one BADMM layer.
func (b BADMM) Step(st *State) {
	invG := 1 / b.Gamma
	// E1 = (2·Csᵀ·T·Ct + Z)/γ, into st.cost.
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, st.cs, st.view(st.t), 0, st.view(st.p))
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, st.view(st.p), st.ct, 0, st.view(st.cost))
	for k, v := range st.cost {
		st.cost[k] = (2*v + st.z[k]) * invG
	}
	b.columnNormalise(st)
	// E2 = −(L(S) + Z)/γ, into st.cost.
	st.costOf(st.s)
	for k, v := range st.cost {
		st.cost[k] = -(v + st.z[k]) * invG
	}
	b.rowNormalise(st)
	for k, t := range st.t {
		st.z[k] += b.Gamma * (t - st.s[k])
	}
	st.Layer++
}

// columnNormalise sets S = exp(E)⊙T scaled so that each column sums to μt_j.
func (b BADMM) columnNormalise(st *State) {
	ns, nt := st.ns, st.nt
	mx := st.colv
	for j := range mx {
		mx[j] = math.Inf(-1)
	}
	for i := 0; i < ns; i++ {
		for j, v := range st.cost[i*nt : (i+1)*nt] {
			mx[j] = math.Max(mx[j], v)
		}
	}
	sum := st.phi[:nt] // phi is free here; use its first row as column sums
	for j := range sum {
		sum[j] = 0
	}
	for i := 0; i < ns; i++ {
		for j, v := range st.cost[i*nt : (i+1)*nt] {
			e := math.Exp(v-mx[j]) * st.t[i*nt+j]
			st.s[i*nt+j] = e
			sum[j] += e
		}
	}
	ok := true
	for _, c := range sum {
		if !(c >= tiny) {
			ok = false
			break
		}
	}
	if ok {
		for j := range sum {
			sum[j] = st.mut[j] / sum[j]
		}
		for i := 0; i < ns; i++ {
			row := st.s[i*nt : (i+1)*nt]
			for j := range row {
				row[j] *= sum[j]
			}
		}
		return
	}
	// Log domain: log S_ij = E_ij + log T_ij − LSE_i(E + log T)_j + log μt_j.
	st.LogDomainLayers++
	for j := 0; j < nt; j++ {
		lse := logSumExp(ns, func(i int) float64 { return st.cost[i*nt+j] + math.Log(st.t[i*nt+j]) })
		for i := 0; i < ns; i++ {
			st.s[i*nt+j] = math.Exp(st.cost[i*nt+j] + math.Log(st.t[i*nt+j]) - lse + math.Log(st.mut[j]))
		}
	}
}

// rowNormalise sets T = exp(E)⊙S scaled so that each row sums to μs_i.
func (b BADMM) rowNormalise(st *State) {
	ns, nt := st.ns, st.nt
	for i := 0; i < ns; i++ {
		er := st.cost[i*nt : (i+1)*nt]
		sr := st.s[i*nt : (i+1)*nt]
		tr := st.t[i*nt : (i+1)*nt]
		mx := math.Inf(-1)
		for _, v := range er {
			mx = math.Max(mx, v)
		}
		sum := 0.0
		for j, v := range er {
			e := math.Exp(v-mx) * sr[j]
			tr[j] = e
			sum += e
		}
		if sum >= tiny {
			scale := st.mus[i] / sum
			for j := range tr {
				tr[j] *= scale
			}
			continue
		}
		st.LogDomainLayers++
		lse := logSumExp(nt, func(j int) float64 { return er[j] + math.Log(sr[j]) })
		for j := range tr {
			tr[j] = math.Exp(er[j] + math.Log(sr[j]) - lse + math.Log(st.mus[i]))
		}
	}
}
