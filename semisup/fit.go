package semisup

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/nodes"
	"github.com/gwf-graphs/gwf/training"
)

// Config is the semi-supervised part of a model's configuration.
type Config struct {
	Beta       float64 `json:"beta"`       // weight of the classification loss (β ≥ 0)
	Hidden     []int   `json:"hidden"`     // hidden layer sizes of the head (none: linear)
	Activation string  `json:"activation"` // relu or tanh
	// Input is what the head reads: "centered" (z_i minus its mean over the atoms), "lambda"
	// (softmax(z_i)) or "z" (the raw embedding, as eq. (ssl) writes it; "" means z).
	Input string `json:"input,omitempty"`
	// Detach stops the cross-entropy's gradient at the embeddings: the head learns from the GWF
	// embeddings, which the labels do not move (a departure from eq. (ssl), where they do).
	Detach bool `json:"detach,omitempty"`
	// Head, when Head.Steps > 0, finishes training: after the joint epochs the head alone is
	// trained to convergence on the labelled graphs' final embeddings (see Fit).
	Head HeadTraining `json:"head_training"`
}

// Head inputs.
const (
	InputZ        = "z"
	InputLambda   = "lambda"
	InputCentered = "centered"
)

// headInput is the matrix the head reads for embeddings z (one row per graph).
func (c Config) headInput(z *mat.Dense) *mat.Dense {
	switch c.Input {
	case InputLambda:
		return training.Lambda(z)
	case InputCentered:
		var c mat.Dense
		c.Mul(z, centering(z.RawMatrix().Cols))
		return &c
	}
	return z
}

// centering is I − (1/K)·11ᵀ: right-multiplied, it removes each row's mean.
func centering(k int) *mat.Dense {
	p := mat.NewDense(k, k, nil)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			p.Set(i, j, -1/float64(k))
		}
		p.Set(i, i, 1-1/float64(k))
	}
	return p
}

// DefaultConfig: β = 0.1, one hidden layer of 32 ReLU units reading the centred embedding
// z − mean(z)·1. Not z: the loss sees z only through softmax, so z's component along 1 is
// unidentified and moves in ways the GWF term never sees; centring removes exactly that
// component and keeps z's scale. Not λ = softmax(z) nor log λ: λ's entries stay near 1/K and
// log λ near −log K, scales at which the head learned nothing in 10 epochs on MUTAG (it
// predicted the majority class at every labelled fraction). β sets the balance between a
// GWF loss of order 0.01–0.1 per graph and a cross-entropy of order 1 per labelled graph: with
// β = 1 the classification term moves the labelled embeddings away from what their structure
// says and the head stops generalising to unlabelled graphs (4-fold accuracies 1, 1, 1, 0 on the
// synthetic two-structure problem of the tests), while β = 0.1 and 0.01 give 1, 1, 1, 1.
//
// The head also gets DefaultHeadTraining after the joint epochs: during them it takes one Adam
// step per mini-batch that holds labelled graphs (60 steps in 10 epochs on MUTAG), too few to
// fit it, while its inputs keep moving.
func DefaultConfig() Config {
	return Config{Beta: 0.1, Hidden: []int{32}, Activation: ReLU, Input: InputCentered, Head: DefaultHeadTraining()}
}

// Validate checks the configuration.
func (c Config) Validate() error {
	if !(c.Beta >= 0) || math.IsInf(c.Beta, 0) {
		return fmt.Errorf("semisup: beta = %v must be a finite number ≥ 0", c.Beta)
	}
	for _, h := range c.Hidden {
		if h < 1 {
			return fmt.Errorf("semisup: hidden layer of %d units", h)
		}
	}
	if c.Activation != ReLU && c.Activation != Tanh {
		return fmt.Errorf("semisup: activation %q, want relu or tanh", c.Activation)
	}
	if c.Input != "" && c.Input != InputZ && c.Input != InputLambda && c.Input != InputCentered {
		return fmt.Errorf("semisup: head input %q, want z, centered or lambda", c.Input)
	}
	return c.Head.Validate()
}

// Model is a GWF model with a classifier head on its embeddings.
type Model struct {
	GWF     *training.Model
	Head    *MLP
	Config  Config
	History []EpochStats
	// Optimizer is the Adam state after the last epoch of History (nil before training): with
	// it, a saved model resumes exactly.
	Optimizer *OptimizerState
	// HeadTrainedAt is the number of epochs after which the head was last trained alone
	// (Config.Head); 0 if never. Fit does not train it again at the same epoch, so resuming a
	// finished model changes nothing.
	HeadTrainedAt int
}

// OptimizerState is the joint Adam state after epoch Epoch: the atoms' solver (V_k then H_k),
// the head's (W_l then b_l) and each z_i's.
type OptimizerState struct {
	Epoch int                  `json:"epoch"`
	Atoms training.AdamState   `json:"atoms"`
	Head  training.AdamState   `json:"head"`
	Z     []training.AdamState `json:"z"`
}

