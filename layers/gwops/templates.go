package gwops

import (
	"context"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/chewxy/hm"
	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/layers"
)

// Templates is the template layer of TFGW (Vincent-Cuaz et al., "Template based Graph Neural
// Network with Optimal Transport Distances", NeurIPS 2022) on gwf's solvers: a batch of graphs is
// embedded as the matrix of its (fused) GW discrepancies to K learnable template graphs,
//
//	D[b][k] = min_{T∈Π(μ_b, μ̄_k)} <Cst − 2·C_b·T·Ūₖᵀ + w·M(X_b, H_k), T>,   Ūₖ = ReLU(V_k),
//
// one Gorgonia node for the whole batch. The transports are detached (the envelope theorem):
// the backward pass differentiates the objective at the transports found, in the templates'
// structures V_k (through the ReLU), their node features H_k, the graphs' node features X
// (which may come from an encoder earlier in the expression graph) and, when it is a node, the
// logarithm of the feature weight w (TFGW learns its trade-off α likewise):
//
//	∂D/∂Ūₖ = 2·(Ūₖ ⊙ q·μ̄ₖᵀ − Tᵀ·C_b·T),  ∂D/∂H_k = 2w·(diag(q)·H_k − Tᵀ·X_b),
//	∂D/∂X_b = 2w·(diag(p)·X_b − T·H_k),    ∂D/∂log w = w·Σ_ik T_ik·‖X_i − H_k‖²,
//
// with p = T·1 and q = Tᵀ·1; and, where the node weights are learned as μ̄ₖ = softmax(θₖ)
// (Template.Logits), ∂D/∂θₖ = μ̄ₖ ⊙ (v − <μ̄ₖ, v>), v the derivative in μ̄ₖ
// (layers.TargetPotentials).
type Templates struct {
	// Solver computes each transport; its FeatureWeight is w. layers.CG (exact) is TFGW's.
	Solver layers.Solver
	// Workers solves the batch's pairs in parallel (0: GOMAXPROCS); results do not depend on it.
	Workers int
	// Context, when set, is checked by the solver before every layer: a cancelled run stops
	// within one layer and the op fails with the context's error.
	// It is a field because Gorgonia's Op.Do takes no context; Do passes it on to layers.
	Context context.Context
	// Warm, when set, keeps each (graph, template) transport and starts the next solve of that
	// pair from it (layers.CG.Start), without CG's extra starts: templates move little between
	// steps, so the last transport is a near-optimal start. Other solvers ignore it.
	Warm *WarmStarts
	// FixedFeatures says the graphs' node features x are data, not computed from parameters
	// (no encoder before the layer): the backward pass then computes no gradient in x, the
	// largest of its gradients (gorgonia.Grad with respect to x is then an error).
	FixedFeatures bool
}

// Template is one template as nodes: its structure V (n×n; the structure is ReLU(V)), its node
// distribution Mu and, when the graphs have node features, its features H (n×d). With Logits
// (a 1×n node; the cg solver only) the distribution is softmax(Logits) and learned, as TFGW
// learns its templates' node weights; Mu is then ignored. Either every template has Logits
// or none has.
type Template struct {
	V      *gorgonia.Node
	H      *gorgonia.Node
	Mu     []float64
	Logits *gorgonia.Node
}

// WarmStarts keeps the last transport of each (graph, template) pair, keyed by the graph's id
// (Templates.Build's ids). Safe for one running op at a time.
type WarmStarts struct {
	mu sync.Mutex
	t  map[[2]int][]float64
}

// NewWarmStarts returns an empty store.
func NewWarmStarts() *WarmStarts { return &WarmStarts{t: map[[2]int][]float64{}} }

func (w *WarmStarts) get(id, k, size int) []float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if t := w.t[[2]int{id, k}]; len(t) == size {
		return t
	}
	return nil
}

func (w *WarmStarts) put(id, k int, t []float64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.t[[2]int{id, k}] = append(w.t[[2]int{id, k}][:0], t...)
}

