package layers

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/simd"
)

// Forward is the GWF forward pass for one observed graph (Algorithm 4, lines 5–7): the
// barycenter B⁽ᴸ⁾ of the atoms with weights λ, started from the graph itself, and the final
// transport T⁽ᴹ⁾ = GWD(B⁽ᴸ⁾, C) computed with the same GWD module.
type Forward struct {
	GWB GWB
}

// ForwardState holds the results of Forward.Run and its workspace; reuse it.
type ForwardState struct {
	GWB   GWBState
	final State
	n     int
	// envelope scratch (its two n×max(n, N_k) products borrow the GWB state's tmp and tkT,
	// which the GWB needs only while it runs)
	g, gHat, fHat, tf []float64
	r, c              []float64
	stopped           error // why the last Envelope stopped early (see Stopped)
}

// Run computes the barycenter, the atom transports and the final transport for obs. It checks
// sizes, not values (validate observed graphs once, up front). Every GWD checks ctx (see
// Solve), so Run stops within one layer once ctx is done.
func (f Forward) Run(ctx context.Context, st *ForwardState, atoms []Atom, lambda []float64, obs Space) error {
	if err := f.GWB.Compute(ctx, &st.GWB, atoms, lambda, obs); err != nil {
		return err
	}
	st.n = obs.N()
	if err := Solve(ctx, f.GWB.Solver, &st.final, st.GWB.space(obs.Mu), obs); err != nil {
		return fmt.Errorf("final gwd: %w", err)
	}
	return nil
}

// envelopeSparseMin is the size from which the envelope multiplies a sparse observed graph in
// compressed-row form (saving n³ of its 2n³ flops). Below it the dense products cost little
// next to the M layers of the solves, and the benchmark datasets (at most 620 nodes) keep the
// dense products' results bit for bit.
const envelopeSparseMin = 1024

// Stopped returns the context's error (wrapped) when the last Envelope stopped before its end,
// nil when it ran to the end.
func (st *ForwardState) Stopped() error { return st.stopped }

// Transport returns a copy of the final transport T⁽ᴹ⁾ (rows = barycenter nodes).
func (st *ForwardState) Transport() *mat.Dense { return st.final.Transport() }

// RawTransport is the final transport, row-major, owned by the state.
func (st *ForwardState) RawTransport() []float64 { return st.final.t }

// Envelope evaluates the loss of eq. (approx) — <Cst − 2·B·T·Cᵀ + D, T> with B (and F_b)
// rebuilt from the given atoms and λ and the transports of the last Run — and ADDS its
// gradients, with every transport held fixed (envelope theorem), to gU (w.r.t. U_k; see
// ReLUBackward for V_k), gH (w.r.t. H_k) and gLambda (w.r.t. λ; see SoftmaxBackward for z).
// Pass nil for gradients you do not need. obs must be the graph of the last Run and the atoms
// of the same sizes; weight is the feature-cost weight. With the atoms and λ of the Run, B is
// exactly the barycenter B⁽ᴸ⁾.
//
// Once ctx is done, Envelope stops before the next atom and returns NaN, with the gradients
// partly added; Stopped then returns ctx's error. (With K atoms of the graph's size N the
// gradients cost O(K·N³), long enough on a large graph to be worth stopping.)
func (st *ForwardState) Envelope(ctx context.Context, atoms []Atom, lambda []float64, obs Space, weight float64, gU, gH []*mat.Dense, gLambda []float64) float64 {
	st.stopped = nil
	n := st.n
	gb := &st.GWB
	cObs := st.final.ct.g // obs as the last Run's final GWD bound it (a sparse one written out there)
	mu := obs.Mu
	st.g = grow(st.g, n*n)
	st.gHat = grow(st.gHat, n*n)
	maxN := n
	for _, nk := range gb.sizes {
		maxN = max(maxN, nk)
	}
	gb.tmp = grow(gb.tmp, n*maxN)
	gb.tkT = grow(gb.tkT, n*maxN)
	st.r = grow(st.r, n)
	st.c = grow(st.c, n)
	// r = T·1, c = Tᵀ·1
	clear(st.c)
	for i := 0; i < n; i++ {
		s := 0.0
		for j, v := range st.final.t[i*n : (i+1)*n] {
			s += v
			st.c[j] += v
		}
		st.r[i] = s
	}
	// G = T·C·Tᵀ
	if ct := &st.final.ct; ct.sparse && ct.lr == nil && n >= envelopeSparseMin && !gb.dense {
		// T·(C·Tᵀ), C·Tᵀ in compressed-row form: one n³ product instead of two.
		simd.Transpose(gb.tkT, 1, st.final.t, n, n)
		ct.mul(gb.tmp, gb.tkT, n, false)
		simd.Mul(n, n, n, st.final.t, n, gb.tmp, n, st.g, n)
	} else {
		simd.Mul(n, n, n, st.final.t, n, cObs.Data, cObs.Stride, gb.tmp, n)
		simd.Transpose(gb.tkT, 1, st.final.t, n, n)
		simd.Mul(n, n, n, gb.tmp, n, gb.tkT, n, st.g, n)
	}
	if err := gb.update(ctx, atoms, lambda, mu); err != nil {
		st.stopped = fmt.Errorf("envelope: %w", err)
		return math.NaN()
	}
	b := gb.b
	loss := 0.0
	for i := 0; i < n; i++ {
		for k := 0; k < n; k++ {
			bik := b[i*n+k]
			loss += st.r[i]*mu[k]*bik*bik - 2*bik*st.g[i*n+k]
			// dL/dB ⊘ (μb·μbᵀ)
			st.gHat[i*n+k] = (2*st.r[i]*mu[k]*bik - 2*st.g[i*n+k]) / (mu[i] * mu[k])
		}
	}
	for j := 0; j < n; j++ {
		row := cObs.Data[j*cObs.Stride : j*cObs.Stride+n]
		s := 0.0
		for l, v := range row {
			s += v * v * mu[l]
		}
		loss += st.c[j] * s
	}
	dim := gb.dim
	if dim > 0 {
		loss += weight * st.featureTerm(obs, weight)
	}
	if gU == nil && gH == nil && gLambda == nil {
		return loss
	}
	for k, a := range atoms {
		if err := ctx.Err(); err != nil {
			st.stopped = fmt.Errorf("envelope: stopped before atom %d of %d: %w", k, len(atoms), err)
			return math.NaN()
		}
		nk := gb.sizes[k]
		tkData := gb.transports[k]
		tk := blas64.General{Rows: n, Cols: nk, Stride: nk, Data: tkData}
		// tmp = Ĝ·T_k (n×N_k); tT = λ_k·T_kᵀ
		tmpK := blas64.General{Rows: n, Cols: nk, Stride: nk, Data: gb.tmp[:n*nk]}
		simd.Mul(n, nk, n, st.gHat, n, tkData, nk, tmpK.Data, nk)
		simd.Transpose(gb.tkT, lambda[k], tkData, n, nk)
		if gLambda != nil {
			// <Ĝ, T_k·U_k·T_kᵀ> = <T_kᵀ·Ĝ·T_k, U_k>
			gLambda[k] += dotTtX(tk, tmpK, a.U)
		}
		if gU != nil {
			// dU_k = λ_k·T_kᵀ·Ĝ·T_k
			g := gU[k].RawMatrix()
			simd.MulAdd(nk, nk, n, 1, gb.tkT, n, tmpK.Data, nk, g.Data, g.Stride)
		}
		if dim > 0 {
			fHat := blas64.General{Rows: n, Cols: dim, Stride: dim, Data: st.fHat}
			if gLambda != nil {
				gLambda[k] += dotTtX(tk, fHat, a.H)
			}
			if gH != nil {
				g := gH[k].RawMatrix()
				simd.MulAdd(nk, dim, n, 1, gb.tkT, n, st.fHat, dim, g.Data, g.Stride)
			}
		}
	}
	return loss
}

