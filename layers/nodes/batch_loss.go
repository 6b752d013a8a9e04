package nodes

import (
	"fmt"
	"hash"
	"hash/fnv"
	"math"

	"github.com/chewxy/hm"
	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/layers"
)

// BatchLoss is the GWF loss of a batch of observed graphs as a single Gorgonia op: the sum over
// the batch of eq. (approx), with graph b weighted by softmax of row b of Z. Unlike Loss, which
// spells the loss out as a Gorgonia expression (hundreds of nodes per graph), it computes the
// loss and its envelope-theorem gradients with the fused kernels (layers.Forward.Run and Envelope, on
// Workers goroutines) and hands Gorgonia the gradients through its backward pass. Use it to put
// the GWF loss of a whole batch in a model at the cost of one node — the semi-supervised trainer
// adds a classifier on Z to it and runs one backward pass for everything.
type BatchLoss struct {
	Forward layers.Forward
	// Workers computes the graphs of a batch in parallel (0: GOMAXPROCS); the result does not
	// depend on it.
	Workers int
}

// Build returns the scalar loss node Σ_b loss(obs[b]; atoms, softmax(Z_b)) for Z, a B×K matrix
// node (one row per observed graph). Gradients flow into every atom's V (through layers.ReLU) and H,
// and into Z; the transports are detached.
func (l BatchLoss) Build(g *gorgonia.ExprGraph, atoms []AtomNodes, z *gorgonia.Node, obs []layers.Space) (*gorgonia.Node, error) {
	if err := l.Forward.GWB.Check(); err != nil {
		return nil, err
	}
	if len(atoms) == 0 || len(obs) == 0 {
		return nil, errorf("gwf batch loss: %d atoms, %d graphs", len(atoms), len(obs))
	}
	if z == nil || z.Dims() != 2 || z.Shape()[0] != len(obs) || z.Shape()[1] != len(atoms) {
		return nil, errorf("gwf batch loss: Z must be a %d×%d matrix", len(obs), len(atoms))
	}
	dim := obs[0].Dim()
	for b, o := range obs {
		if err := o.Validate(fmt.Sprintf("observed graph %d", b)); err != nil {
			return nil, err
		}
		if o.Dim() != dim {
			return nil, errorf("gwf batch loss: graph %d has %d-dimensional features, graph 0 %d", b, o.Dim(), dim)
		}
	}
	op := &batchLossOp{loss: l, obs: obs, features: dim > 0, dim: dim}
	inputs := make(gorgonia.Nodes, 0, 2*len(atoms)+1)
	for k, a := range atoms {
		if a.V == nil || a.V.Dims() != 2 || a.V.Shape()[0] != a.V.Shape()[1] || len(a.Mu) != a.V.Shape()[0] {
			return nil, errorf("gwf batch loss: atom %d: V must be square with one mu entry per node", k)
		}
		if (a.H != nil) != (dim > 0) || (a.H != nil && (a.H.Shape()[0] != a.V.Shape()[0] || a.H.Shape()[1] != dim)) {
			return nil, errorf("gwf batch loss: atom %d: features do not match the graphs' (%d)", k, dim)
		}
		op.sizes = append(op.sizes, a.V.Shape()[0])
		op.mus = append(op.mus, a.Mu)
		inputs = append(inputs, a.V)
	}
	if dim > 0 {
		for _, a := range atoms {
			inputs = append(inputs, a.H)
		}
	}
	inputs = append(inputs, z)
	out, err := gorgonia.ApplyOp(op, inputs...)
	if err != nil {
		return nil, fmt.Errorf("gwf batch loss: %w", err)
	}
	return out, nil
}

// batchLossOp computes the loss in Do and keeps the gradient of every input for its backward
// pass (batchGradOp).
type batchLossOp struct {
	loss     BatchLoss
	obs      []layers.Space
	sizes    []int
	mus      [][]float64
	features bool
	dim      int

	grads  [][]float64 // per input, set by Do
	states []*layers.ForwardState
}

