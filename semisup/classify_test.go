package semisup

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
	"github.com/gwf-graphs/gwf/training"
)

// TestClassProbabilities: the training graphs are read from the trained embeddings, new
// graphs go through transform mode, rows are distributions, and the class names survive a
// save and load.
func TestClassProbabilities(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 20, 4)
	unseen, _ := semisuptest.TwoStructures(t, 6, 5)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 2
	m, err := NewModel(data, 2, gwf, Config{Beta: 0.1, Hidden: []int{4}, Activation: ReLU, Head: HeadTraining{Steps: 20, LearningRate: 0.05}})
	if err != nil {
		t.Fatal(err)
	}
	m.Classes = []int{-1, 1}
	if err := Fit(context.Background(), m, data, labels, Options{}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := m.Encode(&b); err != nil {
		t.Fatal(err)
	}
	m2, err := Decode(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if m2.Label(0) != -1 || m2.Label(1) != 1 {
		t.Fatalf("class names after load: %v", m2.Classes)
	}
	p, transformed, err := m2.ClassProbabilities(context.Background(), data, 0, false, training.Options{})
	if err != nil || transformed {
		t.Fatalf("training data: transformed %v, %v", transformed, err)
	}
	for i, c := range ArgMax(p) {
		if c != m.Predict()[i] {
			t.Fatalf("graph %d: class %d from the probabilities, %d from Predict", i, c, m.Predict()[i])
		}
	}
	q, transformed, err := m2.ClassProbabilities(context.Background(), unseen, 5, false, training.Options{})
	if err != nil || !transformed {
		t.Fatalf("new graphs: transformed %v, %v", transformed, err)
	}
	if r, _ := q.Dims(); r != len(unseen) {
		t.Fatalf("%d rows for %d graphs", r, len(unseen))
	}
	for i := range len(unseen) {
		if s := q.At(i, 0) + q.At(i, 1); math.Abs(s-1) > 1e-12 {
			t.Errorf("row %d sums to %v", i, s)
		}
	}
	// A file whose class labels or names do not match the head is corrupt.
	m.Classes = []int{1, 2, 3}
	b.Reset()
	if err := m.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(&b); err == nil || !strings.Contains(err.Error(), "3 class labels") {
		t.Errorf("3 class labels for 2 classes: %v", err)
	}
	m.Classes, m.ClassNames = nil, []string{"a", "b", "c"}
	b.Reset()
	if err := m.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(&b); err == nil || !strings.Contains(err.Error(), "3 class names") {
		t.Errorf("3 class names for 2 classes: %v", err)
	}
	m.ClassNames = []string{"a", "b"}
	b.Reset()
	if err := m.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if back, err := Decode(&b); err != nil || back.LabelText(1) != "b" || back.LabelText(5) != "5" {
		t.Errorf("class names round trip: %v", err)
	}
}