// Build adds the layer for the batch obs to g and returns the B×K discrepancy node. obs are the
// graphs' structures and node distributions (their F is ignored); x is nil when the templates
// have no features, else the batch's node features stacked in batch order (Σ N_b rows, d
// columns). ids name the graphs for the warm starts (nil: their positions in the batch).
// The feature weight is the solver's, or with logWeight (a 1×1 node, with features and
// layers.CG only) exp(logWeight).
func (l Templates) Build(g *gorgonia.ExprGraph, templates []Template, x, logWeight *gorgonia.Node, obs []layers.Space, ids []int) (*gorgonia.Node, error) {
	if l.Solver == nil {
		return nil, errorf("template layer: no solver")
	}
	if len(templates) == 0 || len(obs) == 0 {
		return nil, errorf("template layer: %d templates, %d graphs", len(templates), len(obs))
	}
	if ids != nil && len(ids) != len(obs) {
		return nil, errorf("template layer: %d ids for %d graphs", len(ids), len(obs))
	}
	op := &templatesOp{layer: l, obs: obs, ids: ids, features: x != nil}
	total := 0
	for b, o := range obs {
		if err := o.Validate(fmt.Sprintf("graph %d of the batch", b)); err != nil {
			return nil, err
		}
		op.offsets = append(op.offsets, total)
		total += o.N()
	}
	if x != nil {
		if x.Dims() != 2 || x.Shape()[0] != total {
			return nil, errorf("template layer: the node features must be a %d×d matrix (the batch's nodes)", total)
		}
		op.dim = x.Shape()[1]
	}
	if logWeight != nil {
		if _, ok := l.Solver.(layers.CG); !ok || x == nil {
			return nil, errorf("template layer: a learned feature weight needs node features and the cg solver")
		}
		if logWeight.Dims() != 2 || logWeight.Shape()[0] != 1 || logWeight.Shape()[1] != 1 {
			return nil, errorf("template layer: the log feature weight must be a 1×1 matrix node")
		}
		op.learnedWeight = true
	}
	op.learnedMu = templates[0].Logits != nil
	if op.learnedMu {
		if _, ok := l.Solver.(layers.CG); !ok {
			return nil, errorf("template layer: learned node weights need the cg solver")
		}
	}
	inputs := gorgonia.Nodes{}
	for k, t := range templates {
		if (t.Logits != nil) != op.learnedMu {
			return nil, errorf("template layer: template %d: either every template has learned node weights or none has", k)
		}
		if t.V == nil || t.V.Dims() != 2 || t.V.Shape()[0] != t.V.Shape()[1] {
			return nil, errorf("template layer: template %d: V must be square", k)
		}
		n := t.V.Shape()[0]
		if op.learnedMu {
			if t.Logits.Dims() != 2 || t.Logits.Shape()[0] != 1 || t.Logits.Shape()[1] != n {
				return nil, errorf("template layer: template %d: the node weights' logits must be a 1×%d matrix node", k, n)
			}
		} else {
			if len(t.Mu) != n {
				return nil, errorf("template layer: template %d: V must have one mu entry per node", k)
			}
			if err := (layers.Space{C: mat.NewDense(n, n, nil), Mu: t.Mu}).Validate(fmt.Sprintf("template %d", k)); err != nil {
				return nil, err
			}
		}
		if (t.H != nil) != op.features || (t.H != nil && (t.H.Dims() != 2 || t.H.Shape()[0] != n || t.H.Shape()[1] != op.dim)) {
			return nil, errorf("template layer: template %d: features do not match the graphs' (%d columns)", k, op.dim)
		}
		op.sizes = append(op.sizes, n)
		op.mus = append(op.mus, t.Mu)
		inputs = append(inputs, t.V)
	}
	if op.features {
		for _, t := range templates {
			inputs = append(inputs, t.H)
		}
		inputs = append(inputs, x)
	}
	if op.learnedWeight {
		inputs = append(inputs, logWeight)
	}
	if op.learnedMu {
		for _, t := range templates {
			inputs = append(inputs, t.Logits)
		}
	}
	out, err := gorgonia.ApplyOp(op, inputs...)
	if err != nil {
		return nil, fmt.Errorf("template layer: %w", err)
	}
	return out, nil
}

