package training

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/gwops"
	"github.com/gwf-graphs/gwf/layers/observe"
)

// Options control how Fit runs and what it optimises. Terms, WithoutGWF, Encoder,
// EncoderLearningRate, SkipNonFinite and FreshOptimizer change what Fit computes; the others
// (Workers, the callbacks, Offset) do not: results for a given model, data and such options are
// the same whatever the workers, callbacks or interruptions.
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
	// EncoderLearningRate is the Adam learning rate of the Encoder's weights (0: the model's
	// Config.LearningRate, which the atoms, free embeddings and terms take).
	EncoderLearningRate float64
	// Observe, if set, receives a Step after every batch and the warnings of SkipNonFinite.
	Observe Observer
	// EpochDone, if set, is called after every completed epoch (to write a checkpoint); an
	// error stops training.
	EpochDone func(*Model) error
	// SkipNonFinite leaves out of its batch a graph whose forward pass fails numerically or
	// whose loss or gradients are NaN or infinite, reporting it to Observe as a warning,
	// instead of stopping with an error (the default).
	SkipNonFinite bool
	// Offset (Transform only) is the position of the first graph in a larger corpus.
	Offset int
	// FreshOptimizer lets Fit continue a model that has trained epochs but no Adam state
	// (Model.Resumable fails) with fresh moments: a different run than an uninterrupted one.
	// Without it Fit refuses such a model.
	FreshOptimizer bool

	frozen bool // Transform: the atoms are not stepped
}

// Progress describes the state of training after a batch (observe.Progress).
type Progress = observe.Progress

// Fit trains m on the graphs of src (Algorithm 4, plus Options.Terms) from the epoch after the
// last one in m.History up to m.Config.Epochs; graphs.Slice adapts a slice of graphs. It is the
// one training loop of the module: each epoch shuffles the graphs with an RNG derived from the
// seed and the epoch number and cuts them into batches; each batch is one Gorgonia expression
// graph — the batch's GWF loss as one node (gwops.BatchLoss: the forward passes on the fast
// kernels in parallel, transports detached) plus the extra terms — differentiated by Gorgonia,
// and Gorgonia's Adam takes one step for the atoms, one for each z_i of the batch and one per
// term.
//
// The graphs are read from src as each mini-batch needs them: with a source that reads from
// disk (graphs/store), memory holds the model and one batch's graphs, not the corpus, and the
// result is the one the same graphs in memory give, bit for bit. Before training, src is read
// through once to check it against the model: Fit returns an error when the model's Config is
// invalid, when the feature dimension, the number of embeddings or the fingerprint does not
// match, when the model has trained epochs but no Adam state (see Options.FreshOptimizer), or
// when src fails to read a graph.
//
// It stops with ctx's error when ctx is cancelled: between batches, or inside a batch before its
// next graph (the batch is then dropped whole), m.Partial recording the batch to resume at.
// After every epoch m.Optimizer holds the Adam state, so that a model saved then (a checkpoint)
// resumes exactly: the same result as an uninterrupted run, whatever the number of workers.
// When ctx stops training mid-epoch, m.Partial and m.Optimizer record the position and state
// at that batch boundary: saved, the model resumes exactly from there.
func Fit(ctx context.Context, m *Model, src graphs.Source, opt Options) error {
	if err := m.check(src); err != nil {
		return err
	}
	if err := m.Resumable(); err != nil && !opt.FreshOptimizer && len(m.History) < m.Config.Epochs {
		return err
	}
	tr, err := newTrainer(m, src, opt)
	if err != nil {
		return err
	}
	return tr.run(ctx)
}

// check verifies that the model fits the data.
func (m *Model) check(src graphs.Source) error {
	if err := m.Config.Validate(); err != nil {
		return err
	}
	info, err := describe(src)
	if err != nil {
		return err
	}
	if info.dim != m.Dim() {
		return fmt.Errorf("the data has %d-dimensional node features, the model %d", info.dim, m.Dim())
	}
	if r, _ := m.Z.Dims(); r != src.Len() {
		return fmt.Errorf("the model has %d embeddings for %d graphs", r, src.Len())
	}
	if m.Fingerprint != "" && info.fingerprint != m.Fingerprint {
		return fmt.Errorf("the data (fingerprint %s) is not the data the model was trained on (%s)", info.fingerprint, m.Fingerprint)
	}
	return nil
}

