package layers

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/simd"
)

// State is the per-problem state of an unrolled GWD module and its reusable workspace.
// After Init it holds the cost terms and T⁽⁰⁾; each Step advances T by one layer.
// What every solver reads (the problem, the transport, the shared scratch) is held here
// directly; each solver's own state is in a workspace of its own (ppaWork, badmmWork, cgWork).
// A State may be reused for any number of problems of any size: buffers grow when needed and
// are otherwise reused, so a solve in steady state does not allocate.
type State struct {
	// Layer is the number of layers applied since Init.
	Layer int
	// Trace, when non-nil before Solve, receives the objective <L(T),T> after every layer
	// (a diagnostic: it costs one extra cost evaluation per layer).
	Trace []float64
	// LogDomainLayers counts the layers that fell back to the log-domain update because the
	// plain kernel would have underflowed.
	LogDomainLayers int
	// Sweeps counts the Sinkhorn sweeps of PPA's converged mode (Tol > 0) and SweepCapHits the
	// layers whose sweeps stopped at the cap before the tolerance (for BADMM: 1 when the extra
	// layers stopped at the cap).
	Sweeps, SweepCapHits int

	err    error // a failure inside a layer, reported by Solve
	ns, nt int
	cs, ct structure // structure matrices (views, with sparse copies when sparse)
	mus    []float64
	mut    []float64

	t  []float64 // transport, ns×nt
	fs []float64 // (Cs⊙Cs)·mus
	ft []float64 // (Ct⊙Ct)·mut
	d  []float64 // weighted feature cost, ns×nt, nil without features

	p    []float64 // ns×nt scratch: Cs·X or Csᵀ·X
	cost []float64 // ns×nt scratch: the cost matrix
	phi  []float64 // ns×nt scratch: the kernel

	// logT holds log T for the rows flagged in logRow: rows last computed in the log domain
	// (PPA's and BADMM's layers), whose small entries may have underflowed to 0 in t but are
	// still needed as logarithms. reset, Round and project clear logRow; CG, which never sets
	// it, uses logT as scratch.
	logT   []float64
	logRow []bool
	// per-row / per-column scratch
	rowv, roww, colv, colw, colx, coly, rowShift []float64

	// Each solver's own state and scratch, in the file of its solver. A State keeps all three
	// so that one reused for any solver allocates nothing in steady state; only the solver
	// whose Init ran last reads its own.
	ppa   ppaWork
	badmm badmmWork
	cg    cgWork
}

// grow returns buf resized to n, reusing its storage when large enough.
func grow(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}

// reset sizes the buffers for an ns×nt problem and binds the problem's matrices.
func (st *State) reset(src, dst Space, featureWeight, jitter float64) {
	ns, nt := src.N(), dst.N()
	st.ns, st.nt = ns, nt
	st.Layer = 0
	st.LogDomainLayers = 0
	st.Sweeps, st.SweepCapHits = 0, 0
	st.err = nil
	st.cg.solving = false // CG's Init sets it again
	st.Trace = st.Trace[:0]
	st.cs.set(src.structure(&st.cs.dense), sparseLeft)
	st.ct.set(dst.structure(&st.ct.dense), sparseRight)
	st.cs.lr, st.ct.lr = src.lowRank, dst.lowRank
	st.mus, st.mut = src.Mu, dst.Mu
	m := ns * nt
	st.t = grow(st.t, m)
	st.p = grow(st.p, m)
	st.cost = grow(st.cost, m)
	st.phi = grow(st.phi, m)
	st.logT = grow(st.logT, m)
	if cap(st.logRow) < ns {
		st.logRow = make([]bool, ns)
	}
	st.logRow = st.logRow[:ns]
	clear(st.logRow)
	st.fs = grow(st.fs, ns)
	st.ft = grow(st.ft, nt)
	st.rowv = grow(st.rowv, ns)
	st.roww = grow(st.roww, ns)
	st.rowShift = grow(st.rowShift, ns)
	st.colv = grow(st.colv, nt)
	st.colw = grow(st.colw, nt)
	st.colx = grow(st.colx, nt)
	st.coly = grow(st.coly, nt)
	squaredRowMass(st.fs, st.cs.g, src.Mu)
	squaredRowMass(st.ft, st.ct.g, dst.Mu)
	if src.F != nil {
		st.d = grow(st.d, m)
		if src.Metric == Hamming {
			hammingCost(st.d, src.F, dst.F, featureWeight)
		} else {
			featureCost(st.d, src.F, dst.F, featureWeight)
		}
	} else {
		st.d = nil
	}
	// T⁽⁰⁾ = mus·mutᵀ
	for i := 0; i < ns; i++ {
		row := st.t[i*nt : (i+1)*nt]
		for j := range row {
			row[j] = src.Mu[i] * dst.Mu[j]
		}
	}
	if jitter > 0 { // PPA.Jitter: off the fixed point of symmetric graphs
		for i := 0; i < ns; i++ {
			row := st.t[i*nt : (i+1)*nt]
			for j := range row {
				row[j] *= 1 + jitter*jitterPattern(i, j)
			}
		}
	}
}

