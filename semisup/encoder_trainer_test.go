package semisup

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
	"github.com/gwf-graphs/gwf/training"
)

// TestEncoderTrainerIsTheUnsupervisedEncoder: EncoderTrainer trains the model of the
// classification's "encoder trained by the GWF term alone" baseline — its embeddings are bit
// for bit those of FitUnsupervised's last epoch with the same encoder — the GWF loss falls, the
// embeddings are the final encoder's for every graph, and bad settings are refused.
func TestEncoderTrainerIsTheUnsupervisedEncoder(t *testing.T) {
	data, _ := semisuptest.TwoStructures(t, 12, 43)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 3
	tr := EncoderTrainer{Kind: EncoderGIN, Hidden: []int{6}, LearningRate: 0.01}
	if got := tr.Name(); got != "gin 6 lr 0.01" {
		t.Errorf("Name %q", got)
	}
	if got := (EncoderTrainer{Kind: EncoderGCN}).Name(); got != "gcn 32,32" {
		t.Errorf("default Name %q", got)
	}
	m, err := tr.Train(context.Background(), data, gwf, training.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.History) != 3 || !(m.History[2].Loss < m.History[0].Loss) {
		t.Errorf("history %+v: want 3 epochs with the loss falling", m.History)
	}
	// The model of FitUnsupervised's encoder, trained the same way: the same atoms, and Z is
	// the final encoder's embedding of every graph (not each graph's from its last batch).
	ref, err := NewModel(data, 2, gwf, tr.config())
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), ref, data, NoLabels(len(data)), Options{}); err != nil {
		t.Fatal(err)
	}
	final, err := ref.Encoder.Embed(data)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(m.Z, final) || !mat.Equal(m.V[0], ref.GWF.V[0]) {
		t.Error("the trainer's model is not the unsupervised encoder's: embeddings or atoms differ")
	}

	for name, bad := range map[string]EncoderTrainer{
		"none":   {Kind: EncoderNone},
		"kind":   {Kind: "gat"},
		"width":  {Kind: EncoderGIN, Hidden: []int{0}},
		"lr":     {Kind: EncoderGIN, LearningRate: -1},
		"lr NaN": {Kind: EncoderGIN, LearningRate: math.NaN()},
	} {
		if _, err := bad.Train(context.Background(), data, gwf, training.Options{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := tr.Train(context.Background(), data, gwf, training.Options{SkipNonFinite: true}); err == nil {
		t.Error("SkipNonFinite: no error")
	}
}
