package nodes

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
	if err := l.Forward.GWB.Check(); err != nil {
		return nil, err
	}
	if err := obs.Validate("observed graph"); err != nil {
		return nil, err
	}
	if len(atoms) == 0 {
		return nil, errorf("gwf loss: no atoms")
	}
	if z == nil || z.Dims() != 1 || z.Shape()[0] != len(atoms) {
		return nil, errorf("gwf loss: z must be a vector of %d entries", len(atoms))
	}
	n, dim := obs.N(), obs.Dim()
	op := &transportOp{forward: l.Forward, obs: obs, features: dim > 0}
	inputs := make(gorgonia.Nodes, 0, 2*len(atoms)+1)
	for k, a := range atoms {
		if a.V == nil || a.V.Dims() != 2 || a.V.Shape()[0] != a.V.Shape()[1] {
			return nil, errorf("gwf loss: atom %d: V must be a square matrix", k)
		}
		nk := a.V.Shape()[0]
		if len(a.Mu) != nk {
			return nil, errorf("gwf loss: atom %d: mu has %d entries for %d nodes", k, len(a.Mu), nk)
		}
		if (a.H != nil) != (dim > 0) {
			return nil, errorf("gwf loss: atom %d has features: %v, the graph: %v", k, a.H != nil, dim > 0)
		}
		if a.H != nil && (a.H.Dims() != 2 || a.H.Shape()[0] != nk || a.H.Shape()[1] != dim) {
			return nil, errorf("gwf loss: atom %d: H is %v, want (%d, %d)", k, a.H.Shape(), nk, dim)
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
	inputs = append(inputs, z)
	packed, err := gorgonia.ApplyOp(op, inputs...)
	if err != nil {
		return nil, fmt.Errorf("gwf loss: %w", err)
	}
	e := &exprBuilder{g: g}
	off := 0
	take := func(rows, cols int) *gorgonia.Node {
		v := e.do(gorgonia.Slice(packed, gorgonia.S(off, off+rows*cols)))
		off += rows * cols
		return e.do(gorgonia.Reshape(v, tensor.Shape{rows, cols}))
	}
	tks := make([]*gorgonia.Node, len(atoms))
	for k, nk := range op.sizes {
		tks[k] = take(n, nk)
	}
	t := take(n, n)

	lambda := e.do(gorgonia.SoftMax(z))
	zero := gorgonia.NewConstant(0.0, gorgonia.In(g))
	var bSum, fSum *gorgonia.Node
	for k, a := range atoms {
		// layers.ReLU with subgradient 0 at 0: V ⊙ [V > 0].
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
	mu := obs.Mu
	invMuMu := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			invMuMu[i*n+j] = 1 / (mu[i] * mu[j])
		}
	}
	b := e.do(gorgonia.HadamardProd(bSum, e.constant(invMuMu, n, n)))

	// <Cst, T> = Σ_i r_i·Σ_k B_ik²·μ_k + Σ_j c_j·((C⊙C)·μ)_j with r = T·1, c = Tᵀ·1.
	r := e.do(gorgonia.Sum(t, 1))
	c := e.do(gorgonia.Sum(t, 0))
	rCol := e.do(gorgonia.Reshape(r, tensor.Shape{n, 1}))
	w1 := e.do(gorgonia.Mul(rCol, e.constant(mu, 1, n)))
	loss := e.do(gorgonia.Sum(e.do(gorgonia.HadamardProd(e.do(gorgonia.Square(b)), w1))))
	ft := make([]float64, n)
	for j := 0; j < n; j++ {
		for l, v := range obs.C.RawRowView(j) {
			ft[j] += v * v * mu[l]
		}
	}
	loss = e.add(loss, e.do(gorgonia.Mul(c, e.constant(ft, n))))
	// −2·<B·T·Cᵀ, T> = −2·<B, T·C·Tᵀ>
	tc := e.do(gorgonia.Mul(t, e.constant(denseData(obs.C), n, n)))
	gm := e.do(gorgonia.Mul(tc, e.do(gorgonia.Transpose(t))))
	cross := e.do(gorgonia.Sum(e.do(gorgonia.HadamardProd(b, gm))))
	loss = e.do(gorgonia.Sub(loss, e.do(gorgonia.Mul(gorgonia.NewConstant(2.0, gorgonia.In(g)), cross))))

	if dim > 0 {
		invMu := make([]float64, n*dim)
		ones := make([]float64, dim)
		fNorm := make([]float64, n)
		for i := 0; i < n; i++ {
			for d := 0; d < dim; d++ {
				invMu[i*dim+d] = 1 / mu[i]
			}
			for _, v := range obs.F.RawRowView(i) {
				fNorm[i] += v * v
			}
		}
		for d := range ones {
			ones[d] = 1
		}
		fb := e.do(gorgonia.HadamardProd(fSum, e.constant(invMu, n, dim)))
		// <D, T> = Σ_i r_i‖F_b,i‖² − 2·<F_b, T·F> + Σ_j c_j‖F_j‖²
		rd := e.do(gorgonia.Mul(rCol, e.constant(ones, 1, dim)))
		feat := e.do(gorgonia.Sum(e.do(gorgonia.HadamardProd(e.do(gorgonia.Square(fb)), rd))))
		tf := e.do(gorgonia.Mul(t, e.constant(denseData(obs.F), n, dim)))
		fcross := e.do(gorgonia.Sum(e.do(gorgonia.HadamardProd(fb, tf))))
		feat = e.do(gorgonia.Sub(feat, e.do(gorgonia.Mul(gorgonia.NewConstant(2.0, gorgonia.In(g)), fcross))))
		feat = e.add(feat, e.do(gorgonia.Mul(c, e.constant(fNorm, n))))
		w := l.Forward.GWB.Solver.FeatureWeight()
		loss = e.add(loss, e.do(gorgonia.Mul(gorgonia.NewConstant(w, gorgonia.In(g)), feat)))
	}
	if e.err != nil {
		return nil, fmt.Errorf("gwf loss: %w", e.err)
	}
	return loss, nil
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
