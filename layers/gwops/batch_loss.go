package gwops

import (
	"context"
	"errors"
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
// loss and its envelope-theorem gradients with the fused kernels (layers.Forward.Run and
// Envelope, on Workers goroutines) and hands Gorgonia the gradients through its backward pass.
// This is the GWF term of every training loop of the module (package training's trainer), and
// the cheapest way to put the GWF loss of a whole batch in a larger model at the cost of one
// node.
type BatchLoss struct {
	Forward layers.Forward
	// Workers computes the graphs of a batch in parallel (0: GOMAXPROCS); the result does not
	// depend on it.
	Workers int
	// SkipNonFinite leaves out of the batch a graph whose forward pass fails numerically or
	// whose loss or gradients are not finite (its loss and gradients count as 0; see
	// Batch.Skipped) instead of failing the run with a *GraphError.
	SkipNonFinite bool
	// Workspace, when set, is reused by every op built from this BatchLoss (one op runs at a
	// time): with it, a training loop allocates nothing in the kernels in steady state.
	Workspace *Workspace
	// Context, when set, is checked before each graph and each solver layer: once it is done,
	// the run fails with its error (wrapped in a *GraphError), so that an interrupted trainer
	// stops within one layer, not one batch.
	// It is a field because Gorgonia's Op.Do takes no context; Do passes it on to layers.
	Context context.Context
}

// Workspace holds what batch-loss ops reuse from one run to the next: each worker's
// layers.ForwardState and each graph's gradient buffers. It serves one running op at a time.
type Workspace struct {
	states  []*layers.ForwardState
	results []*graphResult
	atoms   []layers.Atom
	sums    [][]float64
}

// GraphError is the failure of one graph of a batch: its position in the batch (the row of Z)
// and the cause. Numerical failures wrap layers.ErrNumerical.
type GraphError struct {
	Index int
	Err   error
}

func (e *GraphError) Error() string { return fmt.Sprintf("graph %d of the batch: %v", e.Index, e.Err) }
func (e *GraphError) Unwrap() error { return e.Err }

// Batch is a built BatchLoss: the scalar loss node and, after each run, which graphs were left
// out.
type Batch struct {
	Loss *gorgonia.Node
	op   *batchLossOp
}

// Skipped returns the graphs left out of the last run (BatchLoss.SkipNonFinite), in batch
// order, with the reason.
func (b *Batch) Skipped() []*GraphError { return b.op.skipped }

// Failure returns the graph that failed the last run, or nil. (Gorgonia's machines report an
// op's error as text, so the caller finds the graph here.)
func (b *Batch) Failure() *GraphError { return b.op.failure }

// Build returns the scalar loss node Σ_b loss(obs[b]; atoms, softmax(Z_b)) for Z, a B×K matrix
// node (one row per observed graph). Gradients flow into every atom's V (through ReLU) and H,
// and into Z; the transports are detached.
func (l BatchLoss) Build(g *gorgonia.ExprGraph, atoms []AtomNodes, z *gorgonia.Node, obs []layers.Space) (*gorgonia.Node, error) {
	b, err := l.BuildBatch(g, atoms, z, obs)
	if err != nil {
		return nil, err
	}
	return b.Loss, nil
}

// BuildBatch is Build returning the Batch, which also reports the graphs skipped in each run.
func (l BatchLoss) BuildBatch(g *gorgonia.ExprGraph, atoms []AtomNodes, z *gorgonia.Node, obs []layers.Space) (*Batch, error) {
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
	ws := l.Workspace
	if ws == nil {
		ws = new(Workspace)
	}
	op := &batchLossOp{loss: l, ws: ws, obs: obs, features: dim > 0, dim: dim}
	inputs := make(gorgonia.Nodes, 0, 2*len(atoms)+1)
	for k, a := range atoms {
		if a.V == nil || a.V.Dims() != 2 || a.V.Shape()[0] != a.V.Shape()[1] || len(a.Mu) != a.V.Shape()[0] {
			return nil, errorf("gwf batch loss: atom %d: V must be square with one mu entry per node", k)
		}
		if (a.H != nil) != (dim > 0) || (a.H != nil && (a.H.Dims() != 2 || a.H.Shape()[0] != a.V.Shape()[0] || a.H.Shape()[1] != dim)) {
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
	return &Batch{Loss: out, op: op}, nil
}

// batchLossOp computes the loss in Do and keeps the gradient of every input for its backward
// pass (batchGradOp).
type batchLossOp struct {
	plainOp
	loss     BatchLoss
	ws       *Workspace
	obs      []layers.Space
	sizes    []int
	mus      [][]float64
	features bool
	dim      int

	grads   [][]float64 // per input, set by Do (the workspace's sums)
	skipped []*GraphError
	failure *GraphError
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

// graphResult is one graph's loss and gradients; its buffers are reused across runs.
type graphResult struct {
	loss    float64
	gU, gH  []*mat.Dense
	gLambda []float64
	lambda  []float64
	err     error
}

// reset sizes the buffers for atoms of the given sizes and zeroes them.
func (r *graphResult) reset(sizes []int, dim int) {
	k := len(sizes)
	r.err = nil
	r.loss = 0
	if len(r.lambda) != k {
		r.lambda, r.gLambda = make([]float64, k), make([]float64, k)
	}
	clear(r.gLambda)
	r.gU = resize(r.gU, sizes, nil)
	if dim > 0 {
		r.gH = resize(r.gH, sizes, &dim)
	} else {
		r.gH = nil
	}
}

// resize returns zeroed matrices of sizes[k]×sizes[k] (or ×*cols), reusing ms where it fits.
func resize(ms []*mat.Dense, sizes []int, cols *int) []*mat.Dense {
	if len(ms) != len(sizes) {
		ms = make([]*mat.Dense, len(sizes))
	}
	for k, n := range sizes {
		c := n
		if cols != nil {
			c = *cols
		}
		if ms[k] == nil {
			ms[k] = mat.NewDense(n, c, nil)
			continue
		}
		if r, cc := ms[k].Dims(); r != n || cc != c {
			ms[k] = mat.NewDense(n, c, nil)
			continue
		}
		ms[k].Zero()
	}
	return ms
}

// check reports a non-finite loss or gradient.
func (r *graphResult) check() error {
	if math.IsNaN(r.loss) || math.IsInf(r.loss, 0) {
		return fmt.Errorf("%w: the loss is %v", layers.ErrNumerical, r.loss)
	}
	for k, g := range r.gU {
		if !finite(g.RawMatrix().Data) {
			return fmt.Errorf("%w: the gradient of atom %d is not finite", layers.ErrNumerical, k)
		}
	}
	for k, g := range r.gH {
		if !finite(g.RawMatrix().Data) {
			return fmt.Errorf("%w: the gradient of atom %d's features is not finite", layers.ErrNumerical, k)
		}
	}
	if !finite(r.gLambda) {
		return fmt.Errorf("%w: the gradient of the embedding is not finite", layers.ErrNumerical)
	}
	return nil
}

func finite(xs []float64) bool {
	for _, v := range xs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// atomsOf binds the current values of V (through ReLU, into reused U buffers) and H.
func (op *batchLossOp) atomsOf(values []gorgonia.Value) ([]layers.Atom, error) {
	K, ws := op.k(), op.ws
	if len(ws.atoms) != K {
		ws.atoms = make([]layers.Atom, K)
	}
	for k, nk := range op.sizes {
		v, err := float64s(values[k], nk*nk)
		if err != nil {
			return nil, fmt.Errorf("gwf batch loss: V_%d: %w", k, err)
		}
		u := ws.atoms[k].U
		if u == nil || u.RawMatrix().Rows != nk {
			u = mat.NewDense(nk, nk, nil)
		}
		layers.ReLU(u, mat.NewDense(nk, nk, v))
		ws.atoms[k] = layers.Atom{U: u, Mu: op.mus[k]}
		if op.features {
			h, err := float64s(values[K+k], nk*op.dim)
			if err != nil {
				return nil, fmt.Errorf("gwf batch loss: H_%d: %w", k, err)
			}
			ws.atoms[k].H = mat.NewDense(nk, op.dim, h)
		}
	}
	return ws.atoms, nil
}

func (op *batchLossOp) Do(values ...gorgonia.Value) (gorgonia.Value, error) {
	if len(values) != op.Arity() {
		return nil, fmt.Errorf("gwf batch loss: %d inputs, want %d", len(values), op.Arity())
	}
	K, B, ws := op.k(), len(op.obs), op.ws
	atoms, err := op.atomsOf(values)
	if err != nil {
		return nil, err
	}
	z, err := float64s(values[len(values)-1], B*K)
	if err != nil {
		return nil, fmt.Errorf("gwf batch loss: Z: %w", err)
	}
	for len(ws.results) < B {
		ws.results = append(ws.results, new(graphResult))
	}
	weight := op.loss.Forward.GWB.Solver.FeatureWeight()
	ctx := orBackground(op.loss.Context)
	layers.RunBatch(&ws.states, op.loss.Workers, B, func(b int) int { return op.obs[b].N() }, func(st *layers.ForwardState, b int) {
		r := ws.results[b]
		if ctx.Err() != nil {
			r.err = ctx.Err() // before reset: a stopped run does not clear a large graph's buffers
			return
		}
		r.reset(op.sizes, op.dim)
		layers.Softmax(r.lambda, z[b*K:(b+1)*K])
		if r.err = op.loss.Forward.Run(ctx, st, atoms, r.lambda, op.obs[b]); r.err != nil {
			return
		}
		r.loss = st.Envelope(ctx, atoms, r.lambda, op.obs[b], weight, r.gU, r.gH, r.gLambda)
		r.err = r.check()
	})
	if ctx.Err() != nil { // stopped: no sums to build
		op.grads, op.skipped = nil, nil
		for b := 0; b < B; b++ {
			if ws.results[b].err != nil {
				op.failure = &GraphError{Index: b, Err: ws.results[b].err}
				return nil, op.failure
			}
		}
		op.failure = &GraphError{Index: 0, Err: ctx.Err()}
		return nil, op.failure
	}
	// Sum in batch order, whatever the workers did.
	if len(ws.sums) != op.Arity() {
		ws.sums = make([][]float64, op.Arity())
	}
	for i := range ws.sums {
		n := values[i].Shape().TotalSize()
		if cap(ws.sums[i]) < n {
			ws.sums[i] = make([]float64, n)
		}
		ws.sums[i] = ws.sums[i][:n]
		clear(ws.sums[i])
	}
	op.grads, op.skipped, op.failure = ws.sums, nil, nil
	total := 0.0
	for b := 0; b < B; b++ {
		r := ws.results[b]
		if r.err != nil {
			ge := &GraphError{Index: b, Err: r.err}
			if !op.loss.SkipNonFinite || !errors.Is(r.err, layers.ErrNumerical) {
				op.grads, op.failure = nil, ge
				return nil, ge
			}
			op.skipped = append(op.skipped, ge)
			continue
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
	plainOp
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

// orBackground is the context an op passes to layers: its Context, or context.Background()
// when that is unset.
func orBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}
