package layers

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/simd"
)

// Atom is one atom of a GWF model as the modules see it: a non-negative structure U (the
// model's ReLU(V)), its node distribution and, for FGW, its node features H.
type Atom struct {
	U  *mat.Dense
	Mu []float64
	H  *mat.Dense
}

func (a Atom) space() Space { return Space{C: a.U, Mu: a.Mu, F: a.H} }

// GWB is the GW barycenter module (Algorithm 3): L layers, each solving K GWDs between the
// current barycenter and the atoms and then updating
//
//	B⁽ˡ⁺¹⁾ = (Σ_k λ_k·T_k·U_k·T_kᵀ) ⊘ (μb·μbᵀ),   F_b⁽ˡ⁺¹⁾ = (Σ_k λ_k·T_k·H_k) ⊘ (μb·1ᵀ).
type GWB struct {
	Solver Solver // the GWD module used for every transport
	Layers int    // L; the paper uses 2
}

// Check validates the configuration.
func (g GWB) Check() error {
	if g.Solver == nil {
		return errorf("gwb: no GWD solver")
	}
	if g.Layers < 1 {
		return errorf("gwb: layers = %d must be at least 1", g.Layers)
	}
	return nil
}

// GWBState holds the barycenter, its features and the atom transports of the last layer, plus
// the workspace; reuse it across calls to avoid allocation.
type GWBState struct {
	gwd        State
	n, dim     int
	b, next    []float64 // barycenter and the one being built, n×n
	fb, fnext  []float64 // barycenter features, n×dim
	tmp        []float64 // T_k·U_k or scratch
	tkT        []float64 // λ_k·T_kᵀ, scratch
	transports [][]float64
	sizes      []int
	bMat, fMat mat.Dense // headers over b and fb, reused
	// lr factors b when the atoms are small against it (useLowRank) and lrOK says so; only
	// update sets it, from the transports b was built of.
	lr   lowRank
	lrOK bool
	// dense turns the factored products, and the envelope's sparse one, off (tests compare
	// them with the dense ones).
	dense bool
}

// Barycenter returns a view of B⁽ᴸ⁾ (valid until the next Compute).
func (s *GWBState) Barycenter() *mat.Dense { return &s.bMat }

// Features returns a view of F_b⁽ᴸ⁾, or nil without features.
func (s *GWBState) Features() *mat.Dense {
	if s.dim == 0 {
		return nil
	}
	return &s.fMat
}

// Transport returns a view of T_k⁽ᴸ⁾ (n×N_k, rows = barycenter nodes).
func (s *GWBState) Transport(k int) *mat.Dense {
	return mat.NewDense(s.n, s.sizes[k], s.transports[k])
}

// RawTransport is T_k⁽ᴸ⁾ row-major, owned by the state.
func (s *GWBState) RawTransport(k int) []float64 { return s.transports[k] }

// space is the current barycenter as a Space.
func (s *GWBState) space(mu []float64) Space {
	s.bMat.SetRawMatrix(blas64.General{Rows: s.n, Cols: s.n, Stride: s.n, Data: s.b})
	sp := Space{C: &s.bMat, Mu: mu}
	if s.lrOK {
		sp.lowRank = &s.lr
	}
	if s.dim > 0 {
		s.fMat.SetRawMatrix(blas64.General{Rows: s.n, Cols: s.dim, Stride: s.dim, Data: s.fb})
		sp.F = &s.fMat
	}
	return sp
}

