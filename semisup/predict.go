package semisup

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/split"
	"github.com/gwf-graphs/gwf/training"
)

// Predict returns the head's class for every training graph (from its z_i).
func (m *Model) Predict() []int { return m.Head.Predict(m.Config.HeadInput(m.GWF.Z)) }

// PredictNew classifies unseen graphs: their embeddings are computed by the encoder (one
// forward pass) or, for free embeddings, learned with the atoms fixed (training.Transform,
// steps Adam steps), and the head is applied.
func (m *Model) PredictNew(ctx context.Context, data []*graphs.Graph, steps int, opt training.Options) ([]int, error) {
	z, err := m.EmbedNew(ctx, data, steps, opt)
	if err != nil {
		return nil, err
	}
	return m.Head.Predict(m.Config.HeadInput(z)), nil
}

// EmbedNew computes the embeddings of unseen graphs: the encoder's forward pass, or
// training.Transform for free embeddings.
func (m *Model) EmbedNew(ctx context.Context, data []*graphs.Graph, steps int, opt training.Options) (*mat.Dense, error) {
	if m.Encoder != nil {
		z, err := m.Encoder.Embed(data)
		if err != nil {
			return nil, fmt.Errorf("semisup: embed the new graphs: %w", err)
		}
		return z, nil
	}
	z, err := training.Transform(ctx, m.GWF, data, steps, opt)
	if err != nil {
		return nil, fmt.Errorf("semisup: embed the new graphs: %w", err)
	}
	return z, nil
}

// Folds splits the graphs into k stratified folds (seeded): the graphs of each class are
// shuffled and dealt round-robin, so every fold has about the same class proportions. It
// returns the fold of every graph: the folds of every classifier of the module for the seed
// (internal/split.Folds).
func Folds(labels []int, k int, seed uint64) ([]int, error) {
	fold, err := split.Folds(labels, k, seed)
	if err != nil {
		return nil, fmt.Errorf("semisup: %w", err)
	}
	return fold, nil
}

// KeepLabels keeps the labels of a stratified, seeded fraction of the graphs (at least one per
// class) and marks the others Unlabeled.
func KeepLabels(labels []int, fraction float64, seed uint64) []int {
	out := make([]int, len(labels))
	for i := range out {
		out[i] = Unlabeled
	}
	rng := rand.New(rand.NewPCG(seed, 0x1abe1))
	for _, members := range ClassMembers(labels) {
		rng.Shuffle(len(members), func(a, b int) { members[a], members[b] = members[b], members[a] })
		keep := min(max(1, int(fraction*float64(len(members))+0.5)), len(members))
		for _, i := range members[:keep] {
			out[i] = labels[i]
		}
	}
	return out
}

// ClassMembers are the indices of the graphs of each class, in the order of the class values
// (graphs Unlabeled are in none): what the stratified splits shuffle and cut.
func ClassMembers(labels []int) [][]int {
	byClass := map[int][]int{}
	var classes []int
	for i, l := range labels {
		if l == Unlabeled {
			continue
		}
		if _, ok := byClass[l]; !ok {
			classes = append(classes, l)
		}
		byClass[l] = append(byClass[l], i)
	}
	slices.Sort(classes)
	out := make([][]int, len(classes))
	for k, c := range classes {
		out[k] = byClass[c]
	}
	return out
}
