package crossval

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
	"github.com/gwf-graphs/gwf/training"
)

// TestFitUnsupervisedIsTheEncoderTrainer: the classification's "encoder trained by the GWF term
// alone" baseline trains the model semisup.EncoderTrainer trains: its last epoch's embeddings
// are bit for bit the trainer's.
func TestFitUnsupervisedIsTheEncoderTrainer(t *testing.T) {
	data, _ := semisuptest.TwoStructures(t, 12, 43)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 3
	tr := semisup.EncoderTrainer{Kind: semisup.EncoderGIN, Hidden: []int{6}, LearningRate: 0.01}
	m, err := tr.Train(context.Background(), data, gwf, training.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := semisup.DefaultConfig() // what EncoderTrainer trains: β = 0, no head steps
	cfg.Beta, cfg.Head.Steps = 0, 0
	cfg.Encoder, cfg.EncoderHidden, cfg.EncoderLearningRate = tr.Kind, tr.Hidden, tr.LearningRate
	u, err := FitUnsupervised(context.Background(), data, 2, gwf, cfg, semisup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(m.Z, u.Z[len(u.Z)-1]) { // every epoch's embeddings are its final encoder's
		t.Error("the unsupervised model's last embeddings are not the trainer's")
	}
}
