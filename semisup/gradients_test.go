package semisup

import (
	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/training"
)

// batchGradients are one batch's losses and gradients as the trainer computes them.
type batchGradients struct {
	gwf, ce float64
	atoms   [][]float64
	z       []float64
	head    [][]float64 // nil when the head term added nothing
}

// gradients runs the trainer's expression graph for one batch (training.BatchGradients with
// the head term) without stepping.
func (m *Model) gradients(_ layers.Forward, data []*graphs.Graph, labels []int, batch []int, workers int) (*batchGradients, error) {
	gr, err := training.BatchGradients(m.GWF, data, batch, training.Options{Workers: workers, Terms: []training.Term{&headTerm{m: m, labels: labels}}})
	if err != nil {
		return nil, err
	}
	out := &batchGradients{gwf: gr.Loss, atoms: gr.Atoms, z: gr.Z}
	if gr.TermParams[0] != nil {
		out.ce = gr.Terms[0] / m.Config.Beta
		out.head = gr.TermParams[0]
	}
	return out, nil
}
