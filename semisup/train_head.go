package semisup

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/layers/tape"
)

// HeadTraining configures MLP.Train: full-batch Adam on the mean cross-entropy of the labelled
// rows plus WeightDecay·Σ‖W_l‖² (the biases are not decayed).
type HeadTraining struct {
	Steps        int     `json:"steps"`
	LearningRate float64 `json:"learning_rate"`
	WeightDecay  float64 `json:"weight_decay"`
}

// DefaultHeadTraining: 500 steps at learning rate 0.01 with weight decay 1e-4 (common defaults
// for a small MLP, not tuned on any dataset's labels).
func DefaultHeadTraining() HeadTraining {
	return HeadTraining{Steps: 500, LearningRate: 0.01, WeightDecay: 1e-4}
}

// MaxHeadSteps bounds HeadTraining.Steps (a full-batch step each), so that a mistyped flag or
// a hostile model file cannot ask for endless work.
const MaxHeadSteps = 1_000_000

// Validate checks the settings (Steps = 0 is valid: no training).
func (h HeadTraining) Validate() error {
	if h.Steps < 0 || h.Steps > MaxHeadSteps {
		return fmt.Errorf("semisup: head training steps = %d must be between 0 and %d", h.Steps, MaxHeadSteps)
	}
	if h.Steps > 0 && !(h.LearningRate > 0) {
		return fmt.Errorf("semisup: head learning rate = %v must be positive", h.LearningRate)
	}
	if !(h.WeightDecay >= 0) {
		return fmt.Errorf("semisup: head weight decay = %v must be ≥ 0", h.WeightDecay)
	}
	return nil
}

// Train fits the head to the rows of x whose label is not Unlabeled, in place. It is
// deterministic: full batches, no sampling.
func (m *MLP) Train(x *mat.Dense, labels []int, h HeadTraining) error {
	if err := h.Validate(); err != nil {
		return err
	}
	rows, in := x.Dims()
	if in != m.Inputs() || len(labels) != rows {
		return fmt.Errorf("semisup: head training on %d×%d inputs with %d labels for a head of %d inputs", rows, in, len(labels), m.Inputs())
	}
	var xs, ys []float64
	n, classes := 0, m.Classes()
	for i, l := range labels {
		if l == Unlabeled {
			continue
		}
		if l < 0 || l >= classes {
			return fmt.Errorf("semisup: label %d of row %d is not a class of 0..%d", l, i, classes-1)
		}
		xs = append(xs, x.RawRowView(i)...)
		onehot := make([]float64, classes)
		onehot[l] = 1
		ys = append(ys, onehot...)
		n++
	}
	if n == 0 {
		return errors.New("semisup: no labelled row to train the head on")
	}
	if h.Steps == 0 {
		return nil
	}
	g, grads, err := tape.Build(func() (*gorgonia.ExprGraph, gorgonia.Nodes, error) { return m.trainingGraph(xs, ys, n, h.WeightDecay) })
	if err != nil {
		return fmt.Errorf("semisup: head training: %w", err)
	}
	var ps []*param
	var vgs []gorgonia.ValueGrad
	for _, w := range m.W {
		ps = append(ps, matrixParam(w))
	}
	for _, b := range m.B {
		ps = append(ps, newParam(b, 1, len(b)))
	}
	for _, p := range ps {
		vgs = append(vgs, p)
	}
	solver := gorgonia.NewAdamSolver(gorgonia.WithLearnRate(h.LearningRate))
	machine := gorgonia.NewTapeMachine(g)
	defer machine.Close()
	for s := 0; s < h.Steps; s++ {
		machine.Reset() // a TapeMachine that is not reset does not run again
		if err := machine.RunAll(); err != nil {
			return fmt.Errorf("semisup: head training step %d: %w", s+1, err)
		}
		for j, gn := range grads {
			copy(ps[j].gradData(), gn.Value().Data().([]float64))
		}
		if err := checkFiniteGrads(ps); err != nil {
			return fmt.Errorf("semisup: head training step %d: %w", s+1, err)
		}
		if err := solver.Step(vgs); err != nil {
			return fmt.Errorf("semisup: head training step %d: %w", s+1, err)
		}
	}
	return nil
}

// trainingGraph builds the mean cross-entropy of the n labelled rows xs (one-hot labels ys) plus
// weightDecay·Σ‖W_l‖², and its gradients w.r.t. the weights then the biases.
func (m *MLP) trainingGraph(xs, ys []float64, n int, weightDecay float64) (*gorgonia.ExprGraph, gorgonia.Nodes, error) {
	g := gorgonia.NewGraph()
	xn := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(n, m.Inputs()), gorgonia.WithName("x"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(n, m.Inputs()), tensor.WithBacking(xs))))
	head := m.nodes(g)
	logits, err := m.logits(xn, head)
	if err != nil {
		return nil, nil, err
	}
	// Mean cross-entropy: (1/n)·Σ_rows −log softmax(logits)_label, overflow-safe.
	every := make([]float64, n)
	for i := range every {
		every[i] = 1
	}
	ce, err := crossEntropyNode(g, logits, ys, every)
	if err != nil {
		return nil, nil, err
	}
	loss := gorgonia.Must(gorgonia.Mul(ce, gorgonia.NewConstant(1/float64(n))))
	if weightDecay > 0 {
		for _, w := range head.w {
			sq := gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.Square(w))))
			loss = gorgonia.Must(gorgonia.Add(loss, gorgonia.Must(gorgonia.Mul(gorgonia.NewConstant(weightDecay), sq))))
		}
	}
	params := append(append(gorgonia.Nodes{}, head.w...), head.b...)
	grads, err := gorgonia.Grad(loss, params...)
	if err != nil {
		return nil, nil, fmt.Errorf("gradients: %w", err)
	}
	return g, grads, nil
}

func checkFiniteGrads(ps []*param) error {
	for _, p := range ps {
		if !finite(p.gradData()) {
			return errors.New("a gradient is not finite")
		}
	}
	return nil
}

func finite(xs []float64) bool {
	for _, v := range xs {
		if v-v != 0 { // NaN or ±Inf
			return false
		}
	}
	return true
}