// EpochStats records one epoch: the mean GWF loss per graph and the mean cross-entropy per
// labelled graph.
type EpochStats struct {
	Epoch   int     `json:"epoch"`
	GWF     float64 `json:"gwf_loss"`
	CE      float64 `json:"cross_entropy"`
	Seconds float64 `json:"seconds"`
}

// NewModel initialises the GWF model (training.NewModel) and a head for classes classes.
func NewModel(data []*graphs.Graph, classes int, gwf training.Config, cfg Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m, err := training.NewModel(data, gwf)
	if err != nil {
		return nil, err
	}
	head, err := NewMLP(gwf.Atoms, cfg.Hidden, classes, cfg.Activation, rand.New(rand.NewPCG(gwf.Seed, 0x6d6c70)))
	if err != nil {
		return nil, fmt.Errorf("semisup: %w", err)
	}
	return &Model{GWF: m, Head: head, Config: cfg}, nil
}

// Unlabeled marks a graph without a label in the labels given to Fit.
const Unlabeled = -1

// checkLabels validates one label per graph: a class of the head or Unlabeled.
func (m *Model) checkLabels(data []*graphs.Graph, labels []int) (labelled int, err error) {
	if len(labels) != len(data) {
		return 0, fmt.Errorf("semisup: %d labels for %d graphs", len(labels), len(data))
	}
	for i, l := range labels {
		switch {
		case l == Unlabeled:
		case l < 0 || l >= m.Head.Classes():
			return 0, fmt.Errorf("semisup: graph %q has label %d, not a class of 0..%d (or %d for unlabelled)", data[i].Name, l, m.Head.Classes()-1, Unlabeled)
		default:
			labelled++
		}
	}
	if labelled == 0 && m.Config.Beta > 0 {
		return 0, errors.New("semisup: no labelled graph (β > 0 needs some)")
	}
	return labelled, nil
}

// Options control how Fit runs; results do not depend on them.
type Options struct {
	Workers  int
	Progress func(training.Progress)
	// EpochDone, if set, is called after every epoch (to save a checkpoint); an error stops.
	EpochDone func(*Model) error
}

// Fit trains m on data jointly (eq. ssl) from the epoch after its last one up to
// m.GWF.Config.Epochs: shuffled mini-batches (seeded by the GWF seed and the epoch), one
// Gorgonia graph per batch holding the batch's GWF loss and the head's cross-entropy on its
// labelled graphs, one backward pass, and one Adam step each for the atoms, the head and every
// z_i of the batch.
//
// Then, with m.Config.Head.Steps > 0 and some labelled graph, the head alone is trained on the
// final embeddings (MLP.Train): the same objective minimised over the head with the atoms and
// embeddings fixed (the GWF term does not depend on the head), to convergence. EpochDone is
// called once more after it.
func Fit(ctx context.Context, m *Model, data []*graphs.Graph, labels []int, opt Options) error {
	if err := m.Config.Validate(); err != nil {
		return err
	}
	labelled, err := m.checkLabels(data, labels)
	if err != nil {
		return err
	}
	gm := m.GWF
	if err := gm.Config.Validate(); err != nil {
		return err
	}
	if r, _ := gm.Z.Dims(); r != len(data) {
		return fmt.Errorf("semisup: the model has %d embeddings for %d graphs", r, len(data))
	}
	fwd, err := gm.Config.Forward()
	if err != nil {
		return err
	}
	o, err := newOptimizers(m)
	if err != nil {
		return err
	}
	cfg := gm.Config
	start := time.Now()
	first := len(m.History)
	for epoch := first + 1; epoch <= cfg.Epochs; epoch++ {
		t0 := time.Now()
		order := rand.New(rand.NewPCG(cfg.Seed, uint64(epoch))).Perm(len(data))
		var gwfSum, ceSum float64
		for b := 0; b < len(order); b += cfg.Batch {
			if err := ctx.Err(); err != nil {
				return err
			}
			batch := order[b:min(b+cfg.Batch, len(order))]
			g, ce, err := m.step(o, fwd, data, labels, batch, opt.Workers)
			if err != nil {
				return fmt.Errorf("epoch %d, batch %d: %w", epoch, b/cfg.Batch+1, err)
			}
			gwfSum += g
			ceSum += ce
			if opt.Progress != nil {
				done := b + len(batch)
				processed := (epoch-first-1)*len(data) + done
				rate := float64(processed) / time.Since(start).Seconds()
				remaining := (cfg.Epochs-first)*len(data) - processed
				opt.Progress(training.Progress{Epoch: epoch, Epochs: cfg.Epochs, Done: done, Total: len(data),
					Loss: gwfSum / float64(done), GraphsPerSec: rate, Elapsed: time.Since(start),
					ETA: time.Duration(float64(remaining) / rate * float64(time.Second))})
			}
		}
		st := EpochStats{Epoch: epoch, GWF: gwfSum / float64(len(data)), Seconds: time.Since(t0).Seconds()}
		if labelled > 0 {
			st.CE = ceSum / float64(labelled)
		}
		m.History = append(m.History, st)
		gm.History = append(gm.History, training.EpochStats{Epoch: epoch, Loss: st.GWF, Seconds: st.Seconds})
		if m.Optimizer, err = o.snapshot(len(m.History)); err != nil {
			return fmt.Errorf("after epoch %d: %w", epoch, err)
		}
		if opt.EpochDone != nil {
			if err := opt.EpochDone(m); err != nil {
				return fmt.Errorf("after epoch %d: %w", epoch, err)
			}
		}
	}
	if m.Config.Head.Steps == 0 || labelled == 0 || m.HeadTrainedAt == len(m.History) {
		return nil
	}
	if err := m.Head.Train(m.Config.headInput(gm.Z), labels, m.Config.Head); err != nil {
		return err
	}
	m.HeadTrainedAt = len(m.History)
	if opt.EpochDone != nil {
		if err := opt.EpochDone(m); err != nil {
			return fmt.Errorf("after training the head: %w", err)
		}
	}
	return nil
}

