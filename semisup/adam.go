package semisup

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/training"
)

// param exposes a float64 buffer of the model and a gradient of the same size to Gorgonia's
// solvers, which update the buffer in place.
type param struct {
	value, grad *tensor.Dense
}

func (p *param) Value() gorgonia.Value         { return p.value }
func (p *param) Grad() (gorgonia.Value, error) { return p.grad, nil }
func (p *param) gradData() []float64           { return p.grad.Data().([]float64) }

func newParam(data []float64, shape ...int) *param {
	return &param{
		value: tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data)),
		grad:  tensor.New(tensor.WithShape(shape...), tensor.WithBacking(make([]float64, len(data)))),
	}
}

func matrixParam(m *mat.Dense) *param {
	r, c := m.Dims()
	return newParam(m.RawMatrix().Data, r, c)
}

// zSolver is one embedding's parameter and its lazily created Adam solver (stepped only when
// its graph is in the batch).
type zSolver struct {
	param  *param
	solver *gorgonia.AdamSolver
}

// optimizers are the Adam solvers of a semi-supervised model: the atoms (V_k then H_k), the
// head (W_l then b_l) and every z_i.
type optimizers struct {
	atoms          *gorgonia.AdamSolver
	atomParams     []*param
	atomValueGrads []gorgonia.ValueGrad
	head           *gorgonia.AdamSolver
	headParams     []*param
	headValueGrads []gorgonia.ValueGrad
	z              []zSolver
}

func newOptimizers(m *Model) (*optimizers, error) {
	lr := gorgonia.WithLearnRate(m.GWF.Config.LearningRate)
	o := &optimizers{atoms: gorgonia.NewAdamSolver(lr), head: gorgonia.NewAdamSolver(lr)}
	for _, v := range m.GWF.V {
		o.atomParams = append(o.atomParams, matrixParam(v))
	}
	for _, h := range m.GWF.H {
		o.atomParams = append(o.atomParams, matrixParam(h))
	}
	for _, p := range o.atomParams {
		o.atomValueGrads = append(o.atomValueGrads, p)
	}
	for _, w := range m.Head.W {
		o.headParams = append(o.headParams, matrixParam(w))
	}
	for _, b := range m.Head.B {
		o.headParams = append(o.headParams, newParam(b, 1, len(b)))
	}
	for _, p := range o.headParams {
		o.headValueGrads = append(o.headValueGrads, p)
	}
	rows, k := m.GWF.Z.Dims()
	o.z = make([]zSolver, rows)
	for i := range o.z {
		o.z[i].param = newParam(m.GWF.Z.RawRowView(i), k)
	}
	st := m.Optimizer
	if st == nil || st.Epoch != len(m.History) {
		return o, nil
	}
	if err := m.checkOptimizer(); err != nil {
		return nil, err
	}
	rate := m.GWF.Config.LearningRate
	restore := func(dst **gorgonia.AdamSolver, state training.AdamState, ps []*param, vgs []gorgonia.ValueGrad) error {
		var grads [][]float64
		for _, p := range ps {
			grads = append(grads, p.gradData())
		}
		s, err := training.RestoreAdam(state, rate, vgs, grads)
		if err == nil && s != nil {
			*dst = s
		}
		return err
	}
	if err := restore(&o.atoms, st.Atoms, o.atomParams, o.atomValueGrads); err != nil {
		return nil, fmt.Errorf("restore the atoms' optimizer: %w", err)
	}
	if err := restore(&o.head, st.Head, o.headParams, o.headValueGrads); err != nil {
		return nil, fmt.Errorf("restore the head's optimizer: %w", err)
	}
	for i := range o.z {
		p := o.z[i].param
		s, err := training.RestoreAdam(st.Z[i], rate, []gorgonia.ValueGrad{p}, [][]float64{p.gradData()})
		if err != nil {
			return nil, fmt.Errorf("restore the optimizer of embedding %d: %w", i, err)
		}
		o.z[i].solver = s
	}
	return o, nil
}

// snapshot is the solvers' state after epoch.
func (o *optimizers) snapshot(epoch int) (*OptimizerState, error) {
	st := &OptimizerState{Epoch: epoch, Z: make([]training.AdamState, len(o.z))}
	var err error
	if st.Atoms, err = training.SnapshotAdam(o.atoms); err != nil {
		return nil, err
	}
	if st.Head, err = training.SnapshotAdam(o.head); err != nil {
		return nil, err
	}
	for i, z := range o.z {
		if st.Z[i], err = training.SnapshotAdam(z.solver); err != nil {
			return nil, err
		}
	}
	return st, nil
}

func (o *optimizers) stepZ(i int, lr float64) error {
	if o.z[i].solver == nil {
		o.z[i].solver = gorgonia.NewAdamSolver(gorgonia.WithLearnRate(lr))
	}
	return o.z[i].solver.Step([]gorgonia.ValueGrad{o.z[i].param})
}
