package semisup

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// Config is the semi-supervised part of a model's configuration.
type Config struct {
	Beta       float64    `json:"beta"`       // weight of the classification loss (β ≥ 0)
	Hidden     []int      `json:"hidden"`     // hidden layer sizes of the head (none: linear)
	Activation Activation `json:"activation"` // ReLU or Tanh
	// Input is what the head reads: InputCentered (z_i minus its mean over the atoms),
	// InputLambda (softmax(z_i)) or InputZ (the raw embedding, as eq. (ssl) writes it; "" means
	// InputZ).
	Input Input `json:"input,omitempty"`
	// Detach stops the cross-entropy's gradient at the embeddings: the head learns from the GWF
	// embeddings, which the labels do not move (a departure from eq. (ssl), where they do).
	// DefaultDetach says when it is the default; a file without the key (false is not
	// written) reads false.
	Detach bool `json:"detach,omitempty"`
	// Encoder is EncoderNone (or ""): one free embedding z_i per graph, as in the paper; or
	// EncoderGCN or EncoderGIN: z_i = GNN(G_i), a graph encoder trained jointly through the GWF
	// term and the cross-entropy (GWF as the regulariser of a larger model), which embeds unseen
	// graphs with one forward pass.
	Encoder EncoderKind `json:"encoder,omitempty"`
	// EncoderHidden are the encoder's hidden widths (none: DefaultEncoderHidden).
	EncoderHidden []int `json:"encoder_hidden,omitempty"`
	// EncoderLearningRate is the Adam learning rate of the encoder's weights (0: the GWF
	// model's, which the atoms and the head take).
	EncoderLearningRate float64 `json:"encoder_learning_rate,omitempty"`
	// NoGWF trains without the GWF term (the head's cross-entropy alone, with the encoder or
	// free embeddings): the baseline that shows what the GWF term adds.
	NoGWF bool `json:"no_gwf,omitempty"`
	// Head, when Head.Steps > 0, finishes training: after the joint epochs the head alone is
	// trained to convergence on the labelled graphs' final embeddings (see Fit).
	Head HeadTraining `json:"head_training"`
}

// Input is what a classifier's head reads of the embeddings (Config.Input); its JSON is the
// name, and "" means InputZ.
type Input string

// The head inputs.
const (
	InputZ        Input = "z"
	InputLambda   Input = "lambda"
	InputCentered Input = "centered"
)

// Valid reports whether in is one of the head inputs or "".
func (in Input) Valid() bool {
	switch in {
	case "", InputZ, InputLambda, InputCentered:
		return true
	}
	return false
}

// HeadInput is the matrix the head reads for embeddings z (one row per graph).
func (c Config) HeadInput(z *mat.Dense) *mat.Dense {
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

// DefaultConfig returns β = 0.1, one hidden layer of 32 ReLU units reading the centred
// embedding z − mean(z)·1 (InputCentered), free embeddings with the cross-entropy detached
// from them (Detach: DefaultDetach(EncoderNone)), and DefaultHeadTraining after the joint
// epochs. With an encoder (Encoder gcn or gin), set Detach to DefaultDetach(Encoder), false.
//
// Why these (measurements in docs/results.md, Table 2): the loss sees z only through softmax,
// so z's component along 1 is unidentified; centring removes exactly that component and keeps
// z's scale, where λ = softmax(z) and log λ sit at scales the head does not learn from. β weighs
// a cross-entropy of order 1 per labelled graph against a GWF loss of order 0.01–0.1 per graph:
// larger values move the labelled embeddings away from what their structure says. The joint
// epochs give the head one Adam step per mini-batch that holds labelled graphs, too few to fit
// it while its inputs move, hence the training after them. Detach: see DefaultDetach.
func DefaultConfig() Config {
	return Config{Beta: 0.1, Hidden: []int{32}, Activation: ReLU, Input: InputCentered, Detach: DefaultDetach(EncoderNone), Head: DefaultHeadTraining()}
}

// DefaultDetach is the default of Config.Detach for the encoder (Config.Encoder): true for free
// embeddings ("" or EncoderNone), false for a graph encoder (gcn, gin). A free z_i is moved by
// the cross-entropy only where graph i is labelled, away from the unlabelled graphs of its
// class: the labelled graphs are fitted and the held-out ones are not (docs/results.md, Table 2,
// has the measurement), so the labels train the head alone. An encoder's shared weights carry
// the labels to every graph, so they train it too (eq. ssl); Validate refuses to detach them.
// Without the GWF term (NoGWF) nothing else trains the embeddings, so Detach must be false
// there too. 'gwf semisup --method gwf' and notebooks/table2 apply this unless told.
func DefaultDetach(encoder EncoderKind) bool { return !(Config{Encoder: encoder}).UsesEncoder() }

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
	if !c.Activation.Valid() {
		return fmt.Errorf("semisup: activation %q, want relu or tanh", c.Activation)
	}
	if !c.Encoder.IsFree() && !c.Encoder.IsGNN() {
		return fmt.Errorf("semisup: encoder %q, want none, gcn or gin", c.Encoder)
	}
	for _, h := range c.EncoderHidden {
		if h < 1 || h > maxWidth {
			return fmt.Errorf("semisup: encoder layer of %d units (1 to %d)", h, maxWidth)
		}
	}
	if lr := c.EncoderLearningRate; !(lr >= 0 && lr <= float64(training.MaxLearningRate)) {
		return fmt.Errorf("semisup: encoder learning rate %v, want 0 (the GWF model's) to %g", lr, float64(training.MaxLearningRate))
	}
	if c.Detach && c.UsesEncoder() && c.Beta > 0 {
		// The encoder's embeddings exist only inside the graph being built: there is no value
		// to hand the head as a detached copy. (With β = 0 there is no head term to detach.)
		return fmt.Errorf("semisup: detach with the %s encoder: its weights are shared by every graph, so the labels train it (set detach false; DefaultDetach)", c.Encoder)
	}
	if c.Detach && c.NoGWF {
		return fmt.Errorf("semisup: detach without the GWF term (no_gwf): nothing would train the embeddings (set detach false)")
	}
	if c.NoGWF && c.Beta == 0 {
		return fmt.Errorf("semisup: without the GWF term (no_gwf) β must be positive: nothing would be trained")
	}
	if !c.Input.Valid() {
		return fmt.Errorf("semisup: head input %q, want z, centered or lambda", c.Input)
	}
	if err := c.checkBounds(); err != nil {
		return err
	}
	return c.Head.Validate()
}

