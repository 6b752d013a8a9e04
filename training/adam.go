package training

import (
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

func newOptimizer(m *Model) *optimizer {
	lr := gorgonia.WithLearnRate(m.Config.LearningRate)
	o := &optimizer{atoms: gorgonia.NewAdamSolver(lr)}
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
	return o
}

// stepZ applies one Adam step to z_i with the gradient already in its param.
func (o *optimizer) stepZ(i int, lr float64) error {
	if o.z[i] == nil {
		o.z[i] = gorgonia.NewAdamSolver(gorgonia.WithLearnRate(lr))
	}
	return o.z[i].Step([]gorgonia.ValueGrad{o.zParams[i]})
}
