package semisup

import (
	"context"
	"slices"
	"testing"

	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
	"github.com/gwf-graphs/gwf/training"
)

// TestReembedSameFooting: after Reembed, the training graphs are predicted from embeddings made
// exactly as an unseen graph's are (PredictNew on the same graphs gives the same classes), and
// unseen graphs are still classified.
func TestReembedSameFooting(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 40, 13)
	m, err := NewModel(data, 2, semisuptest.SmallGWF(), Config{Beta: 0.1, Hidden: []int{8}, Activation: ReLU, Detach: true, Head: DefaultHeadTraining()})
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, data, labels, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := m.Reembed(context.Background(), data, labels, 0, training.Options{}); err != nil {
		t.Fatal(err)
	}
	asNew, err := m.PredictNew(context.Background(), data, 0, training.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Predict(); !slices.Equal(got, asNew) {
		t.Fatalf("training graphs predicted %v from the re-embedded z, %v as unseen graphs", got, asNew)
	}
	fresh, truth := semisuptest.TwoStructures(t, 20, 14)
	pred, err := m.PredictNew(context.Background(), fresh, 0, training.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if acc := accuracy(truth, pred); acc < 0.8 {
		t.Errorf("accuracy on unseen graphs %.2f", acc)
	}
	if err := m.Reembed(context.Background(), data[:3], labels[:3], 0, training.Options{}); err == nil {
		t.Error("reembedding 3 graphs into a model of 40 was accepted")
	}
}
