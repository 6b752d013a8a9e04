package training

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// param exposes a float64 buffer (an atom's V or H, or one z_i) and its gradient to Gorgonia's
// solvers. The tensors share storage with the model's matrices, so a solver step updates the
// model in place.
type param struct {
	value, grad *tensor.Dense
}

func (p *param) Value() gorgonia.Value         { return p.value }
func (p *param) Grad() (gorgonia.Value, error) { return p.grad, nil }

// newParam wraps data (with the given shape) and a zeroed gradient of the same shape.
func newParam(data []float64, shape ...int) *param {
	return &param{
		value: tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data)),
		grad:  tensor.New(tensor.WithShape(shape...), tensor.WithBacking(make([]float64, len(data)))),
	}
}

// gradData is the gradient's storage.
func (p *param) gradData() []float64 { return p.grad.Data().([]float64) }

// matrixParam wraps a contiguous matrix.
func matrixParam(m *mat.Dense) *param {
	r, c := m.Dims()
	return newParam(m.RawMatrix().Data, r, c)
}

// optimizer holds Gorgonia Adam solvers: one for the atoms (V_k and H_k, always passed in the
// same order, as Gorgonia's AdamSolver requires) and one per embedding z_i — a z_i is stepped
// only when its graph is in the batch, so each keeps its own moments and step count (the
// "lazy" Adam of sparse embeddings).
type optimizer struct {
	atoms      *gorgonia.AdamSolver
	atomParams []gorgonia.ValueGrad
	v, h       []*param
	z          []*gorgonia.AdamSolver
	zParams    []*param
}

// newOptimizer builds the solvers for m, restored from m.Optimizer when it holds the state
// after m's last epoch.
func newOptimizer(m *Model) (*optimizer, error) {
	lr := m.Config.LearningRate
	o := &optimizer{atoms: gorgonia.NewAdamSolver(gorgonia.WithLearnRate(lr))}
	for _, v := range m.V {
		p := matrixParam(v)
		o.v = append(o.v, p)
		o.atomParams = append(o.atomParams, p)
	}
	for _, h := range m.H {
		p := matrixParam(h)
		o.h = append(o.h, p)
		o.atomParams = append(o.atomParams, p)
	}
	rows, k := m.Z.Dims()
	o.z = make([]*gorgonia.AdamSolver, rows)
	o.zParams = make([]*param, rows)
	for i := 0; i < rows; i++ {
		o.zParams[i] = newParam(m.Z.RawRowView(i), k)
	}
	st := m.Optimizer
	if st == nil || st.Epoch != len(m.History) || st.Done != m.partialDone() {
		return o, nil
	}
	if len(st.Z) != rows {
		return nil, fmt.Errorf("optimizer state for %d embeddings, the model has %d", len(st.Z), rows)
	}
	var grads [][]float64
	for _, p := range o.atomParams {
		grads = append(grads, p.(*param).gradData())
	}
	atoms, err := RestoreAdam(st.Atoms, lr, o.atomParams, grads)
	if err != nil {
		return nil, fmt.Errorf("atoms: %w", err)
	}
	if atoms != nil {
		o.atoms = atoms
	}
	for i, zs := range st.Z {
		p := o.zParams[i]
		if o.z[i], err = RestoreAdam(zs, lr, []gorgonia.ValueGrad{p}, [][]float64{p.gradData()}); err != nil {
			return nil, fmt.Errorf("embedding %d: %w", i, err)
		}
	}
	return o, nil
}

// snapshot is the solvers' state after epoch and done graphs of the next.
func (o *optimizer) snapshot(epoch, done int) (*OptimizerState, error) {
	st := &OptimizerState{Epoch: epoch, Done: done, Z: make([]AdamState, len(o.z))}
	var err error
	if st.Atoms, err = SnapshotAdam(o.atoms); err != nil {
		return nil, err
	}
	for i, s := range o.z {
		if st.Z[i], err = SnapshotAdam(s); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// stepZ applies one Adam step to z_i with the gradient already in its param.
func (o *optimizer) stepZ(i int, lr float64) error {
	if o.z[i] == nil {
		o.z[i] = gorgonia.NewAdamSolver(gorgonia.WithLearnRate(lr))
	}
	return o.z[i].Step([]gorgonia.ValueGrad{o.zParams[i]})
}