func (op *batchLossOp) k() int { return len(op.sizes) }

func (op *batchLossOp) Arity() int {
	if op.features {
		return 2*op.k() + 1
	}
	return op.k() + 1
}

func (op *batchLossOp) Type() hm.Type {
	mat2 := gorgonia.TensorType{Dims: 2, Of: tensor.Float64}
	ts := make([]hm.Type, 0, op.Arity()+1)
	for i := 0; i < op.Arity(); i++ {
		ts = append(ts, mat2)
	}
	return hm.NewFnType(append(ts, tensor.Float64)...)
}

func (op *batchLossOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.ScalarShape(), nil
}

// perGraph is one graph's loss and gradients.
type perGraph struct {
	loss    float64
	gU, gH  []*mat.Dense
	gLambda []float64
	lambda  []float64
	err     error
}

func (op *batchLossOp) Do(values ...gorgonia.Value) (gorgonia.Value, error) {
	if len(values) != op.Arity() {
		return nil, fmt.Errorf("gwf batch loss: %d inputs, want %d", len(values), op.Arity())
	}
	K, B := op.k(), len(op.obs)
	atoms := make([]layers.Atom, K)
	vs := make([]*mat.Dense, K)
	for k, nk := range op.sizes {
		v, err := float64s(values[k], nk*nk)
		if err != nil {
			return nil, fmt.Errorf("gwf batch loss: V_%d: %w", k, err)
		}
		vs[k] = mat.NewDense(nk, nk, v)
		u := mat.NewDense(nk, nk, nil)
		layers.ReLU(u, vs[k])
		atoms[k] = layers.Atom{U: u, Mu: op.mus[k]}
		if op.features {
			h, err := float64s(values[K+k], nk*op.dim)
			if err != nil {
				return nil, fmt.Errorf("gwf batch loss: H_%d: %w", k, err)
			}
			atoms[k].H = mat.NewDense(nk, op.dim, h)
		}
	}
	z, err := float64s(values[len(values)-1], B*K)
	if err != nil {
		return nil, fmt.Errorf("gwf batch loss: Z: %w", err)
	}
	results := make([]perGraph, B)
	layers.RunBatch(&op.states, op.loss.Workers, B, func(b int) int { return op.obs[b].N() }, func(st *layers.ForwardState, b int) {
		r := &results[b]
		r.lambda = make([]float64, K)
		r.gLambda = make([]float64, K)
		layers.Softmax(r.lambda, z[b*K:(b+1)*K])
		if r.err = op.loss.Forward.Run(st, atoms, r.lambda, op.obs[b]); r.err != nil {
			return
		}
		for _, nk := range op.sizes {
			r.gU = append(r.gU, mat.NewDense(nk, nk, nil))
			if op.features {
				r.gH = append(r.gH, mat.NewDense(nk, op.dim, nil))
			}
		}
		r.loss = st.Envelope(atoms, r.lambda, op.obs[b], op.loss.Forward.GWB.Solver.FeatureWeight(), r.gU, r.gH, r.gLambda)
	})
	// Sum in batch order, whatever the workers did.
	op.grads = make([][]float64, op.Arity())
	total := 0.0
	for i := range op.grads {
		op.grads[i] = make([]float64, values[i].Shape().TotalSize())
	}
	for b, r := range results {
		if r.err != nil {
			return nil, fmt.Errorf("gwf batch loss: graph %d: %w", b, r.err)
		}
		if math.IsNaN(r.loss) || math.IsInf(r.loss, 0) {
			return nil, fmt.Errorf("gwf batch loss: graph %d: %w: the loss is %v", b, layers.ErrNumerical, r.loss)
		}
		total += r.loss
		for k := range op.sizes {
			addInto(op.grads[k], r.gU[k].RawMatrix().Data)
			if op.features {
				addInto(op.grads[K+k], r.gH[k].RawMatrix().Data)
			}
		}
		layers.SoftmaxBackward(op.grads[len(op.grads)-1][b*K:(b+1)*K], r.lambda, r.gLambda)
	}
	for k, nk := range op.sizes { // dV = dU ⊙ [V > 0]
		layers.ReLUBackward(mat.NewDense(nk, nk, op.grads[k]), atoms[k].U)
	}
	return gorgonia.NewF64(total), nil
}