// templatesOp solves every (graph, template) pair in Do and keeps the transports for the
// backward pass (templatesGradOp).
type templatesOp struct {
	plainOp
	layer    Templates
	obs      []layers.Space
	ids      []int
	offsets  []int
	sizes    []int
	mus      [][]float64
	features bool
	dim      int
	// learnedWeight: log w is an input, after the features.
	learnedWeight bool
	// learnedMu: the last K inputs are the templates' logits, mus their softmax.
	learnedMu bool

	// Set by Do: the feature weight, the templates' structures ReLU(V_k) and features, the
	// graphs' features, and the transports, pair (b, k) at b·K + k.
	w          float64
	solver     layers.Solver
	u          []*mat.Dense
	h          []*mat.Dense
	x          []float64
	transports [][]float64
	// potentials are, with learnedMu, each pair's target potentials (layers.TargetPotentials).
	potentials [][]float64
	states     []*layers.State
}

func (op *templatesOp) k() int { return len(op.sizes) }

func (op *templatesOp) Arity() int {
	n := op.k()
	if op.features {
		n += op.k() + 1
	}
	if op.learnedWeight {
		n++
	}
	if op.learnedMu {
		n += op.k()
	}
	return n
}

// logitsInput is the index of the first template's logits among the inputs.
func (op *templatesOp) logitsInput() int { return op.Arity() - op.k() }

func (op *templatesOp) Type() hm.Type {
	mat2 := gorgonia.TensorType{Dims: 2, Of: tensor.Float64}
	ts := make([]hm.Type, op.Arity()+1)
	for i := range ts {
		ts[i] = mat2
	}
	return hm.NewFnType(ts...)
}

func (op *templatesOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{len(op.obs), op.k()}, nil
}

// graphFeatures is graph b's rows of the stacked features.
func (op *templatesOp) graphFeatures(b int) *mat.Dense {
	n := op.obs[b].N()
	off := op.offsets[b] * op.dim
	return mat.NewDense(n, op.dim, op.x[off:off+n*op.dim])
}

func (op *templatesOp) Do(values ...gorgonia.Value) (gorgonia.Value, error) {
	if len(values) != op.Arity() {
		return nil, fmt.Errorf("template layer: %d inputs, want %d", len(values), op.Arity())
	}
	K, B := op.k(), len(op.obs)
	op.u, op.h = make([]*mat.Dense, K), make([]*mat.Dense, K)
	for k, n := range op.sizes {
		v, err := float64s(values[k], n*n)
		if err != nil {
			return nil, fmt.Errorf("template layer: V_%d: %w", k, err)
		}
		op.u[k] = mat.NewDense(n, n, nil)
		layers.ReLU(op.u[k], mat.NewDense(n, n, v))
		if op.features {
			h, err := float64s(values[K+k], n*op.dim)
			if err != nil {
				return nil, fmt.Errorf("template layer: H_%d: %w", k, err)
			}
			op.h[k] = mat.NewDense(n, op.dim, h)
		}
	}
	if op.features {
		x, err := float64s(values[2*K], op.rows()*op.dim)
		if err != nil {
			return nil, fmt.Errorf("template layer: X: %w", err)
		}
		if !finite(x) {
			return nil, fmt.Errorf("template layer: %w: the node features are not finite", layers.ErrNumerical)
		}
		op.x = x
	}
	op.solver, op.w = op.layer.Solver, op.layer.Solver.FeatureWeight()
	if op.learnedWeight {
		lw, err := float64s(values[2*K+1], 1)
		if err != nil {
			return nil, fmt.Errorf("template layer: log w: %w", err)
		}
		cg := op.layer.Solver.(layers.CG) // checked by Build
		cg.Weight = math.Exp(lw[0])
		if math.IsNaN(cg.Weight) || math.IsInf(cg.Weight, 0) {
			return nil, fmt.Errorf("template layer: %w: the feature weight exp(%v) is not finite", layers.ErrNumerical, lw[0])
		}
		op.solver, op.w = cg, cg.Weight
	}
	if op.learnedMu {
		for k, n := range op.sizes {
			logits, err := float64s(values[op.logitsInput()+k], n)
			if err != nil {
				return nil, fmt.Errorf("template layer: logits of template %d: %w", k, err)
			}
			if !finite(logits) {
				return nil, fmt.Errorf("template layer: %w: the logits of template %d are not finite", layers.ErrNumerical, k)
			}
			op.mus[k] = make([]float64, n)
			layers.Softmax(op.mus[k], logits)
		}
		if len(op.potentials) != B*K {
			op.potentials = make([][]float64, B*K)
		}
	}
	out := make([]float64, B*K)
	if len(op.transports) != B*K {
		op.transports = make([][]float64, B*K)
	}
	errs := make([]error, B*K)
	workers := op.layer.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, B*K)
	for len(op.states) < workers {
		op.states = append(op.states, new(layers.State))
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(st *layers.State) {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= B*K {
					return
				}
				out[i], errs[i] = op.solve(st, i/K, i%K)
			}
		}(op.states[w])
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			op.transports = nil
			return nil, &GraphError{Index: i / K, Err: fmt.Errorf("template %d: %w", i%K, err)}
		}
	}
	return tensor.New(tensor.WithShape(B, K), tensor.WithBacking(out)), nil
}