// jitterPattern is a fixed pseudo-random number in [−1, 1) of the entry (i, j) (a 64-bit
// mix of the indices): the same for every pair of graphs and every run, so that a jittered
// start keeps results deterministic.
func jitterPattern(i, j int) float64 {
	h := uint64(i)*0x9e3779b97f4a7c15 ^ uint64(j)*0xc2b2ae3d27d4eb4f
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return float64(h>>11)/(1<<52) - 1
}

// squaredRowMass writes out_i = Σ_j C_ij²·mu_j, one half of Cst in eq. (5).
func squaredRowMass(out []float64, c blas64.General, mu []float64) {
	for i := range out {
		row := c.Data[i*c.Stride : i*c.Stride+c.Cols]
		s := 0.0
		for j, v := range row {
			s += v * v * mu[j]
		}
		out[i] = s
	}
}

// featureCost writes D_ij = w·‖Fs_i − Ft_j‖².
func featureCost(d []float64, fs, ft *mat.Dense, w float64) {
	ns, _ := fs.Dims()
	nt, _ := ft.Dims()
	for i := 0; i < ns; i++ {
		a := fs.RawRowView(i)
		for j := 0; j < nt; j++ {
			b := ft.RawRowView(j)
			s := 0.0
			for k, v := range a {
				e := v - b[k]
				s += e * e
			}
			d[i*nt+j] = w * s
		}
	}
}

// hammingCost writes D_ij = w·#{k : Fs_ik ≠ Ft_jk}.
func hammingCost(d []float64, fs, ft *mat.Dense, w float64) {
	ns, _ := fs.Dims()
	nt, _ := ft.Dims()
	for i := 0; i < ns; i++ {
		a := fs.RawRowView(i)
		for j := 0; j < nt; j++ {
			b := ft.RawRowView(j)
			s := 0
			for k, v := range a {
				if v != b[k] {
					s++
				}
			}
			d[i*nt+j] = w * float64(s)
		}
	}
}

// logKernel writes out_ij = e_ij + log T_ij, with log T exact for the rows last computed in the
// log domain (st.logRow). A column whose transport has underflowed
// entirely (every log T_ij = −∞) has lost its relative weights; it is filled with e alone, as
// if that column of T were uniform, so that the update stays finite.
func (st *State) logKernel(out, e []float64) {
	ns, nt := st.ns, st.nt
	for i := 0; i < ns; i++ {
		or, er := out[i*nt:(i+1)*nt], e[i*nt:(i+1)*nt]
		if st.logRow[i] {
			for j, v := range st.logT[i*nt : (i+1)*nt] {
				or[j] = er[j] + v
			}
			continue
		}
		for j, v := range st.t[i*nt : (i+1)*nt] {
			or[j] = er[j] + math.Log(v)
		}
	}
	for j := 0; j < nt; j++ {
		empty := true
		for i := 0; i < ns && empty; i++ {
			empty = math.IsInf(out[i*nt+j], -1)
		}
		if empty {
			for i := 0; i < ns; i++ {
				out[i*nt+j] = e[i*nt+j]
			}
		}
	}
}

// setLogRow stores row i of the transport from its (unnormalised) logarithms in st.logT,
// rescaled to sum to total, and
// keeps the logarithms for the next layer.
func (st *State) setLogRow(i int, total float64) {
	nt := st.nt
	lr := st.logT[i*nt : (i+1)*nt]
	tr := st.t[i*nt : (i+1)*nt]
	mx := math.Inf(-1)
	for _, v := range lr {
		if v > mx {
			mx = v
		}
	}
	simd.ExpAdd(tr, -mx, lr, nil)
	for j, v := range lr {
		lr[j] = v - mx
	}
	// The exponents add terms of size L/γ that cancel; rescaling makes the row exact again.
	f := rescale(tr, total)
	lf := math.Log(f)
	for j := range lr {
		lr[j] += lf
	}
	st.logRow[i] = true
}

// costOf writes L(X) = Cst − 2·Cs·X·Ctᵀ + D into st.cost (eq. 5 and the FGW cost) and the
// minimum of each row into st.rowShift.
func (st *State) costOf(x []float64) {
	st.cs.mul(st.p, x, st.nt, false)
	st.ct.mulRight(st.cost, st.p, st.ns, true)
	nt := st.nt
	for i := 0; i < st.ns; i++ {
		var d []float64
		if st.d != nil {
			d = st.d[i*nt : (i+1)*nt]
		}
		st.rowShift[i] = simd.CostRow(st.cost[i*nt:(i+1)*nt], st.fs[i], st.ft, d)
	}
}

// Objective returns <L(T),T> for the current transport: the (fused) GW discrepancy that the
// paper's modules estimate (its square, in the paper's notation). It uses the cost scratch.
func (st *State) Objective() float64 {
	st.costOf(st.t)
	s := 0.0
	for i, v := range st.cost {
		s += v * st.t[i]
	}
	return s
}

// Transport returns a copy of the current transport (rows = source nodes).
func (st *State) Transport() *mat.Dense {
	return mat.NewDense(st.ns, st.nt, append([]float64(nil), st.t...))
}

// TransportInto copies the current transport into dst, which must be ns×nt.
func (st *State) TransportInto(dst []float64) { copy(dst, st.t) }

// RawTransport is the current transport, row-major, owned by the State (valid until the
// next Init).
func (st *State) RawTransport() []float64 { return st.t }

// Dims are the problem's sizes.
func (st *State) Dims() (ns, nt int) { return st.ns, st.nt }
