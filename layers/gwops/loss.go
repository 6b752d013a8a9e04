package gwops

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/layers"
)

// AtomNodes are one atom's parameters as nodes of a Gorgonia graph: V (N_k×N_k; the atom is
// U = layers.ReLU(V)), optional features H (N_k×D), and the atom's fixed node distribution.
type AtomNodes struct {
	V  *gorgonia.Node
	H  *gorgonia.Node
	Mu []float64
}

// Loss builds the GWF loss of eq. (approx) — and its FGW form — as a Gorgonia expression.
type Loss struct {
	Forward layers.Forward
}

// Build returns the loss node for one observed graph obs:
//
//	<Cst − 2·B·T·Cᵀ + w·D, T>,  B = (Σ_k λ_k·T_k·layers.ReLU(V_k)·T_kᵀ) ⊘ (μ·μᵀ),  λ = softmax(z)
//	                            F_b = (Σ_k λ_k·T_k·H_k) ⊘ (μ·1ᵀ),  D_ij = ‖F_b,i − F_j‖²
//
// The transports T_k and T are computed inside the graph, when the machine runs, by an op that
// runs layers.GWB and the final GWD on the current values of V, H and z, and are detached: gradients
// flow only through B (and F_b), into V, H and z — and from there into whatever network produced
// them, so the loss composes as a regulariser. Run it with a TapeMachine (see the package doc).
func (l Loss) Build(g *gorgonia.ExprGraph, atoms []AtomNodes, z *gorgonia.Node, obs layers.Space) (*gorgonia.Node, error) {
	if err := obs.Validate("observed graph"); err != nil {
		return nil, err
	}
	op, packed, err := transports(g, l.Forward, atoms, z, obs, false, false)
	if err != nil {
		return nil, fmt.Errorf("gwf loss: %w", err)
	}
	e := &exprBuilder{g: g}
	n := obs.N()
	tks, t := unpack(e, packed, n, op.sizes, true)
	lambda := e.do(gorgonia.SoftMax(z))
	b, fb := barycenterExpr(e, atoms, lambda, tks, obs.Mu)
	var ft *gorgonia.Node
	if obs.F != nil {
		ft = e.constant(denseData(obs.F), n, obs.Dim())
	}
	loss := discrepancyExpr(e, t, b, fb, e.constant(denseData(obs.Dense()), n, n), ft, obs.Mu, obs.Mu, l.Forward.GWB.Solver.FeatureWeight())
	if e.err != nil {
		return nil, fmt.Errorf("gwf loss: %w", e.err)
	}
	return loss, nil
}

// transports checks the atoms against obs and applies a transportOp to them and w (z, or λ when
// weights is set); barycentric leaves out the final GWD.
func transports(g *gorgonia.ExprGraph, fwd layers.Forward, atoms []AtomNodes, w *gorgonia.Node, obs layers.Space, weights, barycentric bool) (*transportOp, *gorgonia.Node, error) {
	if err := fwd.GWB.Check(); err != nil {
		return nil, nil, err
	}
	if len(atoms) == 0 {
		return nil, nil, errorf("no atoms")
	}
	if w == nil || w.Dims() != 1 || w.Shape()[0] != len(atoms) {
		return nil, nil, errorf("the weights (z or λ) must be a vector of %d entries", len(atoms))
	}
	dim := obs.Dim()
	op := &transportOp{forward: fwd, obs: obs, features: dim > 0, weights: weights, barycentric: barycentric}
	inputs := make(gorgonia.Nodes, 0, 2*len(atoms)+1)
	for k, a := range atoms {
		if a.V == nil || a.V.Dims() != 2 || a.V.Shape()[0] != a.V.Shape()[1] {
			return nil, nil, errorf("atom %d: V must be a square matrix", k)
		}
		nk := a.V.Shape()[0]
		if len(a.Mu) != nk {
			return nil, nil, errorf("atom %d: mu has %d entries for %d nodes", k, len(a.Mu), nk)
		}
		if (a.H != nil) != (dim > 0) {
			return nil, nil, errorf("atom %d has features: %v, the graph: %v", k, a.H != nil, dim > 0)
		}
		if a.H != nil && (a.H.Dims() != 2 || a.H.Shape()[0] != nk || a.H.Shape()[1] != dim) {
			return nil, nil, errorf("atom %d: H is %v, want (%d, %d)", k, a.H.Shape(), nk, dim)
		}
		op.sizes = append(op.sizes, nk)
		op.atomMus = append(op.atomMus, a.Mu)
		inputs = append(inputs, a.V)
	}
	if dim > 0 {
		for _, a := range atoms {
			inputs = append(inputs, a.H)
		}
	}
	inputs = append(inputs, w)
	packed, err := gorgonia.ApplyOp(op, inputs...)
	if err != nil {
		return nil, nil, err
	}
	return op, packed, nil
}

