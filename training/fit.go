package training

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/nodes"
)

// Options control how Fit runs and what it adds to the GWF loss. Apart from Terms, they do not
// change what Fit computes: results for a given model and data are the same whatever the
// workers, callbacks or interruptions.
type Options struct {
	// Workers is the number of goroutines that process a batch's graphs (0: GOMAXPROCS).
	Workers int
	// Terms are added to the GWF loss of every mini-batch (see Term); their Adam state is kept
	// in Model.Optimizer.Terms, in order. None: Algorithm 4, unsupervised.
	Terms []Term
	// WithoutGWF leaves the GWF term out: the objective is the Terms alone and the atoms are
	// not stepped (a baseline for what the GWF term adds; the reported GWF loss is 0).
	WithoutGWF bool
	// Encoder, if set, computes the embeddings from the graphs instead of the free rows of
	// Model.Z (see Encoder); its Adam state is Model.Optimizer.Encoder.
	Encoder Encoder
	// Progress, if set, is called after every batch.
	Progress func(Progress)
	// EpochDone, if set, is called after every completed epoch (to write a checkpoint); an
	// error stops training.
	EpochDone func(*Model) error
	// SkipNonFinite leaves out of its batch a graph whose forward pass fails numerically or
	// whose loss or gradients are NaN or infinite, reporting it to Warn, instead of stopping
	// with an error (the default).
	SkipNonFinite bool
	// Warn, if set, receives the warnings of SkipNonFinite.
	Warn func(string)
	// Offset (Transform only) is the position of the first graph in a larger corpus.
	Offset int

	frozen bool // Transform: the atoms are not stepped
}

// Progress describes the state of training after a batch.
type Progress struct {
	Epoch, Epochs int
	Done, Total   int     // graphs processed in this epoch, and per epoch
	Loss          float64 // mean GWF loss of this epoch's graphs so far
	GraphsPerSec  float64
	Elapsed, ETA  time.Duration // for the whole run (all remaining epochs)
}

// Fit trains m on data (Algorithm 4, plus Options.Terms) from the epoch after the last one in
// m.History up to m.Config.Epochs. It is the one training loop of the module: each epoch
// shuffles the graphs with an RNG derived from the seed and the epoch number and cuts them
// into batches; each batch is one Gorgonia expression graph — the batch's GWF loss as one node
// (nodes.BatchLoss: the forward passes on the fast kernels in parallel, transports detached)
// plus the extra terms — differentiated by Gorgonia, and Gorgonia's Adam takes one step for
// the atoms, one for each z_i of the batch and one per term. It stops with ctx's error at the
// next batch boundary when ctx is cancelled.
//
// After every epoch m.Optimizer holds the Adam state, so that a model saved then (a checkpoint)
// resumes exactly: the same result as an uninterrupted run, whatever the number of workers.
// When ctx stops training mid-epoch, m.Partial and m.Optimizer record the position and state
// at that batch boundary: saved, the model resumes exactly from there.
func Fit(ctx context.Context, m *Model, data []*graphs.Graph, opt Options) error {
	if err := m.check(data); err != nil {
		return err
	}
	tr, err := newTrainer(m, data, opt)
	if err != nil {
		return err
	}
	return tr.run(ctx)
}

// check verifies that the model fits the data.
func (m *Model) check(data []*graphs.Graph) error {
	if err := m.Config.Validate(); err != nil {
		return err
	}
	dim, err := checkData(data)
	if err != nil {
		return err
	}
	if dim != m.Dim() {
		return fmt.Errorf("the data has %d-dimensional node features, the model %d", dim, m.Dim())
	}
	if r, _ := m.Z.Dims(); r != len(data) {
		return fmt.Errorf("the model has %d embeddings for %d graphs", r, len(data))
	}
	if fp := Fingerprint(data); m.Fingerprint != "" && fp != m.Fingerprint {
		return fmt.Errorf("the data (fingerprint %s) is not the data the model was trained on (%s)", fp, m.Fingerprint)
	}
	return nil
}

// trainer holds what one Fit needs between batches.
type trainer struct {
	m    *Model
	data []*graphs.Graph
	opt  Options
	loss nodes.BatchLoss
	adam *optimizer
}

func newTrainer(m *Model, data []*graphs.Graph, opt Options) (*trainer, error) {
	fwd, err := m.Config.Forward()
	if err != nil {
		return nil, err
	}
	o, err := newOptimizer(m, opt.Terms, opt.Encoder)
	if err != nil {
		return nil, fmt.Errorf("restore the optimizer: %w", err)
	}
	return &trainer{
		m: m, data: data, opt: opt, adam: o,
		loss: nodes.BatchLoss{Forward: fwd, Workers: opt.Workers, SkipNonFinite: opt.SkipNonFinite, Workspace: new(nodes.Workspace)},
	}, nil
}