func addInto(dst, src []float64) {
	for i, v := range src {
		dst[i] += v
	}
}

func (op *batchLossOp) ReturnsPtr() bool     { return false }
func (op *batchLossOp) CallsExtern() bool    { return false }
func (op *batchLossOp) OverwritesInput() int { return -1 }

// WriteHash makes every instance distinct (Gorgonia merges nodes with equal hashes).
func (op *batchLossOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "gwf-batch-loss-%p", op) }

func (op *batchLossOp) Hashcode() uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}

func (op *batchLossOp) String() string {
	return fmt.Sprintf("GWFBatchLoss(K=%d,B=%d)", op.k(), len(op.obs))
}

// DiffWRT: the loss is differentiable in every input.
func (op *batchLossOp) DiffWRT(inputs int) []bool {
	d := make([]bool, inputs)
	for i := range d {
		d[i] = true
	}
	return d
}

// SymDiff returns grad·∂loss/∂input for every input, read from what Do computed: each gradient
// node also takes the loss node as an input, so that it runs after Do.
func (op *batchLossOp) SymDiff(inputs gorgonia.Nodes, output, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	out := make(gorgonia.Nodes, len(inputs))
	for i, in := range inputs {
		g, err := gorgonia.ApplyOp(&batchGradOp{parent: op, input: i, shape: in.Shape().Clone()}, append(append(gorgonia.Nodes{}, inputs...), output)...)
		if err != nil {
			return nil, err
		}
		if out[i], err = gorgonia.Mul(g, grad); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// batchGradOp returns the gradient of input `input` kept by its parent's last Do.
type batchGradOp struct {
	parent *batchLossOp
	input  int
	shape  tensor.Shape
}

func (op *batchGradOp) Arity() int { return op.parent.Arity() + 1 }

func (op *batchGradOp) Type() hm.Type {
	mat2 := gorgonia.TensorType{Dims: 2, Of: tensor.Float64}
	ts := make([]hm.Type, 0, op.Arity()+1)
	for i := 0; i < op.parent.Arity(); i++ {
		ts = append(ts, mat2)
	}
	return hm.NewFnType(append(ts, tensor.Float64, mat2)...)
}

func (op *batchGradOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return op.shape.Clone(), nil
}

func (op *batchGradOp) Do(...gorgonia.Value) (gorgonia.Value, error) {
	if op.parent.grads == nil {
		return nil, fmt.Errorf("gwf batch loss: gradient requested before the loss was computed")
	}
	g := append([]float64(nil), op.parent.grads[op.input]...)
	return tensor.New(tensor.WithShape(op.shape.Clone()...), tensor.WithBacking(g)), nil
}

func (op *batchGradOp) ReturnsPtr() bool     { return false }
func (op *batchGradOp) CallsExtern() bool    { return false }
func (op *batchGradOp) OverwritesInput() int { return -1 }

func (op *batchGradOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "gwf-batch-loss-grad-%p-%d", op.parent, op.input)
}

func (op *batchGradOp) Hashcode() uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}

func (op *batchGradOp) String() string { return fmt.Sprintf("GWFBatchLossGrad(%d)", op.input) }

// DiffWRT: no second derivatives.
func (op *batchGradOp) DiffWRT(inputs int) []bool { return make([]bool, inputs) }

func (op *batchGradOp) SymDiff(inputs gorgonia.Nodes, _, _ *gorgonia.Node) (gorgonia.Nodes, error) {
	return make(gorgonia.Nodes, len(inputs)), nil
}