// Model is a GWF model with a classifier head on its embeddings.
type Model struct {
	GWF  *training.Model
	Head *MLP
	// Encoder computes the embeddings (Config.Encoder gcn or gin); nil for free embeddings.
	Encoder *GNN
	Config  Config
	History []EpochStats
	// Optimizer is the Adam state after the last epoch of History (nil before training): with
	// it, a saved model resumes exactly.
	Optimizer *OptimizerState
	// HeadTrainedAt is the number of epochs after which the head was last trained alone
	// (Config.Head); 0 if never. Fit does not train it again at the same epoch, so resuming a
	// finished model changes nothing.
	HeadTrainedAt int
	// ClassLabels say which of the data's labels head output c stands for.
	ClassLabels
}

// OptimizerState is the joint Adam state after epoch Epoch: the atoms' solver (V_k then H_k),
// the head's (W_l then b_l) and each z_i's.
type OptimizerState struct {
	Epoch int                  `json:"epoch"`
	Done  int                  `json:"done,omitempty"` // graphs of the next epoch trained (a stop mid-epoch)
	Atoms training.AdamState   `json:"atoms"`
	Head  training.AdamState   `json:"head"`
	Z     []training.AdamState `json:"z"`
	// Encoder is the encoder's solver (Config.Encoder gcn or gin).
	Encoder *training.AdamState `json:"encoder,omitempty"`
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
	m, err := training.NewModel(graphs.Slice(data), gwf)
	if err != nil {
		return nil, err
	}
	head, err := NewMLP(gwf.Atoms, cfg.Hidden, classes, cfg.Activation, rand.New(rand.NewPCG(gwf.Seed, 0x6d6c70)))
	if err != nil {
		return nil, fmt.Errorf("semisup: %w", err)
	}
	out := &Model{GWF: m, Head: head, Config: cfg}
	if cfg.UsesEncoder() {
		hidden := cfg.EncoderHidden
		if len(hidden) == 0 {
			hidden = DefaultEncoderHidden()
		}
		if out.Encoder, err = NewGNN(cfg.Encoder, InputDim(m.Dim()), hidden, gwf.Atoms, rand.New(rand.NewPCG(gwf.Seed, 0x676e6e))); err != nil {
			return nil, fmt.Errorf("semisup: %w", err)
		}
		if out.GWF.Z, err = out.Encoder.Embed(data); err != nil {
			return nil, fmt.Errorf("semisup: %w", err)
		}
	}
	return out, nil
}

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
	Workers int
	// Observe receives the training steps (and, in the experiments that take these Options,
	// their messages).
	Observe training.Observer
	// EpochDone, if set, is called after every epoch (to save a checkpoint); an error stops.
	EpochDone func(*Model) error
}

