package semisup

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
)

// Per predicted class, the most confident share of its rows take the class, at least one.
func TestPseudoLabelsMostConfidentPerClass(t *testing.T) {
	p := mat.NewDense(7, 3, []float64{
		0.9, 0.05, 0.05, // class 0, the most confident of 4
		0.6, 0.3, 0.1, // class 0
		0.5, 0.4, 0.1, // class 0, the least confident
		0.8, 0.1, 0.1, // class 0, the second
		0.2, 0.7, 0.1, // class 1, alone: kept
		0.1, 0.2, 0.7, // class 2, the more confident of 2
		0.3, 0.3, 0.4, // class 2
	})
	got := pseudoLabels(p, 0.5)
	want := []int{0, Unlabeled, Unlabeled, 0, 1, 2, Unlabeled}
	if !slices.Equal(got, want) {
		t.Errorf("share 0.5: %v, want %v", got, want)
	}
	if got := pseudoLabels(p, 1); !slices.Equal(got, ArgMax(p)) {
		t.Errorf("share 1: %v, want every prediction %v", got, ArgMax(p))
	}
	if got := pseudoLabels(p, 0.01); !slices.Equal(got, []int{0, Unlabeled, Unlabeled, Unlabeled, 1, 2, Unlabeled}) {
		t.Errorf("share 0.01: %v, want one per class", got)
	}
}

// Self-training's first round is the model trained on the labels alone, bit for bit; the
// second trains on pseudo-labels that only graphs without a label get, validates on the
// same true labels as the first (never on a pseudo-label), and is another model.
func TestSelfTrainingRounds(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 24, 5)
	few := slices.Clone(labels)
	for i := 8; i < len(few); i++ {
		few[i] = Unlabeled
	}
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.Validation, cfg.Members = 4, 0.25, 2
	alone, err := TrainTemplates(context.Background(), data, few, 2, cfg, TemplateOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if alone.SelfTraining != nil {
		t.Error("an ensemble without pseudo-labels records self-training")
	}
	cfg.PseudoLabels = 0.5
	self, err := TrainTemplates(context.Background(), data, few, 2, cfg, TemplateOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	st := self.SelfTraining
	if st == nil {
		t.Fatal("no self-training recorded")
	}
	pred, err := alone.Predict(context.Background(), data[8:], 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(st.LabelsAlone[8:], pred) || slices.ContainsFunc(st.LabelsAlone[:8], func(c int) bool { return c != Unlabeled }) {
		t.Errorf("round 1 predicted %v, the model on the labels alone %v", st.LabelsAlone, pred)
	}
	if n := st.PseudoLabelled(); n < 2 || n > 10 {
		t.Errorf("%d of 16 graphs pseudo-labelled with share 0.5", n)
	}
	for i, c := range st.Pseudo {
		if i < 8 && c != Unlabeled {
			t.Errorf("labelled graph %d got pseudo-label %d", i, c)
		}
		if c != Unlabeled && c != st.LabelsAlone[i] {
			t.Errorf("graph %d: pseudo-label %d, round 1 predicted %d", i, c, st.LabelsAlone[i])
		}
	}
	for k, m := range self.Members {
		if m.validGraphs != alone.Members[k].validGraphs {
			t.Errorf("member %d validates on %d graphs, on the labels alone %d", k+1, m.validGraphs, alone.Members[k].validGraphs)
		}
		if m.Config.PseudoLabels != 0 || m.Config.Seed != MemberSeed(cfg.Seed, k) {
			t.Errorf("member %d: %+v", k+1, m.Config)
		}
	}
	a, _ := alone.Probabilities(context.Background(), data, 1)
	b, _ := self.Probabilities(context.Background(), data, 1)
	if mat.EqualApprox(a, b, 1e-12) {
		t.Error("the self-trained ensemble scores as the one on the labels alone")
	}
}

// With every graph labelled there is nothing to self-train on: the model is the plain one.
func TestSelfTrainingNeedsUnlabelledGraphs(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 8, 3)
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.Members, cfg.PseudoLabels = 2, 1, 0.5
	e, err := TrainTemplates(context.Background(), data, labels, 2, cfg, TemplateOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if e.SelfTraining != nil {
		t.Error("self-training ran without unlabelled graphs")
	}
}
