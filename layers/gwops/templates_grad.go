package gwops

import (
	"fmt"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/layers"
)

// templatesGradOp is the gradient of Σ_bk G[b][k]·D[b][k] in one input of the template layer,
// from the transports its parent's last Do kept (the formulas of Templates). Its inputs are the
// parent's, then the parent's output, then G.
type templatesGradOp struct {
	plainOp
	parent *templatesOp
	input  int
	shape  tensor.Shape
}

func (op *templatesGradOp) Arity() int { return op.parent.Arity() + 2 }

func (op *templatesGradOp) Type() hm.Type {
	mat2 := gorgonia.TensorType{Dims: 2, Of: tensor.Float64}
	ts := make([]hm.Type, op.Arity()+1)
	for i := range ts {
		ts[i] = mat2
	}
	return hm.NewFnType(ts...)
}

func (op *templatesGradOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return op.shape.Clone(), nil
}

func (op *templatesGradOp) Do(values ...gorgonia.Value) (gorgonia.Value, error) {
	p := op.parent
	if p.transports == nil {
		return nil, fmt.Errorf("template layer: gradient requested before the discrepancies were computed")
	}
	K, B := p.k(), len(p.obs)
	g, err := float64s(values[len(values)-1], B*K)
	if err != nil {
		return nil, fmt.Errorf("template layer: incoming gradient: %w", err)
	}
	var out []float64
	switch {
	case op.input < K:
		out = p.structureGrad(op.input, g)
	case p.learnedMu && op.input >= p.logitsInput():
		out = p.logitsGrad(op.input-p.logitsInput(), g)
	case op.input < 2*K:
		out = p.featureGrad(op.input-K, g)
	case op.input == 2*K:
		out = p.inputGrad(g)
	default:
		out = []float64{p.logWeightGrad(g)}
	}
	return tensor.New(tensor.WithShape(op.shape.Clone()...), tensor.WithBacking(out)), nil
}

// transport is pair (b, k)'s transport as a matrix.
func (op *templatesOp) transport(b, k int) *mat.Dense {
	return mat.NewDense(op.obs[b].N(), op.sizes[k], op.transports[b*op.k()+k])
}

// structureGrad is Σ_b G[b][k]·2·(Ūₖ ⊙ q·μ̄ₖᵀ − Tᵀ·C_b·T), masked by [V_k > 0].
func (op *templatesOp) structureGrad(k int, g []float64) []float64 {
	n, K := op.sizes[k], op.k()
	out := mat.NewDense(n, n, nil)
	var ct, tct mat.Dense
	q := make([]float64, n)
	for b := range op.obs {
		gb := g[b*K+k]
		if gb == 0 {
			continue
		}
		t := op.transport(b, k)
		columnSums(q, t)
		ct.Reset()
		if c := op.obs[b].C; c != nil {
			ct.Mul(c, t)
		} else {
			ct.ReuseAs(op.obs[b].N(), n)
			op.obs[b].A.MulDense(ct.RawMatrix().Data, t.RawMatrix().Data, n)
		}
		tct.Reset()
		tct.Mul(t.T(), &ct)
		for i := 0; i < n; i++ {
			ur, tr, or := op.u[k].RawRowView(i), tct.RawRowView(i), out.RawRowView(i)
			for j := 0; j < n; j++ {
				or[j] += 2 * gb * (ur[j]*q[i]*op.mus[k][j] - tr[j])
			}
		}
	}
	layers.ReLUBackward(out, op.u[k])
	return out.RawMatrix().Data
}

// featureGrad is Σ_b G[b][k]·2w·(diag(q)·H_k − Tᵀ·X_b).
func (op *templatesOp) featureGrad(k int, g []float64) []float64 {
	n, K, w := op.sizes[k], op.k(), op.w
	out := mat.NewDense(n, op.dim, nil)
	var tx mat.Dense
	q := make([]float64, n)
	for b := range op.obs {
		gb := g[b*K+k]
		if gb == 0 {
			continue
		}
		t := op.transport(b, k)
		columnSums(q, t)
		tx.Reset()
		tx.Mul(t.T(), op.graphFeatures(b))
		for i := 0; i < n; i++ {
			hr, txr, or := op.h[k].RawRowView(i), tx.RawRowView(i), out.RawRowView(i)
			for j := range or {
				or[j] += 2 * w * gb * (q[i]*hr[j] - txr[j])
			}
		}
	}
	return out.RawMatrix().Data
}

// inputGrad is, for each graph b, Σ_k G[b][k]·2w·(diag(p)·X_b − T·H_k), stacked as X.
func (op *templatesOp) inputGrad(g []float64) []float64 {
	K, w := op.k(), op.w
	out := make([]float64, op.rows()*op.dim)
	var th mat.Dense
	for b, o := range op.obs {
		n := o.N()
		xb := op.graphFeatures(b)
		ob := mat.NewDense(n, op.dim, out[op.offsets[b]*op.dim:(op.offsets[b]+n)*op.dim])
		p := make([]float64, n)
		for k := 0; k < K; k++ {
			gb := g[b*K+k]
			if gb == 0 {
				continue
			}
			t := op.transport(b, k)
			for i := range p {
				p[i] = mat.Sum(t.RowView(i))
			}
			th.Reset()
			th.Mul(t, op.h[k])
			for i := 0; i < n; i++ {
				xr, thr, or := xb.RawRowView(i), th.RawRowView(i), ob.RawRowView(i)
				for j := range or {
					or[j] += 2 * w * gb * (p[i]*xr[j] - thr[j])
				}
			}
		}
	}
	return out
}

// logWeightGrad is Σ_bk G[b][k]·w·Σ_ik T_ik·‖X_i − H_k‖².
func (op *templatesOp) logWeightGrad(g []float64) float64 {
	K, sum := op.k(), 0.0
	for b := range op.obs {
		xb := op.graphFeatures(b)
		for k := 0; k < K; k++ {
			if g[b*K+k] == 0 {
				continue
			}
			t, cost := op.transport(b, k), 0.0
			n, m := t.Dims()
			for i := 0; i < n; i++ {
				xr := xb.RawRowView(i)
				for j := 0; j < m; j++ {
					if tij := t.At(i, j); tij != 0 {
						hr, d := op.h[k].RawRowView(j), 0.0
						for c, x := range xr {
							d += (x - hr[c]) * (x - hr[c])
						}
						cost += tij * d
					}
				}
			}
			sum += g[b*K+k] * op.w * cost
		}
	}
	return sum
}

// columnSums writes Tᵀ·1 into q.
func columnSums(q []float64, t *mat.Dense) {
	clear(q)
	r, c := t.Dims()
	for i := 0; i < r; i++ {
		row := t.RawRowView(i)
		for j := 0; j < c; j++ {
			q[j] += row[j]
		}
	}
}

func (op *templatesGradOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "gwf-templates-grad-%p-%d", op.parent, op.input)
}

func (op *templatesGradOp) Hashcode() uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}

func (op *templatesGradOp) String() string { return fmt.Sprintf("TemplatesGrad(%d)", op.input) }

// DiffWRT: no second derivatives.
func (op *templatesGradOp) DiffWRT(inputs int) []bool { return make([]bool, inputs) }

func (op *templatesGradOp) SymDiff(inputs gorgonia.Nodes, _, _ *gorgonia.Node) (gorgonia.Nodes, error) {
	return make(gorgonia.Nodes, len(inputs)), nil
}