// Fit trains m on data jointly (eq. ssl) from the epoch after its last one up to
// m.GWF.Config.Epochs, through the trainer of package training (training.Fit): shuffled
// mini-batches (seeded by the GWF seed and the epoch), one Gorgonia graph per batch holding the
// batch's GWF loss and β times the head's cross-entropy on its labelled graphs (a
// training.Term), one backward pass, and one Adam step each for the atoms, the head and every
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
	if len(gm.History) != len(m.History) {
		return fmt.Errorf("semisup: the GWF model has %d epochs, the classifier %d", len(gm.History), len(m.History))
	}
	if err := m.checkOptimizer(); err != nil {
		return err
	}
	gm.Optimizer = nil
	if st := m.Optimizer; st != nil {
		gm.Optimizer = &training.OptimizerState{Epoch: st.Epoch, Done: st.Done, Atoms: st.Atoms, Z: st.Z, Terms: []training.AdamState{st.Head}, Encoder: st.Encoder}
	}
	head := &headTerm{m: m, labels: labels}
	embedded := false // an epoch ended with the encoder's forward pass of every graph
	var enc training.Encoder
	if m.Encoder != nil {
		if enc, err = m.Encoder.Bind(data); err != nil {
			return fmt.Errorf("semisup: %w", err)
		}
	}
	err = training.Fit(ctx, gm, graphs.Slice(data), training.Options{
		Workers: opt.Workers, Observe: opt.Observe, Terms: []training.Term{head}, Encoder: enc, WithoutGWF: m.Config.NoGWF,
		EncoderLearningRate: m.Config.EncoderLearningRate,
		EpochDone: func(gm *training.Model) error {
			if m.Encoder != nil {
				// Z holds each graph's embedding from its batch of this epoch, made with the
				// weights of that step: the epoch's model embeds them all with its final ones.
				z, err := m.Encoder.Embed(data)
				if err != nil {
					return fmt.Errorf("semisup: %w", err)
				}
				gm.Z.Copy(z)
				embedded = true
			}
			h := gm.History[len(gm.History)-1]
			st := EpochStats{Epoch: h.Epoch, GWF: h.Loss, Seconds: h.Seconds}
			if labelled > 0 && m.Config.Beta > 0 {
				st.CE = h.Terms[0] / m.Config.Beta / float64(labelled)
			}
			m.History = append(m.History, st)
			m.Optimizer = m.stateOf(gm.Optimizer)
			if opt.EpochDone != nil {
				return opt.EpochDone(m)
			}
			return nil
		},
	})
	if gm.Optimizer != nil && gm.Optimizer.Done > 0 { // stopped mid-epoch: keep the position
		m.Optimizer = m.stateOf(gm.Optimizer)
	}
	if err != nil {
		return err
	}
	if m.Encoder != nil && !embedded { // no epoch ran: Z may be a file's, of other weights
		if gm.Z, err = m.Encoder.Embed(data); err != nil {
			return fmt.Errorf("semisup: %w", err)
		}
	}
	if m.Config.Head.Steps == 0 || labelled == 0 || m.HeadTrainedAt == len(m.History) {
		return nil
	}
	if err := m.Head.Train(m.Config.HeadInput(gm.Z), labels, m.Config.Head); err != nil {
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

// UsesEncoder reports whether the embeddings come from a graph encoder.
func (c Config) UsesEncoder() bool { return c.Encoder.IsGNN() }

// stateOf is the classifier's view of the trainer's Adam state (the head is its one term).
func (m *Model) stateOf(st *training.OptimizerState) *OptimizerState {
	out := &OptimizerState{Epoch: st.Epoch, Done: st.Done, Atoms: st.Atoms, Z: st.Z, Encoder: st.Encoder}
	if len(st.Terms) == 1 {
		out.Head = st.Terms[0]
	}
	return out
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
	if (st.Encoder != nil) != (m.Encoder != nil) {
		return fmt.Errorf("optimizer state with an encoder: %v, model with one: %v", st.Encoder != nil, m.Encoder != nil)
	}
	if st.Encoder != nil {
		var enc []int
		for _, p := range m.Encoder.Params() {
			enc = append(enc, p.Shape().TotalSize())
		}
		if err := st.Encoder.Check(enc); err != nil {
			return fmt.Errorf("optimizer state of the encoder: %w", err)
		}
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

// headTerm is the classification part of eq. (ssl) as a term of the trainer: β times the
// cross-entropy of the head on the batch's labelled graphs.
type headTerm struct {
	m      *Model
	labels []int
}

// Params are the head's weights W_l then its biases b_l (as 1×c matrices).
func (h *headTerm) Params() []*tensor.Dense {
	var ps []*tensor.Dense
	for _, w := range h.m.Head.W {
		r, c := w.Dims()
		ps = append(ps, tensor.New(tensor.WithShape(r, c), tensor.WithBacking(w.RawMatrix().Data)))
	}
	for _, b := range h.m.Head.B {
		ps = append(ps, tensor.New(tensor.WithShape(1, len(b)), tensor.WithBacking(b)))
	}
	return ps
}

// Build adds β·Σ_labelled −log softmax(head(x_i))_label for the batch, or nothing when the batch
// has no labelled graph or β = 0.
func (h *headTerm) Build(g *gorgonia.ExprGraph, z *gorgonia.Node, params gorgonia.Nodes, batch []int) (*gorgonia.Node, error) {
	m := h.m
	if m.Config.Beta == 0 {
		return nil, nil
	}
	classes := m.Head.Classes()
	onehot := make([]float64, len(batch)*classes)
	labelled := 0
	for r, i := range batch {
		if l := h.labels[i]; l != Unlabeled {
			onehot[r*classes+l] = 1
			labelled++
		}
	}
	if labelled == 0 {
		return nil, nil
	}
	zIn := z
	if m.Config.Detach {
		// The head reads a copy of Z: its cross-entropy trains the head only.
		v := z.Value().Data().([]float64)
		zIn = gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(z.Shape().Clone()...), tensor.WithBacking(append([]float64(nil), v...))), gorgonia.WithName("Z_head"))
	}
	x := zIn
	var err error
	switch m.Config.Input {
	case InputLambda:
		x, err = gorgonia.SoftMax(zIn)
	case InputCentered:
		k := m.GWF.K()
		p := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(k, k), tensor.WithBacking(centering(k).RawMatrix().Data)), gorgonia.WithName("centering"))
		x, err = gorgonia.Mul(zIn, p)
	}
	if err != nil {
		return nil, err
	}
	nl := len(m.Head.W)
	logits, err := m.Head.logits(x, mlpNodes{w: params[:nl], b: params[nl:]})
	if err != nil {
		return nil, err
	}
	rows := make([]float64, len(batch))
	for r := range batch {
		for c := 0; c < classes; c++ {
			rows[r] += onehot[r*classes+c]
		}
	}
	ce, err := crossEntropyNode(g, logits, onehot, rows)
	if err != nil {
		return nil, err
	}
	return gorgonia.Mul(gorgonia.NewConstant(m.Config.Beta), ce)
}

