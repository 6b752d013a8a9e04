package semisup

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// ClassProbabilities are the head's class probabilities for graphs (one row per graph). When
// data are the model's training graphs (same count and training.Fingerprint) and transform is
// false, they are read from the trained embeddings; otherwise the graphs are embedded anew
// (EmbedNew: the encoder's forward pass, or, for free embeddings, transform mode with the atoms
// fixed, steps Adam steps; ≤ 0: the model's epochs). The second result says which.
func (m *Model) ClassProbabilities(ctx context.Context, data []*graphs.Graph, steps int, transform bool, opt training.Options) (*mat.Dense, bool, error) {
	z := m.GWF.Z
	if trained, _ := m.GWF.TrainedOn(graphs.Slice(data)); transform || !trained {
		var err error
		if z, err = m.EmbedNew(ctx, data, steps, opt); err != nil {
			return nil, true, fmt.Errorf("semisup: embed the graphs: %w", err)
		}
		transform = true
	}
	return Probabilities(m.Head.Logits(m.Config.HeadInput(z))), transform, nil
}

// ArgMax is the most probable class of each row of p.
func ArgMax(p *mat.Dense) []int {
	r, _ := p.Dims()
	out := make([]int, r)
	for i := range out {
		out[i] = floats.MaxIdx(p.RawRowView(i))
	}
	return out
}

// Probabilities is the row-wise softmax of logits.
func Probabilities(logits *mat.Dense) *mat.Dense {
	r, c := logits.Dims()
	p := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		row, out := logits.RawRowView(i), p.RawRowView(i)
		top := slices.Max(row)
		var sum float64
		for j, v := range row {
			out[j] = math.Exp(v - top)
			sum += out[j]
		}
		for j := range out {
			out[j] /= sum
		}
	}
	return p
}