// run is the epoch loop.
func (tr *trainer) run(ctx context.Context) error {
	m, cfg, opt := tr.m, tr.m.Config, tr.opt
	start := time.Now()
	first := len(m.History)
	// A model stopped mid-epoch resumes at the batch where it stopped.
	var resume PartialEpoch
	if p := m.Partial; p != nil && p.Epoch == first+1 {
		resume = *p
	}
	m.Partial = nil
	runTotal := (cfg.Epochs-first)*len(tr.data) - resume.Done
	for epoch := first + 1; epoch <= cfg.Epochs; epoch++ {
		t0 := time.Now()
		order := rand.New(rand.NewPCG(cfg.Seed, uint64(epoch))).Perm(len(tr.data))
		var lossSum, prior float64
		termSums := make([]float64, len(opt.Terms))
		b0 := 0
		if epoch == first+1 {
			b0, lossSum, prior = resume.Done, resume.LossSum, resume.Seconds
			copy(termSums, resume.TermSums)
		}
		for b := b0; b < len(order); b += cfg.Batch {
			if err := ctx.Err(); err != nil {
				// A safe point: record where the epoch stands, so a checkpoint resumes here.
				if b > 0 {
					m.Partial = &PartialEpoch{Epoch: epoch, Done: b, LossSum: lossSum, Seconds: prior + time.Since(t0).Seconds(), TermSums: termSums}
					if m.Optimizer, err = tr.adam.snapshot(len(m.History), b); err != nil {
						return fmt.Errorf("epoch %d: %w", epoch, err)
					}
				}
				return ctx.Err()
			}
			batch := order[b:min(b+cfg.Batch, len(order))]
			l, terms, err := tr.step(batch)
			if err != nil {
				return fmt.Errorf("epoch %d, batch %d: %w", epoch, b/cfg.Batch+1, err)
			}
			lossSum += l
			for j, v := range terms {
				termSums[j] += v
			}
			if opt.Progress != nil {
				done := b + len(batch)
				elapsed := time.Since(start)
				processed := (epoch-first-1)*len(tr.data) + done - resume.Done
				rate := float64(processed) / elapsed.Seconds()
				opt.Progress(Progress{
					Epoch: epoch, Epochs: cfg.Epochs, Done: done, Total: len(tr.data),
					Loss: lossSum / float64(done), GraphsPerSec: rate, Elapsed: elapsed,
					ETA: time.Duration(float64(runTotal-processed) / rate * float64(time.Second)),
				})
			}
		}
		st := EpochStats{Epoch: epoch, Loss: lossSum / float64(len(tr.data)), Seconds: prior + time.Since(t0).Seconds()}
		if len(termSums) > 0 {
			st.Terms = termSums
		}
		m.History = append(m.History, st)
		var err error
		if m.Optimizer, err = tr.adam.snapshot(len(m.History), 0); err != nil {
			return fmt.Errorf("after epoch %d: %w", epoch, err)
		}
		if opt.EpochDone != nil {
			if err := opt.EpochDone(m); err != nil {
				return fmt.Errorf("after epoch %d: %w", epoch, err)
			}
		}
	}
	return nil
}

// Gradients are the losses and gradients of one mini-batch, before any step.
type Gradients struct {
	Loss  float64     // the batch's GWF loss (sum over its graphs)
	Terms []float64   // each extra term's value (0 where it added nothing)
	Atoms [][]float64 // w.r.t. V_k, then H_k
	Z     []float64   // w.r.t. the batch's embeddings, B×K, row r for batch[r] (free embeddings)
	// Encoder holds the gradients w.r.t. the encoder's Params (with Options.Encoder).
	Encoder [][]float64
	// Embeddings are the batch's embeddings, B×K (the encoder's outputs, or Z's rows).
	Embeddings []float64
	// TermParams holds, per term, the gradients w.r.t. its Params (nil where it added nothing).
	TermParams [][][]float64
	// Skipped are the positions in the batch of graphs left out (Options.SkipNonFinite).
	Skipped []int
}

// BatchGradients computes the losses and gradients of one mini-batch (indices into data) as a
// training step of Fit would — the same expression graph — without changing the model.
func BatchGradients(m *Model, data []*graphs.Graph, batch []int, opt Options) (*Gradients, error) {
	if err := m.check(data); err != nil {
		return nil, err
	}
	for _, i := range batch {
		if i < 0 || i >= len(data) {
			return nil, fmt.Errorf("batch index %d out of range [0, %d)", i, len(data))
		}
	}
	if len(batch) == 0 {
		return nil, fmt.Errorf("empty batch")
	}
	tr, err := newTrainer(m, data, opt)
	if err != nil {
		return nil, err
	}
	return tr.gradients(batch)
}

