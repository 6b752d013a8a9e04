package semisup

import (
	"context"
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// Reembed puts a classifier's training graphs on the footing of the graphs it will meet: it
// embeds them anew in transform mode with the final atoms (training.Transform, steps Adam
// steps each, 0: the model's epochs — what PredictNew does for unseen graphs), replaces the
// model's free embeddings with them and trains the head on them alone (Config.Head). Without
// it the head is fit on jointly trained embeddings that transform mode does not reproduce, and
// unseen graphs are predicted worse than cross-validation promises (docs/design.md has the
// measurement). labels are the training labels (Unlabeled for graphs without one). A model
// with a graph encoder is left as it is: the encoder embeds every graph by the same forward
// pass.
func (m *Model) Reembed(ctx context.Context, data []*graphs.Graph, labels []int, steps int, opt training.Options) error {
	if m.Encoder != nil {
		return nil
	}
	if r, _ := m.GWF.Z.Dims(); r != len(data) || len(labels) != len(data) {
		return fmt.Errorf("semisup: reembed %d graphs with %d labels for a model of %d graphs", len(data), len(labels), r)
	}
	z, err := training.Transform(ctx, m.GWF, data, steps, opt)
	if err != nil {
		return fmt.Errorf("semisup: reembed the training graphs: %w", err)
	}
	if err := m.Head.Train(m.Config.HeadInput(z), labels, m.Config.Head); err != nil {
		return fmt.Errorf("semisup: reembed: %w", err)
	}
	m.GWF.Z = z
	return nil
}