// crossEntropyNode is Σ_r rows_r·(logsumexp(logits_r) − <logits_r, onehot_r>), computed with
// each row's maximum subtracted first: Gorgonia's LogSoftMax overflows on large logits, and a
// −∞ times a zero of the label mask is NaN.
func crossEntropyNode(g *gorgonia.ExprGraph, logits *gorgonia.Node, onehot, rows []float64) (*gorgonia.Node, error) {
	b, c := logits.Shape()[0], logits.Shape()[1]
	mask := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(b, c), tensor.WithBacking(onehot)), gorgonia.WithName("labels"))
	rowMask := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(b), tensor.WithBacking(rows)), gorgonia.WithName("labelled"))
	mx, err := gorgonia.Max(logits, 1)
	if err != nil {
		return nil, err
	}
	shifted, err := gorgonia.BroadcastSub(logits, gorgonia.Must(gorgonia.Reshape(mx, []int{b, 1})), nil, []byte{1})
	if err != nil {
		return nil, err
	}
	lse, err := gorgonia.Log(gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.Exp(shifted)), 1)))
	if err != nil {
		return nil, err
	}
	picked, err := gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(shifted, mask)), 1)
	if err != nil {
		return nil, err
	}
	per, err := gorgonia.Sub(lse, picked)
	if err != nil {
		return nil, err
	}
	return gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(per, rowMask)))
}

// Describe names the settings that tell candidates of a selection apart: β, detach, the
// head's weight decay and hidden sizes, the encoder's learning rate where set.
func (c Config) Describe() string {
	s := fmt.Sprintf("β = %g, detach %v, head decay %g, hidden %v", c.Beta, c.Detach, c.Head.WeightDecay, c.Hidden)
	if c.EncoderLearningRate > 0 {
		s += fmt.Sprintf(", encoder lr %g", c.EncoderLearningRate)
	}
	return s
}