// checkOptimizer checks that the Adam state, if any, fits the model's parameters.
func (m *Model) checkOptimizer() error {
	st := m.Optimizer
	if st == nil {
		return nil
	}
	rows, k := m.GWF.Z.Dims()
	if st.Epoch < 0 || st.Epoch > len(m.History) || len(st.Z) != rows {
		return fmt.Errorf("optimizer state after epoch %d for %d embeddings; the model has %d epochs and %d embeddings", st.Epoch, len(st.Z), len(m.History), rows)
	}
	var atoms, head []int
	for _, v := range m.GWF.V {
		r, c := v.Dims()
		atoms = append(atoms, r*c)
	}
	for _, h := range m.GWF.H {
		r, c := h.Dims()
		atoms = append(atoms, r*c)
	}
	for _, w := range m.Head.W {
		r, c := w.Dims()
		head = append(head, r*c)
	}
	for _, b := range m.Head.B {
		head = append(head, len(b))
	}
	if err := st.Atoms.Check(atoms); err != nil {
		return fmt.Errorf("optimizer state of the atoms: %w", err)
	}
	if err := st.Head.Check(head); err != nil {
		return fmt.Errorf("optimizer state of the head: %w", err)
	}
	for i, z := range st.Z {
		if err := z.Check([]int{k}); err != nil {
			return fmt.Errorf("optimizer state of embedding %d: %w", i, err)
		}
	}
	return nil
}

// batchGradients are the results of one batch's backward pass.
type batchGradients struct {
	gwf, ce float64     // the batch's GWF loss and cross-entropy sums
	atoms   [][]float64 // per atom parameter (V_k, then H_k)
	z       []float64   // B×K, row r for batch[r]
	head    [][]float64 // per head parameter (W_l, then b_l); nil without a labelled graph or with β = 0
}

// step computes the batch's gradients and applies one Adam step to everything.
func (m *Model) step(o *optimizers, fwd layers.Forward, data []*graphs.Graph, labels []int, batch []int, workers int) (gwfLoss, ce float64, err error) {
	gr, err := m.gradients(fwd, data, labels, batch, workers)
	if err != nil {
		return 0, 0, err
	}
	K := m.GWF.K()
	for k, d := range gr.atoms {
		copy(o.atomParams[k].gradData(), d)
	}
	if err := o.atoms.Step(o.atomValueGrads); err != nil {
		return 0, 0, fmt.Errorf("adam step on the atoms: %w", err)
	}
	for r, i := range batch {
		copy(o.z[i].param.gradData(), gr.z[r*K:(r+1)*K])
		if err := o.stepZ(i, m.GWF.Config.LearningRate); err != nil {
			return 0, 0, fmt.Errorf("adam step on z of graph %q: %w", data[i].Name, err)
		}
	}
	if gr.head != nil {
		for j, d := range gr.head {
			copy(o.headParams[j].gradData(), d)
		}
		if err := o.head.Step(o.headValueGrads); err != nil {
			return 0, 0, fmt.Errorf("adam step on the head: %w", err)
		}
	}
	return gr.gwf, gr.ce, nil
}