// unpack slices the packed transports into T_k (n×N_k) and, when final, T (n×n).
func unpack(e *exprBuilder, packed *gorgonia.Node, n int, sizes []int, final bool) (tks []*gorgonia.Node, t *gorgonia.Node) {
	off := 0
	take := func(rows, cols int) *gorgonia.Node {
		v := e.do(gorgonia.Slice(packed, gorgonia.S(off, off+rows*cols)))
		off += rows * cols
		return e.do(gorgonia.Reshape(v, tensor.Shape{rows, cols}))
	}
	tks = make([]*gorgonia.Node, len(sizes))
	for k, nk := range sizes {
		tks[k] = take(n, nk)
	}
	if final {
		t = take(n, n)
	}
	return tks, t
}

// barycenterExpr is the barycenter update of Algorithm 3 over detached transports T_k:
// B = (Σ_k λ_k·T_k·ReLU(V_k)·T_kᵀ) ⊘ (μ·μᵀ) and F_b = (Σ_k λ_k·T_k·H_k) ⊘ (μ·1ᵀ) (nil without
// features).
func barycenterExpr(e *exprBuilder, atoms []AtomNodes, lambda *gorgonia.Node, tks []*gorgonia.Node, mu []float64) (b, fb *gorgonia.Node) {
	g, n := e.g, len(mu)
	zero := gorgonia.NewConstant(0.0, gorgonia.In(g))
	var bSum, fSum *gorgonia.Node
	for k, a := range atoms {
		// ReLU with subgradient 0 at 0: V ⊙ [V > 0].
		mask := e.do(gorgonia.Gt(a.V, zero, true))
		u := e.do(gorgonia.HadamardProd(a.V, mask))
		lk := e.do(gorgonia.Slice(lambda, gorgonia.S(k)))
		tu := e.do(gorgonia.Mul(tks[k], u))
		term := e.do(gorgonia.Mul(lk, e.do(gorgonia.Mul(tu, e.do(gorgonia.Transpose(tks[k]))))))
		bSum = e.add(bSum, term)
		if a.H != nil {
			fSum = e.add(fSum, e.do(gorgonia.Mul(lk, e.do(gorgonia.Mul(tks[k], a.H)))))
		}
	}
	invMuMu := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			invMuMu[i*n+j] = 1 / (mu[i] * mu[j])
		}
	}
	b = e.do(gorgonia.HadamardProd(bSum, e.constant(invMuMu, n, n)))
	if fSum == nil || e.err != nil {
		return b, nil
	}
	dim := fSum.Shape()[1]
	invMu := make([]float64, n*dim)
	for i := 0; i < n; i++ {
		for d := 0; d < dim; d++ {
			invMu[i*dim+d] = 1 / mu[i]
		}
	}
	return b, e.do(gorgonia.HadamardProd(fSum, e.constant(invMu, n, dim)))
}