func (op *templatesOp) rows() int {
	last := len(op.obs) - 1
	return op.offsets[last] + op.obs[last].N()
}

// solve computes pair (b, k) on st and keeps its transport.
func (op *templatesOp) solve(st *layers.State, b, k int) (float64, error) {
	ctx := orBackground(op.layer.Context)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	src := layers.Space{C: op.obs[b].C, A: op.obs[b].A, Mu: op.obs[b].Mu}
	dst := layers.Space{C: op.u[k], Mu: op.mus[k]}
	if op.features {
		src.F, dst.F = op.graphFeatures(b), op.h[k]
	}
	solver := op.solver
	id := b
	if op.ids != nil {
		id = op.ids[b]
	}
	n := src.N() * op.sizes[k]
	if cg, ok := solver.(layers.CG); ok && op.layer.Warm != nil {
		if start := op.layer.Warm.get(id, k, n); start != nil {
			if op.learnedMu { // the weights have moved since: a start with today's marginals
				start = remarginalized(start, src.Mu, dst.Mu)
			}
			cg.Start = mat.NewDense(src.N(), op.sizes[k], start)
			cg.Anchors, cg.OrderStart = 0, false
			solver = cg
		}
	}
	if err := layers.Solve(ctx, solver, st, src, dst); err != nil {
		return 0, err
	}
	d := st.Objective()
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return 0, fmt.Errorf("%w: the discrepancy is %v", layers.ErrNumerical, d)
	}
	t := op.transports[b*op.k()+k]
	if cap(t) < n {
		t = make([]float64, n)
	}
	t = t[:n]
	st.TransportInto(t)
	op.transports[b*op.k()+k] = t
	if op.layer.Warm != nil {
		op.layer.Warm.put(id, k, t)
	}
	if op.learnedMu {
		v := op.potentials[b*op.k()+k]
		if cap(v) < op.sizes[k] {
			v = make([]float64, op.sizes[k])
		}
		v = v[:op.sizes[k]]
		if err := layers.TargetPotentials(ctx, st, v); err != nil {
			return 0, err
		}
		op.potentials[b*op.k()+k] = v
	}
	return d, nil
}

// WriteHash makes every instance distinct (Gorgonia merges nodes with equal hashes).
func (op *templatesOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "gwf-templates-%p", op) }

func (op *templatesOp) Hashcode() uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}

func (op *templatesOp) String() string {
	return fmt.Sprintf("Templates(K=%d,B=%d)", op.k(), len(op.obs))
}

// DiffWRT: differentiable in every input, but in fixed node features.
func (op *templatesOp) DiffWRT(inputs int) []bool {
	d := make([]bool, inputs)
	for i := range d {
		d[i] = !op.fixedInput(i)
	}
	return d
}

// fixedInput reports whether input i is node features that take no gradient
// (Templates.FixedFeatures).
func (op *templatesOp) fixedInput(i int) bool {
	return op.features && op.layer.FixedFeatures && i == 2*op.k()
}

// SymDiff returns, for every input, the gradient of Σ_bk G[b][k]·D[b][k] for the incoming
// gradient G, computed from the transports of the last Do: each gradient node takes the output
// and G as inputs, so it runs after Do.
func (op *templatesOp) SymDiff(inputs gorgonia.Nodes, output, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	out := make(gorgonia.Nodes, len(inputs))
	for i, in := range inputs {
		if op.fixedInput(i) {
			continue // nil: Gorgonia skips an input DiffWRT calls constant
		}
		var err error
		out[i], err = gorgonia.ApplyOp(&templatesGradOp{parent: op, input: i, shape: in.Shape().Clone()}, append(append(gorgonia.Nodes{}, inputs...), output, grad)...)
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