// trainer holds what one Fit needs between batches.
type trainer struct {
	m    *Model
	src  graphs.Source
	opt  Options
	loss gwops.BatchLoss
	adam *optimizer
}

func newTrainer(m *Model, src graphs.Source, opt Options) (*trainer, error) {
	if lr := opt.EncoderLearningRate; lr < 0 || math.IsNaN(lr) || math.IsInf(lr, 0) {
		return nil, fmt.Errorf("training: encoder learning rate %v must be finite and not negative", lr)
	}
	fwd, err := m.Config.Forward()
	if err != nil {
		return nil, err
	}
	o, err := newOptimizer(m, opt.Terms, opt.Encoder, opt.EncoderLearningRate)
	if err != nil {
		return nil, fmt.Errorf("restore the optimizer: %w", err)
	}
	return &trainer{
		m: m, src: src, opt: opt, adam: o,
		loss: gwops.BatchLoss{Forward: fwd, Workers: opt.Workers, SkipNonFinite: opt.SkipNonFinite, Workspace: new(gwops.Workspace)},
	}, nil
}

// run is the epoch loop.
func (tr *trainer) run(ctx context.Context) error {
	m, cfg, opt, n := tr.m, tr.m.Config, tr.opt, tr.src.Len()
	start := time.Now()
	first := len(m.History)
	// A model stopped mid-epoch resumes at the batch where it stopped.
	var resume PartialEpoch
	if p := m.Partial; p != nil && p.Epoch == first+1 {
		resume = *p
	}
	m.Partial = nil
	tr.loss.Context = ctx // a batch in progress stops within one graph
	runTotal := (cfg.Epochs-first)*n - resume.Done
	for epoch := first + 1; epoch <= cfg.Epochs; epoch++ {
		t0 := time.Now()
		order := rand.New(rand.NewPCG(cfg.Seed, uint64(epoch))).Perm(n)
		var lossSum, prior float64
		termSums := make([]float64, len(opt.Terms))
		b0 := 0
		if epoch == first+1 {
			b0, lossSum, prior = resume.Done, resume.LossSum, resume.Seconds
			copy(termSums, resume.TermSums)
		}
		// stop records where the epoch stands before batch b, a safe point, so that a
		// checkpoint resumes there.
		stop := func(b int) error {
			if b > 0 {
				m.Partial = &PartialEpoch{Epoch: epoch, Done: b, LossSum: lossSum, Seconds: prior + time.Since(t0).Seconds(), TermSums: termSums}
				var err error
				if m.Optimizer, err = tr.adam.snapshot(len(m.History), b); err != nil {
					return fmt.Errorf("epoch %d: %w", epoch, err)
				}
			}
			return ctx.Err()
		}
		for b := b0; b < len(order); b += cfg.Batch {
			if ctx.Err() != nil {
				return stop(b)
			}
			batch := order[b:min(b+cfg.Batch, len(order))]
			l, terms, err := tr.step(batch)
			if err != nil && ctx.Err() != nil {
				return stop(b) // interrupted inside the batch (BatchLoss.Context): nothing of it was applied
			}
			if err != nil {
				return fmt.Errorf("epoch %d, batch %d: %w", epoch, b/cfg.Batch+1, err)
			}
			lossSum += l
			for j, v := range terms {
				termSums[j] += v
			}
			if opt.Observe != nil {
				done := b + len(batch)
				elapsed := time.Since(start)
				processed := (epoch-first-1)*n + done - resume.Done
				rate := float64(processed) / elapsed.Seconds()
				opt.Observe.Step(Progress{
					Epoch: epoch, Epochs: cfg.Epochs, Done: done, Total: n,
					Loss: lossSum / float64(done), GraphsPerSec: rate, Elapsed: elapsed,
					ETA: time.Duration(float64(runTotal-processed) / rate * float64(time.Second)),
				})
			}
		}
		st := EpochStats{Epoch: epoch, Loss: lossSum / float64(n), Seconds: prior + time.Since(t0).Seconds()}
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
