package training

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/internal/adamstate"
)

// param exposes a float64 tensor (an atom's V or H, one z_i, a term's weight) and its gradient
// to Gorgonia's solvers. The value shares storage with the model's matrices, so a solver step
// updates the model in place.
type param struct {
	value, grad *tensor.Dense
}

func (p *param) Value() gorgonia.Value         { return p.value }
func (p *param) Grad() (gorgonia.Value, error) { return p.grad, nil }

// gradData is the gradient's storage.
func (p *param) gradData() []float64 { return p.grad.Data().([]float64) }

// paramOf wraps a tensor and a zeroed gradient of the same shape.
func paramOf(t *tensor.Dense) *param {
	n := t.Shape().TotalSize()
	return &param{value: t, grad: tensor.New(tensor.WithShape(t.Shape().Clone()...), tensor.WithBacking(make([]float64, n)))}
}

// matrixParam wraps a contiguous matrix.
func matrixParam(m *mat.Dense) *param {
	r, c := m.Dims()
	return paramOf(tensor.New(tensor.WithShape(r, c), tensor.WithBacking(m.RawMatrix().Data)))
}

// group is one Adam solver and the parameters it steps, always in the same order (Gorgonia's
// AdamSolver keeps its moments by position). It owns its learning rate, so that a fresh solver
// and a restored one step alike.
type group struct {
	solver *gorgonia.AdamSolver // nil until the first step
	lr     float64
	params []*param
	vgs    []gorgonia.ValueGrad
}

func newGroup(ps []*param, lr float64) *group {
	g := &group{params: ps, lr: lr}
	for _, p := range ps {
		g.vgs = append(g.vgs, p)
	}
	return g
}

func (g *group) step() error {
	if g.solver == nil {
		g.solver = gorgonia.NewAdamSolver(gorgonia.WithLearnRate(g.lr))
	}
	return g.solver.Step(g.vgs)
}

func (g *group) snapshot() (AdamState, error) { return adamstate.Snapshot(g.solver) }

func (g *group) restore(st AdamState) error {
	sizes := make([]int, len(g.params))
	grads := make([][]float64, len(g.params))
	for i, p := range g.params {
		sizes[i], grads[i] = p.value.Shape().TotalSize(), p.gradData()
	}
	if err := st.Check(sizes); err != nil {
		return err
	}
	s, err := adamstate.Restore(st, g.lr, g.vgs, grads)
	if err != nil {
		return err
	}
	g.solver = s
	return nil
}

// optimizer holds the Gorgonia Adam solvers of a training run: one for the atoms (V_k then
// H_k), the embeddings' (zAdam: a z_i is stepped only when its graph is in the batch, so each
// keeps its own moments and step count, the "lazy" Adam of sparse embeddings) and one per
// extra term (its parameters, stepped on the batches where the term is present).
type optimizer struct {
	atoms   *group
	v, h    []*param
	z       *zAdam
	terms   []*group
	encoder *group // nil without an encoder
}

// newOptimizer builds the solvers for m and the terms, restored from m.Optimizer when it holds
// the state at m's position (the end of its last epoch, plus any partial one).
func newOptimizer(m *Model, terms []Term, enc Encoder, encLR float64) (*optimizer, error) {
	o := &optimizer{}
	lr := m.Config.LearningRate
	if encLR <= 0 { // the encoder at the GWF model's rate
		encLR = lr
	}
	var atomParams []*param
	for _, v := range m.V {
		p := matrixParam(v)
		o.v = append(o.v, p)
		atomParams = append(atomParams, p)
	}
	for _, h := range m.H {
		p := matrixParam(h)
		o.h = append(o.h, p)
		atomParams = append(atomParams, p)
	}
	o.atoms = newGroup(atomParams, lr)
	rows, k := m.Z.Dims()
	var err error
	if o.z, err = newZAdam(rows, k, lr); err != nil {
		return nil, err
	}
	for _, t := range terms {
		var ps []*param
		for _, v := range t.Params() {
			ps = append(ps, paramOf(v))
		}
		o.terms = append(o.terms, newGroup(ps, lr))
	}
	if enc != nil {
		var ps []*param
		for _, v := range enc.Params() {
			ps = append(ps, paramOf(v))
		}
		o.encoder = newGroup(ps, encLR)
	}
	st := m.Optimizer
	if st == nil || st.Epoch != len(m.History) || st.Done != m.partialDone() {
		return o, nil
	}
	if len(st.Z) != rows {
		return nil, fmt.Errorf("optimizer state for %d embeddings, the model has %d", len(st.Z), rows)
	}
	if len(st.Terms) != 0 && len(st.Terms) != len(terms) {
		return nil, fmt.Errorf("optimizer state for %d extra terms, training has %d", len(st.Terms), len(terms))
	}
	if err := o.atoms.restore(st.Atoms); err != nil {
		return nil, fmt.Errorf("atoms: %w", err)
	}
	for i, zs := range st.Z {
		if err := o.z.restore(i, zs); err != nil {
			return nil, fmt.Errorf("embedding %d: %w", i, err)
		}
	}
	if (st.Encoder != nil) != (o.encoder != nil) {
		return nil, fmt.Errorf("optimizer state with an encoder: %v, training with one: %v", st.Encoder != nil, o.encoder != nil)
	}
	if st.Encoder != nil {
		if err := o.encoder.restore(*st.Encoder); err != nil {
			return nil, fmt.Errorf("encoder: %w", err)
		}
	}
	for j, ts := range st.Terms {
		if err := o.terms[j].restore(ts); err != nil {
			return nil, fmt.Errorf("term %d: %w", j, err)
		}
	}
	return o, nil
}

// snapshot is the solvers' state after epoch and done graphs of the next.
func (o *optimizer) snapshot(epoch, done int) (*OptimizerState, error) {
	st := &OptimizerState{Epoch: epoch, Done: done, Z: make([]AdamState, o.z.rows())}
	var err error
	if st.Atoms, err = o.atoms.snapshot(); err != nil {
		return nil, err
	}
	for i := range st.Z {
		st.Z[i] = o.z.snapshot(i)
	}
	if o.encoder != nil {
		s, err := o.encoder.snapshot()
		if err != nil {
			return nil, err
		}
		st.Encoder = &s
	}
	for _, g := range o.terms {
		s, err := g.snapshot()
		if err != nil {
			return nil, err
		}
		st.Terms = append(st.Terms, s)
	}
	return st, nil
}