// gradients builds the batch's Gorgonia graph — the GWF loss of the batch (one op) plus β times
// the head's cross-entropy on the batch's labelled graphs — and runs one backward pass.
func (m *Model) gradients(fwd layers.Forward, data []*graphs.Graph, labels []int, batch []int, workers int) (*batchGradients, error) {
	gm := m.GWF
	K := gm.K()
	g := gorgonia.NewGraph()
	atoms := make([]nodes.AtomNodes, K)
	var atomNodes gorgonia.Nodes
	for k, v := range gm.V {
		atoms[k] = nodes.AtomNodes{V: sharedNode(g, fmt.Sprintf("V%d", k), v), Mu: gm.AtomMu[k]}
		atomNodes = append(atomNodes, atoms[k].V)
	}
	for k, h := range gm.H {
		atoms[k].H = sharedNode(g, fmt.Sprintf("H%d", k), h)
		atomNodes = append(atomNodes, atoms[k].H)
	}
	zb := mat.NewDense(len(batch), K, nil)
	obs := make([]layers.Space, len(batch))
	onehot := mat.NewDense(len(batch), m.Head.Classes(), nil)
	nLabelled := 0
	for r, i := range batch {
		zb.SetRow(r, gm.Z.RawRowView(i))
		obs[r] = layers.Space{C: data[i].C, Mu: data[i].Mu, F: data[i].F}
		if l := labels[i]; l != Unlabeled {
			onehot.Set(r, l, 1)
			nLabelled++
		}
	}
	zNode := sharedNode(g, "Z", zb)
	gwfNode, err := nodes.BatchLoss{Forward: fwd, Workers: workers}.Build(g, atoms, zNode, obs)
	if err != nil {
		return nil, err
	}
	total := gwfNode
	params := append(append(gorgonia.Nodes{}, atomNodes...), zNode)
	var ceNode *gorgonia.Node
	if nLabelled > 0 && m.Config.Beta > 0 {
		head := m.Head.nodes(g)
		zIn := zNode
		if m.Config.Detach {
			// The head reads a copy of Z: its cross-entropy trains the head only.
			zIn = sharedNode(g, "Z_head", mat.DenseCopyOf(zb))
		}
		x := zIn
		switch m.Config.Input {
		case InputLambda:
			x, err = gorgonia.SoftMax(zIn)
		case InputCentered:
			k := gm.K()
			p := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(k, k), gorgonia.WithName("centering"),
				gorgonia.WithValue(tensor.New(tensor.WithShape(k, k), tensor.WithBacking(centering(k).RawMatrix().Data))))
			x, err = gorgonia.Mul(zIn, p)
		}
		if err != nil {
			return nil, err
		}
		logits, err := m.Head.logits(x, head)
		if err != nil {
			return nil, err
		}
		mask := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(len(batch), m.Head.Classes()), gorgonia.WithName("labels"),
			gorgonia.WithValue(tensor.New(tensor.WithShape(len(batch), m.Head.Classes()), tensor.WithBacking(onehot.RawMatrix().Data))))
		// Σ_labelled −log softmax(logits)_label (the mask's rows are zero for unlabelled graphs).
		ceNode = gorgonia.Must(gorgonia.Neg(gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(gorgonia.Must(gorgonia.LogSoftMax(logits)), mask))))))
		total = gorgonia.Must(gorgonia.Add(gwfNode, gorgonia.Must(gorgonia.Mul(gorgonia.NewConstant(m.Config.Beta), ceNode))))
		params = append(params, head.w...)
		params = append(params, head.b...)
	}
	grads, err := gorgonia.Grad(total, params...)
	if err != nil {
		return nil, fmt.Errorf("gradients: %w", err)
	}
	machine := gorgonia.NewTapeMachine(g)
	defer machine.Close()
	if err := machine.RunAll(); err != nil {
		return nil, err
	}
	data64 := make([][]float64, len(grads))
	for i, gn := range grads {
		d, ok := gn.Value().Data().([]float64)
		if !ok {
			return nil, fmt.Errorf("the gradient of %s is not a float64 tensor", params[i].Name())
		}
		for _, v := range d {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("the gradient of %s is not finite", params[i].Name())
			}
		}
		data64[i] = append([]float64(nil), d...)
	}
	gr := &batchGradients{gwf: gwfNode.Value().Data().(float64), atoms: data64[:len(atomNodes)], z: data64[len(atomNodes)]}
	if ceNode != nil {
		gr.ce = ceNode.Value().Data().(float64)
		gr.head = data64[len(atomNodes)+1:]
	}
	return gr, nil
}

// sharedNode is a matrix node whose value shares m's storage.
func sharedNode(g *gorgonia.ExprGraph, name string, m *mat.Dense) *gorgonia.Node {
	r, c := m.Dims()
	return gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(r, c), gorgonia.WithName(name),
		gorgonia.WithValue(tensor.New(tensor.WithShape(r, c), tensor.WithBacking(m.RawMatrix().Data))))
}
