package semisup

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
)

// Encoder auto returns, of the ensembles trained without an encoder and with the GIN encoder on
// the same seeds, the one whose members score better on their validation splits (the first on
// a tie): the same members, predicting the same.
func TestTemplatesEncoderAuto(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 16, 1)
	cfg := smallTemplateConfig()
	cfg.Epochs, cfg.Validation, cfg.Members = 2, 0.5, 2
	trained := map[string]*TemplateEnsemble{}
	for _, enc := range []string{EncoderNone, EncoderGIN, EncoderAuto} {
		c := cfg
		c.Encoder = enc
		e, err := TrainTemplates(context.Background(), data, labels, 2, c, TemplateOptions{Workers: 2})
		if err != nil {
			t.Fatalf("encoder %s: %v", enc, err)
		}
		trained[enc] = e
	}
	none, gin := trained[EncoderNone].ValidationAccuracy(), trained[EncoderGIN].ValidationAccuracy()
	if none == gin {
		t.Fatalf("both encoders score %v on validation: the test needs settings where they differ", none)
	}
	want := EncoderNone
	if gin > none {
		want = EncoderGIN
	}
	auto := trained[EncoderAuto]
	for k, m := range auto.Members {
		if m.Config.Encoder != want {
			t.Fatalf("member %d has encoder %q; validation accuracies none %v, gin %v", k+1, m.Config.Encoder,
				trained[EncoderNone].ValidationAccuracy(), trained[EncoderGIN].ValidationAccuracy())
		}
	}
	got, err := auto.Probabilities(context.Background(), data, 2)
	if err != nil {
		t.Fatal(err)
	}
	same, err := trained[want].Probabilities(context.Background(), data, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, same) {
		t.Error("encoder auto predicts other than the ensemble it chose")
	}
	if v := auto.ValidationAccuracy(); !(v >= 0 && v <= 1) {
		t.Errorf("validation accuracy %v", v)
	}

	// Auto chooses on the validation split: without one it is refused, and a single model
	// (which has one encoder) never takes it.
	c := cfg
	c.Encoder, c.Validation = EncoderAuto, 0
	if _, err := TrainTemplates(context.Background(), data, labels, 2, c, TemplateOptions{}); err == nil {
		t.Error("encoder auto without a validation split accepted")
	}
	c.Validation = 0.25
	if _, err := NewTemplateModel(data, labels, 2, c); err == nil {
		t.Error("a single model with encoder auto accepted")
	}
}
