package training

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/gwops"
)

// AtomNodes returns the model's atoms as nodes of g whose values share the model's storage (V_k
// and, with features, H_k; named V0…, H0…): a Gorgonia solver stepping them trains the
// model's atoms in place.
func (m *Model) AtomNodes(g *gorgonia.ExprGraph) []gwops.AtomNodes {
	atoms := make([]gwops.AtomNodes, m.K())
	for k, v := range m.V {
		r, c := v.Dims()
		atoms[k] = gwops.AtomNodes{V: paramNode(g, fmt.Sprintf("V%d", k), tensor.New(tensor.WithShape(r, c), tensor.WithBacking(v.RawMatrix().Data))), Mu: m.AtomMu[k]}
	}
	for k, h := range m.H {
		r, c := h.Dims()
		atoms[k].H = paramNode(g, fmt.Sprintf("H%d", k), tensor.New(tensor.WithShape(r, c), tensor.WithBacking(h.RawMatrix().Data)))
	}
	return atoms
}

// Term adds the GWF term of a mini-batch to g — Σ_b loss(data[b]; atoms, softmax(z_b)), the
// model's forward pass (solver, γ, M, L) on its atoms — for embeddings z, a len(data)×K node
// that any Gorgonia model may produce (an encoder, a linear map of graph features, …). This is
// GWF as a regulariser inside a larger model: gradients flow from the term into z, and from z
// into whatever produced it. The atoms are returned as nodes sharing the model's storage
// (AtomNodes): differentiate w.r.t. them too, and step them, to learn the atoms as well. The
// transports are computed by the fast kernels when the machine runs, on workers goroutines
// (0: GOMAXPROCS), and detached.
func (m *Model) Term(g *gorgonia.ExprGraph, z *gorgonia.Node, data []*graphs.Graph, workers int) (loss *gorgonia.Node, atoms []gwops.AtomNodes, err error) {
	dim, err := checkData(data)
	if err != nil {
		return nil, nil, err
	}
	if dim != m.Dim() {
		return nil, nil, fmt.Errorf("the graphs have %d-dimensional node features, the model %d", dim, m.Dim())
	}
	fwd, err := m.Config.Forward()
	if err != nil {
		return nil, nil, err
	}
	obs := make([]layers.Space, len(data))
	for i, d := range data {
		obs[i] = layers.Space{A: d.A, Mu: d.Mu, F: d.F}
	}
	atoms = m.AtomNodes(g)
	loss, err = gwops.BatchLoss{Forward: fwd, Workers: workers}.Build(g, atoms, z, obs)
	if err != nil {
		return nil, nil, err
	}
	return loss, atoms, nil
}