// gradients builds the batch's expression graph and runs it forward and backward. Every
// gradient is checked to be finite.
func (tr *trainer) gradients(batch []int) (*Gradients, error) {
	m, o := tr.m, tr.adam
	K := m.K()
	g := gorgonia.NewGraph()
	gwf := !tr.opt.WithoutGWF
	atoms := make([]nodes.AtomNodes, K)
	var wrt gorgonia.Nodes // the atoms (with the GWF term), then Z or the encoder, then the terms
	for k, p := range o.v {
		atoms[k] = nodes.AtomNodes{V: paramNode(g, fmt.Sprintf("V%d", k), p.value), Mu: m.AtomMu[k]}
		if gwf {
			wrt = append(wrt, atoms[k].V)
		}
	}
	for k, p := range o.h {
		atoms[k].H = paramNode(g, fmt.Sprintf("H%d", k), p.value)
		if gwf {
			wrt = append(wrt, atoms[k].H)
		}
	}
	zb := make([]float64, len(batch)*K)
	obs := make([]layers.Space, len(batch))
	for r, i := range batch {
		copy(zb[r*K:(r+1)*K], m.Z.RawRowView(i))
		d := tr.data[i]
		obs[r] = layers.Space{C: d.C, Mu: d.Mu, F: d.F}
	}
	var zNode *gorgonia.Node
	encAt := len(wrt)
	if enc := tr.opt.Encoder; enc != nil {
		var pn gorgonia.Nodes
		for q, p := range o.encoder.params {
			pn = append(pn, paramNode(g, fmt.Sprintf("enc_%d", q), p.value))
		}
		var err error
		if zNode, err = enc.Encode(g, pn, batch); err != nil {
			return nil, fmt.Errorf("encoder: %w", err)
		}
		if s := zNode.Shape(); zNode.Dims() != 2 || s[0] != len(batch) || s[1] != K {
			return nil, fmt.Errorf("encoder: embeddings of shape %v, want (%d, %d)", zNode.Shape(), len(batch), K)
		}
		wrt = append(wrt, pn...)
	} else {
		zNode = paramNode(g, "Z", tensor.New(tensor.WithShape(len(batch), K), tensor.WithBacking(zb)))
		wrt = append(wrt, zNode)
	}
	var bl *nodes.Batch
	var total *gorgonia.Node
	if gwf {
		var err error
		if bl, err = tr.loss.BuildBatch(g, atoms, zNode, obs); err != nil {
			return nil, err
		}
		total = bl.Loss
	}
	termNodes := make([]*gorgonia.Node, len(tr.opt.Terms))
	termWrt := make([]int, len(tr.opt.Terms)) // where each present term's params start in wrt
	for j, t := range tr.opt.Terms {
		var pn gorgonia.Nodes
		for q, p := range o.terms[j].params {
			pn = append(pn, paramNode(g, fmt.Sprintf("term%d_%d", j, q), p.value))
		}
		tn, err := t.Build(g, zNode, pn, batch)
		if err != nil {
			return nil, fmt.Errorf("term %d: %w", j, err)
		}
		if tn == nil {
			continue
		}
		termNodes[j], termWrt[j] = tn, len(wrt)
		wrt = append(wrt, pn...)
		if total == nil {
			total = tn
		} else if total, err = gorgonia.Add(total, tn); err != nil {
			return nil, fmt.Errorf("term %d: %w", j, err)
		}
	}
	if total == nil { // no GWF term and no term in this batch: nothing to learn from
		return &Gradients{Terms: make([]float64, len(termNodes)), TermParams: make([][][]float64, len(termNodes))}, nil
	}
	grads, err := gorgonia.Grad(total, wrt...)
	if err != nil {
		return nil, fmt.Errorf("gradients: %w", err)
	}
	machine := gorgonia.NewTapeMachine(g)
	defer machine.Close()
	if err := machine.RunAll(); err != nil {
		if bl != nil && bl.Failure() != nil {
			ge := bl.Failure()
			return nil, fmt.Errorf("graph %q: %w", tr.data[batch[ge.Index]].Name, ge.Err)
		}
		return nil, err
	}
	out := &Gradients{Terms: make([]float64, len(termNodes)), TermParams: make([][][]float64, len(termNodes))}
	var skipped []*nodes.GraphError
	if bl != nil {
		out.Loss, skipped = bl.Loss.Value().Data().(float64), bl.Skipped()
	}
	for _, ge := range skipped {
		out.Skipped = append(out.Skipped, ge.Index)
		if tr.opt.Warn != nil {
			tr.opt.Warn(fmt.Sprintf("skipped: graph %q: %v", tr.data[batch[ge.Index]].Name, ge.Err))
		}
	}
	gd := make([][]float64, len(grads))
	for q, gn := range grads {
		d, ok := gn.Value().Data().([]float64)
		if !ok {
			return nil, fmt.Errorf("the gradient of %s is not a float64 tensor", wrt[q].Name())
		}
		if !finite(d) {
			return nil, fmt.Errorf("the gradient of %s is %w", wrt[q].Name(), errNonFinite)
		}
		gd[q] = d
	}
	out.Atoms = gd[:encAt]
	if tr.opt.Encoder != nil {
		out.Encoder = gd[encAt : encAt+len(o.encoder.params)]
		out.Embeddings = append([]float64(nil), zNode.Value().Data().([]float64)...)
		if !finite(out.Embeddings) {
			return nil, fmt.Errorf("the encoder's embeddings are %w", errNonFinite)
		}
	} else {
		out.Z, out.Embeddings = gd[encAt], zb
	}
	for j, tn := range termNodes {
		if tn == nil {
			continue
		}
		v, ok := tn.Value().Data().(float64)
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("term %d is %v: %w", j, tn.Value(), errNonFinite)
		}
		out.Terms[j] = v
		out.TermParams[j] = gd[termWrt[j] : termWrt[j]+len(o.terms[j].params)]
	}
	return out, nil
}

