package semisup

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// EncoderTrainer trains GWF models whose embeddings come from a graph encoder, without labels:
// z_i = GNN(G_i), the atoms and the encoder's weights trained by the GWF term alone (β = 0) —
// the model of the "trained by the GWF term alone" baseline of the classification, here for
// unsupervised use. It is an experiment.Trainer: `gwf cluster --encoder gin` clusters its
// embeddings.
type EncoderTrainer struct {
	Kind         EncoderKind // EncoderGCN or EncoderGIN
	Hidden       []int       // hidden widths (nil: DefaultEncoderHidden)
	LearningRate float64     // Adam learning rate of the encoder's weights (0: the GWF model's)
}

// config is the classifier configuration that trains the encoder without labels.
func (t EncoderTrainer) config() Config {
	c := DefaultConfig()
	c.Beta, c.Head.Steps = 0, 0
	c.Encoder, c.EncoderHidden, c.EncoderLearningRate = t.Kind, t.Hidden, t.LearningRate
	c.Detach = DefaultDetach(t.Kind)
	return c
}

// Validate checks the encoder's settings.
func (t EncoderTrainer) Validate() error {
	if !t.Kind.IsGNN() {
		return fmt.Errorf("semisup: encoder %q, want gcn or gin", t.Kind)
	}
	return t.config().Validate()
}

// Name describes the encoder, e.g. "gin 32,32" or "gin 32,32 lr 0.01": recorded with the runs
// trained by it.
func (t EncoderTrainer) Name() string {
	hidden := t.Hidden
	if len(hidden) == 0 {
		hidden = DefaultEncoderHidden()
	}
	w := make([]string, len(hidden))
	for i, h := range hidden {
		w[i] = fmt.Sprint(h)
	}
	s := string(t.Kind) + " " + strings.Join(w, ",")
	if t.LearningRate != 0 {
		s += fmt.Sprintf(" lr %g", t.LearningRate)
	}
	return s
}

// Train trains a model of data with the GWF configuration cfg and returns it with Z holding
// every graph's embedding under the final encoder. Of opt it uses Workers and Observe; it
// cannot leave graphs out (SkipNonFinite), since the encoder's weights are shared by all.
func (t EncoderTrainer) Train(ctx context.Context, data []*graphs.Graph, cfg training.Config, opt training.Options) (*training.Model, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if opt.SkipNonFinite {
		return nil, errors.New("semisup: an encoder cannot skip non-finite graphs: its weights are shared by all graphs")
	}
	m, err := NewModel(data, 2, cfg, t.config()) // the head is never trained: β = 0 and no labels
	if err != nil {
		return nil, err
	}
	if err := Fit(ctx, m, data, NoLabels(len(data)), Options{Workers: opt.Workers, Observe: opt.Observe}); err != nil {
		return nil, err
	}
	return m.GWF, nil
}