// Compute runs the L layers from B⁽⁰⁾ = init.C (F_b⁽⁰⁾ = init.F, μb = init.Mu) with weights
// lambda (on the simplex). It checks sizes, not values. Every GWD checks ctx (see Solve), and
// so does the update before each atom's products: once ctx is done, Compute stops with an
// error wrapping ctx's error.
func (g GWB) Compute(ctx context.Context, st *GWBState, atoms []Atom, lambda []float64, init Space) error {
	if err := g.Check(); err != nil {
		return err
	}
	if len(atoms) == 0 {
		return errorf("gwb: no atoms")
	}
	if len(lambda) != len(atoms) {
		return errorf("gwb: %d weights for %d atoms", len(lambda), len(atoms))
	}
	if err := init.checkShape("gwb initial barycenter"); err != nil {
		return err
	}
	n, dim := init.N(), init.Dim()
	if n == 0 {
		return errorf("gwb: empty initial barycenter")
	}
	for k, a := range atoms {
		if err := a.space().checkShape("gwb atom"); err != nil {
			return fmt.Errorf("atom %d: %w", k, err)
		}
		if a.space().Dim() != dim || (a.H == nil) != (init.F == nil) {
			return errorf("gwb: atom %d has feature dimension %d, the graph %d", k, a.space().Dim(), dim)
		}
	}
	st.n, st.dim = n, dim
	st.lrOK = false // B⁽⁰⁾ is the graph, not a barycenter
	st.b = grow(st.b, n*n)
	st.next = grow(st.next, n*n)
	if init.C != nil {
		copyInto(st.b, init.C)
	} else {
		init.A.DenseInto(st.b, n)
	}
	if dim > 0 {
		st.fb = grow(st.fb, n*dim)
		st.fnext = grow(st.fnext, n*dim)
		copyInto(st.fb, init.F)
	}
	if cap(st.transports) < len(atoms) {
		st.transports = make([][]float64, len(atoms))
		st.sizes = make([]int, len(atoms))
	}
	st.transports = st.transports[:len(atoms)]
	st.sizes = st.sizes[:len(atoms)]
	maxN := 0
	for k, a := range atoms {
		nk := a.space().N()
		st.sizes[k] = nk
		st.transports[k] = grow(st.transports[k], n*nk)
		maxN = max(maxN, nk)
	}
	st.tmp = grow(st.tmp, n*maxN)
	st.tkT = grow(st.tkT, n*maxN)
	mu := init.Mu
	for l := 0; l < g.Layers; l++ {
		cur := st.space(mu)
		for k, a := range atoms {
			if err := Solve(ctx, g.Solver, &st.gwd, cur, a.space()); err != nil {
				return fmt.Errorf("gwb layer %d, atom %d: %w", l, k, err)
			}
			st.gwd.TransportInto(st.transports[k])
		}
		if err := st.update(ctx, atoms, lambda, mu); err != nil {
			return fmt.Errorf("gwb layer %d: %w", l, err)
		}
	}
	st.space(mu)
	return nil
}

// update builds B and F_b from the transports of this layer. It checks ctx before each atom's
// products (seconds each for atoms of 1,500 nodes) and returns its error once it is done,
// leaving B as it was.
func (st *GWBState) update(ctx context.Context, atoms []Atom, lambda []float64, mu []float64) error {
	n := st.n
	clear(st.next)
	for k, a := range atoms {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("barycenter: stopped before atom %d of %d: %w", k, len(atoms), err)
		}
		nk := st.sizes[k]
		tk, u := st.transports[k], a.U.RawMatrix()
		simd.Mul(n, nk, nk, tk, nk, u.Data, u.Stride, st.tmp, nk)
		simd.Transpose(st.tkT, lambda[k], tk, n, nk)
		simd.MulAdd(n, n, nk, 1, st.tmp, nk, st.tkT, n, st.next, n)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			st.next[i*n+j] = flushSubnormal(st.next[i*n+j] / (mu[i] * mu[j]))
		}
	}
	st.b, st.next = st.next, st.b
	r := 0
	for _, nk := range st.sizes {
		r += nk
	}
	st.lrOK = !st.dense && useLowRank(n, r)
	if st.lrOK {
		st.lr.set(st.transports, st.sizes, atoms, lambda, mu)
	}
	if st.dim == 0 {
		return nil
	}
	d := st.dim
	clear(st.fnext)
	for k, a := range atoms {
		nk, h := st.sizes[k], a.H.RawMatrix()
		simd.MulAdd(n, d, nk, lambda[k], st.transports[k], nk, h.Data, h.Stride, st.fnext, d)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			st.fnext[i*d+j] /= mu[i]
		}
	}
	st.fb, st.fnext = st.fnext, st.fb
	return nil
}

// copyInto copies a matrix into a contiguous row-major buffer.
func copyInto(dst []float64, m *mat.Dense) {
	r, c := m.Dims()
	for i := 0; i < r; i++ {
		copy(dst[i*c:(i+1)*c], m.RawRowView(i))
	}
}

// Softmax writes softmax(z) into dst (stable: shifted by the maximum).
func Softmax(dst, z []float64) {
	mx := math.Inf(-1)
	for _, v := range z {
		mx = math.Max(mx, v)
	}
	s := 0.0
	for i, v := range z {
		dst[i] = math.Exp(v - mx)
		s += dst[i]
	}
	for i := range dst {
		dst[i] /= s
	}
}

// ReLU writes max(v, 0) elementwise into dst (same shape as v).
func ReLU(dst, v *mat.Dense) {
	r, c := v.Dims()
	for i := 0; i < r; i++ {
		src := v.RawRowView(i)
		out := dst.RawRowView(i)
		for j := 0; j < c; j++ {
			out[j] = math.Max(src[j], 0)
		}
	}
}