// featureTerm returns Σ_ij T_ij‖F_b,i − F_j‖² and leaves weight·dL/dF_b ⊘ (μb·1ᵀ) in st.fHat.
func (st *ForwardState) featureTerm(obs Space, weight float64) float64 {
	n, dim := st.n, st.GWB.dim
	fb := st.GWB.fb
	st.tf = grow(st.tf, n*dim)
	st.fHat = grow(st.fHat, n*dim)
	f := obs.F.RawMatrix()
	simd.Mul(n, dim, n, st.final.t, n, f.Data, f.Stride, st.tf, dim)
	s := 0.0
	for i := 0; i < n; i++ {
		for d := 0; d < dim; d++ {
			v := fb[i*dim+d]
			s += st.r[i]*v*v - 2*v*st.tf[i*dim+d]
			st.fHat[i*dim+d] = weight * 2 * (st.r[i]*v - st.tf[i*dim+d]) / obs.Mu[i]
		}
	}
	for j := 0; j < n; j++ {
		row := obs.F.RawRowView(j)
		q := 0.0
		for _, v := range row {
			q += v * v
		}
		s += st.c[j] * q
	}
	return s
}

// dotTtX returns <T_kᵀ·Y, X> = Σ_{a,b} (T_kᵀY)_{ab}·X_{ab} without forming T_kᵀY.
func dotTtX(tk, y blas64.General, x *mat.Dense) float64 {
	s := 0.0
	for i := 0; i < tk.Rows; i++ {
		trow := tk.Data[i*tk.Stride : i*tk.Stride+tk.Cols]
		yrow := y.Data[i*y.Stride : i*y.Stride+y.Cols]
		for a, tv := range trow {
			if tv == 0 {
				continue
			}
			xrow := x.RawRowView(a)
			d := 0.0
			for b, xv := range xrow {
				d += yrow[b] * xv
			}
			s += tv * d
		}
	}
	return s
}

// SoftmaxBackward maps a gradient w.r.t. λ = softmax(z) to one w.r.t. z, adding it to gz:
// dz_k = λ_k·(dλ_k − <λ, dλ>).
func SoftmaxBackward(gz, lambda, gLambda []float64) {
	dot := 0.0
	for k, l := range lambda {
		dot += l * gLambda[k]
	}
	for k, l := range lambda {
		gz[k] += l * (gLambda[k] - dot)
	}
}

// ReLUBackward zeroes the entries of gU where U = ReLU(V) is 0, turning dU into dV (the
// subgradient 0 at V = 0, as in PyTorch).
func ReLUBackward(gU, u *mat.Dense) {
	r, c := u.Dims()
	for i := 0; i < r; i++ {
		ur := u.RawRowView(i)
		gr := gU.RawRowView(i)
		for j := 0; j < c; j++ {
			if !(ur[j] > 0) {
				gr[j] = 0
			}
		}
	}
}
