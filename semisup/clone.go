package semisup

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/training"
)

// Snapshot copies m as Fit with configuration c would leave it after this epoch: the head
// trained alone on labels (if c.Head.Steps > 0), training stopping here. The atoms, embeddings,
// head and encoder are deep copies; the atoms' node distributions and the optimizer state are
// shared with m, which is not changed.
func (m *Model) Snapshot(c Config, labels []int) (*Model, error) {
	epoch := len(m.History)
	s := &Model{GWF: cloneGWF(m.GWF), Head: m.Head.Clone(), Encoder: m.Encoder.Clone(), Config: c, History: slices.Clone(m.History), Optimizer: m.Optimizer}
	s.GWF.Config.Epochs = epoch
	if c.Head.Steps > 0 {
		if err := s.Head.Train(c.HeadInput(s.GWF.Z), labels, c.Head); err != nil {
			return nil, fmt.Errorf("after epoch %d: %w", epoch, err)
		}
		s.HeadTrainedAt = epoch
	}
	return s, nil
}

// cloneGWF deep-copies the trained parameters of a GWF model (AtomMu, which training never
// changes, is shared).
func cloneGWF(m *training.Model) *training.Model {
	c := *m
	c.V, c.H = cloneDenses(m.V), cloneDenses(m.H)
	c.Z = mat.DenseCopyOf(m.Z)
	c.History = slices.Clone(m.History)
	c.Partial = nil
	return &c
}

func cloneDenses(ms []*mat.Dense) []*mat.Dense {
	if ms == nil {
		return nil
	}
	out := make([]*mat.Dense, len(ms))
	for i, m := range ms {
		out[i] = mat.DenseCopyOf(m)
	}
	return out
}

// Clone deep-copies the encoder (nil for free embeddings).
func (g *GNN) Clone() *GNN {
	if g == nil {
		return nil
	}
	c := &GNN{Kind: g.Kind, W: cloneDenses(g.W)}
	for _, b := range g.B {
		c.B = append(c.B, slices.Clone(b))
	}
	return c
}

// Clone deep-copies the head.
func (m *MLP) Clone() *MLP {
	c := &MLP{Activation: m.Activation, W: cloneDenses(m.W)}
	for _, b := range m.B {
		c.B = append(c.B, slices.Clone(b))
	}
	return c
}