// step computes the batch's gradients and takes the Adam steps: the atoms (unless frozen), each
// z_i of the batch that was not skipped, and each term present in the batch. It returns the
// batch's GWF loss and the terms' values.
func (tr *trainer) step(batch []int) (gwfLoss float64, terms []float64, err error) {
	o := tr.adam
	gr, err := tr.gradients(batch)
	if err != nil {
		return 0, nil, err
	}
	if gr.Atoms == nil && gr.Z == nil && gr.Encoder == nil {
		return gr.Loss, gr.Terms, nil // nothing in this batch to learn from
	}
	for q, p := range o.atoms.params {
		if len(gr.Atoms) > 0 {
			copy(p.gradData(), gr.Atoms[q])
		}
	}
	if !tr.opt.frozen && !tr.opt.WithoutGWF {
		if err := o.atoms.step(o.lr); err != nil {
			return 0, nil, fmt.Errorf("adam step on the atoms: %w", err)
		}
	}
	K := tr.m.K()
	if tr.opt.Encoder != nil {
		for q, p := range o.encoder.params {
			copy(p.gradData(), gr.Encoder[q])
		}
		if err := o.encoder.step(o.lr); err != nil {
			return 0, nil, fmt.Errorf("adam step on the encoder: %w", err)
		}
		for r, i := range batch { // Z holds the embeddings the batch was computed with
			copy(tr.m.Z.RawRowView(i), gr.Embeddings[r*K:(r+1)*K])
		}
	}
	skipped := 0
	for r, i := range batch {
		if tr.opt.Encoder != nil {
			break
		}
		if skipped < len(gr.Skipped) && gr.Skipped[skipped] == r {
			skipped++
			continue
		}
		copy(o.z[i].params[0].gradData(), gr.Z[r*K:(r+1)*K])
		if err := o.z[i].step(o.lr); err != nil {
			return 0, nil, fmt.Errorf("adam step on z of graph %q: %w", tr.data[i].Name, err)
		}
	}
	for j, tg := range gr.TermParams {
		if tg == nil {
			continue
		}
		for q, p := range o.terms[j].params {
			copy(p.gradData(), tg[q])
		}
		if err := o.terms[j].step(o.lr); err != nil {
			return 0, nil, fmt.Errorf("adam step on term %d: %w", j, err)
		}
	}
	return gr.Loss, gr.Terms, nil
}

// paramNode is a node of g whose value is t (shared, not copied): Adam's in-place updates of t
// are what the next batch's graph reads.
func paramNode(g *gorgonia.ExprGraph, name string, t *tensor.Dense) *gorgonia.Node {
	return gorgonia.NodeFromAny(g, t, gorgonia.WithName(name))
}

// errNonFinite is wrapped by the errors of NaN or infinite losses and gradients.
var errNonFinite = fmt.Errorf("%w: not finite", layers.ErrNumerical)

func finite(xs []float64) bool {
	for _, v := range xs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
