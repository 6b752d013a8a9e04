package semisup

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
)

// TestHeadTrainFitsBlobs: two Gaussian blobs in 3-D, a third of them unlabelled; the trained
// head classifies every point, labelled or not, and the unlabelled rows do not count.
func TestHeadTrainFitsBlobs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 60
	x := mat.NewDense(n, 3, nil)
	truth := make([]int, n)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		truth[i] = i % 2
		for j := 0; j < 3; j++ {
			x.Set(i, j, 0.3*rng.NormFloat64()+float64(2*truth[i]-1)*0.5)
		}
		labels[i] = truth[i]
		if i%3 == 0 {
			labels[i] = Unlabeled
		}
	}
	head, err := NewMLP(3, []int{8}, 2, ReLU, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	before := accuracy(truth, head.Predict(x))
	if err := head.Train(x, labels, DefaultHeadTraining()); err != nil {
		t.Fatal(err)
	}
	after := accuracy(truth, head.Predict(x))
	if after < 0.95 {
		t.Errorf("accuracy %.2f after training (%.2f before), want ≥ 0.95", after, before)
	}
	// Unlabelled rows are ignored: flipping their inputs changes nothing.
	head2, _ := NewMLP(3, []int{8}, 2, ReLU, rand.New(rand.NewPCG(3, 4)))
	y := mat.DenseCopyOf(x)
	for i := 0; i < n; i += 3 {
		y.Set(i, 0, 100)
	}
	if err := head2.Train(y, labels, DefaultHeadTraining()); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(head.W[0], head2.W[0]) {
		t.Error("the unlabelled rows changed the training")
	}
}

func TestHeadTrainErrors(t *testing.T) {
	head, _ := NewMLP(2, nil, 2, ReLU, rand.New(rand.NewPCG(1, 1)))
	x := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	for name, tc := range map[string]struct {
		x      *mat.Dense
		labels []int
		h      HeadTraining
	}{
		"no labelled row": {x, []int{Unlabeled, Unlabeled, Unlabeled}, DefaultHeadTraining()},
		"unknown class":   {x, []int{0, 2, 1}, DefaultHeadTraining()},
		"label count":     {x, []int{0, 1}, DefaultHeadTraining()},
		"input width":     {mat.NewDense(3, 3, nil), []int{0, 1, 0}, DefaultHeadTraining()},
		"negative steps":  {x, []int{0, 1, 0}, HeadTraining{Steps: -1, LearningRate: 0.01}},
		"zero rate":       {x, []int{0, 1, 0}, HeadTraining{Steps: 5}},
		"negative decay":  {x, []int{0, 1, 0}, HeadTraining{Steps: 5, LearningRate: 0.01, WeightDecay: -1}},
	} {
		if err := head.Train(tc.x, tc.labels, tc.h); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestFitTrainsHeadOnce: Fit ends by training the head alone (HeadTrainedAt records the
// epoch); the saved model keeps that, and fitting the finished model again changes nothing.
func TestFitTrainsHeadOnce(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 16, 29)
	labels[2], labels[5] = Unlabeled, Unlabeled
	cfg := semisuptest.SmallGWF()
	cfg.Epochs = 2
	sc := Config{Beta: 0.1, Hidden: []int{4}, Activation: ReLU, Input: InputCentered, Head: HeadTraining{Steps: 30, LearningRate: 0.01}}
	m, err := NewModel(data, 2, cfg, sc)
	if err != nil {
		t.Fatal(err)
	}
	saves := 0
	if err := Fit(context.Background(), m, data, labels, Options{EpochDone: func(*Model) error { saves++; return nil }}); err != nil {
		t.Fatal(err)
	}
	if m.HeadTrainedAt != 2 || saves != 3 {
		t.Fatalf("HeadTrainedAt = %d after %d saves, want 2 after 3 (two epochs and the head)", m.HeadTrainedAt, saves)
	}
	path := t.TempDir() + "/m.json"
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.HeadTrainedAt != 2 || loaded.Config.Head != sc.Head {
		t.Fatalf("loaded HeadTrainedAt %d, head training %+v", loaded.HeadTrainedAt, loaded.Config.Head)
	}
	w := mat.DenseCopyOf(loaded.Head.W[0])
	if err := Fit(context.Background(), loaded, data, labels, Options{}); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(w, loaded.Head.W[0]) {
		t.Error("fitting a finished model trained its head again")
	}
}
