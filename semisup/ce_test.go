package semisup

import (
	"math"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestCrossEntropyLargeLogits: logits far beyond exp's range give the exact, finite
// cross-entropy and finite gradients (Gorgonia's LogSoftMax gave NaN on them).
func TestCrossEntropyLargeLogits(t *testing.T) {
	g := gorgonia.NewGraph()
	logits := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(3, 2), tensor.WithBacking([]float64{1e5, 0, 0, -1e5, 3, 1})), gorgonia.WithName("logits"))
	// row 0 labelled 1 (CE 1e5), row 1 labelled 0 (CE ≈ 0), row 2 unlabelled.
	ce, err := crossEntropyNode(g, logits, []float64{0, 1, 1, 0, 0, 0}, []float64{1, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	grads, err := gorgonia.Grad(ce, logits)
	if err != nil {
		t.Fatal(err)
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	if v := ce.Value().Data().(float64); math.Abs(v-1e5) > 1e-6 {
		t.Errorf("cross-entropy %v, want 1e5", v)
	}
	want := []float64{1, -1, 0, 0, 0, 0} // softmax − onehot on labelled rows, 0 elsewhere
	for i, v := range grads[0].Value().Data().([]float64) {
		if math.Abs(v-want[i]) > 1e-9 {
			t.Errorf("gradient %d = %v, want %v", i, v, want[i])
		}
	}
}
