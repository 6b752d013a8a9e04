package semisup

import (
	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
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