// discrepancyExpr is the (fused) GW objective <Cst − 2·Cs·T·Ctᵀ + w·D, T> for a detached
// transport t (ns×nt), with Cst from eq. (5) — Cst_ij = ((Cs⊙Cs)·μs)_i + ((Ct⊙Ct)·μt)_j — and
// D_ij = ‖Fs_i − Ft_j‖² (fs and ft nil without features).
func discrepancyExpr(e *exprBuilder, t, cs, fs, ct, ft *gorgonia.Node, mus, mut []float64, w float64) *gorgonia.Node {
	g := e.g
	ns, nt := len(mus), len(mut)
	r := e.do(gorgonia.Sum(t, 1)) // T·1
	c := e.do(gorgonia.Sum(t, 0)) // Tᵀ·1
	// <Cst, T> = Σ_i r_i·((Cs⊙Cs)·μs)_i + Σ_j c_j·((Ct⊙Ct)·μt)_j
	rowMass := e.do(gorgonia.Mul(e.do(gorgonia.Square(cs)), e.constant(mus, ns)))
	colMass := e.do(gorgonia.Mul(e.do(gorgonia.Square(ct)), e.constant(mut, nt)))
	loss := e.do(gorgonia.Add(e.do(gorgonia.Mul(r, rowMass)), e.do(gorgonia.Mul(c, colMass))))
	// −2·<Cs·T·Ctᵀ, T>
	gm := e.do(gorgonia.Mul(e.do(gorgonia.Mul(cs, t)), e.do(gorgonia.Transpose(ct))))
	cross := e.do(gorgonia.Sum(e.do(gorgonia.HadamardProd(gm, t))))
	two := gorgonia.NewConstant(2.0, gorgonia.In(g))
	loss = e.do(gorgonia.Sub(loss, e.do(gorgonia.Mul(two, cross))))
	if fs == nil || e.err != nil {
		return loss
	}
	ftNode := ft
	// <D, T> = Σ_i r_i‖Fs_i‖² + Σ_j c_j‖Ft_j‖² − 2·<Fs·Ftᵀ, T>
	sqS := e.do(gorgonia.Sum(e.do(gorgonia.Square(fs)), 1))
	sqT := e.do(gorgonia.Sum(e.do(gorgonia.Square(ftNode)), 1))
	feat := e.do(gorgonia.Add(e.do(gorgonia.Mul(r, sqS)), e.do(gorgonia.Mul(c, sqT))))
	fcross := e.do(gorgonia.Sum(e.do(gorgonia.HadamardProd(e.do(gorgonia.Mul(fs, e.do(gorgonia.Transpose(ftNode)))), t))))
	feat = e.do(gorgonia.Sub(feat, e.do(gorgonia.Mul(two, fcross))))
	return e.add(loss, e.do(gorgonia.Mul(gorgonia.NewConstant(w, gorgonia.In(g)), feat)))
}

// exprBuilder threads the first error through a chain of Gorgonia calls.
type exprBuilder struct {
	g   *gorgonia.ExprGraph
	err error
}

func (e *exprBuilder) do(n *gorgonia.Node, err error) *gorgonia.Node {
	if e.err == nil && err != nil {
		e.err = err
	}
	if e.err != nil {
		return nil
	}
	return n
}

func (e *exprBuilder) add(acc, term *gorgonia.Node) *gorgonia.Node {
	if e.err != nil {
		return nil
	}
	if acc == nil {
		return term
	}
	return e.do(gorgonia.Add(acc, term))
}

// constant makes a float64 constant of the given shape (data is copied).
func (e *exprBuilder) constant(data []float64, shape ...int) *gorgonia.Node {
	if e.err != nil {
		return nil
	}
	backing := append([]float64(nil), data...)
	return gorgonia.NewConstant(tensor.New(tensor.WithShape(shape...), tensor.WithBacking(backing)), gorgonia.In(e.g))
}

// denseData is a matrix's entries, row-major and contiguous.
func denseData(m interface {
	Dims() (int, int)
	At(int, int) float64
}) []float64 {
	r, c := m.Dims()
	out := make([]float64, 0, r*c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			out = append(out, m.At(i, j))
		}
	}
	return out
}
