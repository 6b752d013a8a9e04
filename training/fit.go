package training

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
)

// Options control how Fit runs, not what it computes: results for a given model and data are
// the same whatever the options.
type Options struct {
	// Workers is the number of goroutines that process a batch's graphs (0: GOMAXPROCS).
	Workers int
	// Progress, if set, is called after every batch.
	Progress func(Progress)
	// EpochDone, if set, is called after every completed epoch (to write a checkpoint); an
	// error stops training.
	EpochDone func(*Model) error
	// SkipNonFinite leaves out of its batch a graph whose loss or gradients are NaN or
	// infinite, reporting it to Warn, instead of stopping with an error (the default).
	SkipNonFinite bool
	// Warn, if set, receives the warnings of SkipNonFinite.
	Warn func(string)

	fault func(i int, s *slot) // test hook: runs on each graph's result before the checks
}

// Progress describes the state of training after a batch.
type Progress struct {
	Epoch, Epochs int
	Done, Total   int     // graphs processed in this epoch, and per epoch
	Loss          float64 // mean loss of this epoch's graphs so far
	GraphsPerSec  float64
	Elapsed, ETA  time.Duration // for the whole run (all remaining epochs)
}

// Fit trains m on data (Algorithm 4) from the epoch after the last one in m.History up to
// m.Config.Epochs. Each epoch shuffles the graphs with an RNG derived from the seed and the
// epoch number, cuts them into batches, computes every graph's loss and envelope gradients in
// parallel, sums them in a fixed order and takes one Adam step for the atoms and one for each
// z_i of the batch. It stops with ctx's error at the next batch boundary when ctx is cancelled.
//
// After every epoch m.Optimizer holds the Adam state, so that a model saved then (a checkpoint)
// resumes exactly: the same result as an uninterrupted run, whatever the number of workers.
// When ctx stops training mid-epoch, m.Partial and m.Optimizer record the position and state
// at that batch boundary: saved, the model resumes exactly from there.
func Fit(ctx context.Context, m *Model, data []*graphs.Graph, opt Options) error {
	if err := m.check(data); err != nil {
		return err
	}
	cfg := m.Config
	fwd, err := cfg.Forward()
	if err != nil {
		return err
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	o, err := newOptimizer(m)
	if err != nil {
		return fmt.Errorf("restore the optimizer: %w", err)
	}
	tr := &trainer{m: m, data: data, fwd: fwd, opt: o, workers: workers, skipNonFinite: opt.SkipNonFinite, warn: opt.Warn, fault: opt.fault}
	start := time.Now()
	first := len(m.History)
	// A model stopped mid-epoch resumes at the batch where it stopped.
	var resume PartialEpoch
	if p := m.Partial; p != nil && p.Epoch == first+1 {
		resume = *p
	}
	m.Partial = nil
	runTotal := (cfg.Epochs-first)*len(data) - resume.Done
	for epoch := first + 1; epoch <= cfg.Epochs; epoch++ {
		t0 := time.Now()
		order := rand.New(rand.NewPCG(cfg.Seed, uint64(epoch))).Perm(len(data))
		var lossSum, prior float64
		b0 := 0
		if epoch == first+1 {
			b0, lossSum, prior = resume.Done, resume.LossSum, resume.Seconds
		}
		for b := b0; b < len(order); b += cfg.Batch {
			if err := ctx.Err(); err != nil {
				// A safe point: record where the epoch stands, so a checkpoint resumes here.
				if b > 0 {
					m.Partial = &PartialEpoch{Epoch: epoch, Done: b, LossSum: lossSum, Seconds: prior + time.Since(t0).Seconds()}
					if m.Optimizer, err = tr.opt.snapshot(len(m.History), b); err != nil {
						return fmt.Errorf("epoch %d: %w", epoch, err)
					}
				}
				return ctx.Err()
			}
			batch := order[b:min(b+cfg.Batch, len(order))]
			l, err := tr.step(batch)
			if err != nil {
				return fmt.Errorf("epoch %d, batch %d: %w", epoch, b/cfg.Batch+1, err)
			}
			lossSum += l
			if opt.Progress != nil {
				done := b + len(batch)
				elapsed := time.Since(start)
				processed := (epoch-first-1)*len(data) + done - resume.Done
				rate := float64(processed) / elapsed.Seconds()
				opt.Progress(Progress{
					Epoch: epoch, Epochs: cfg.Epochs, Done: done, Total: len(data),
					Loss: lossSum / float64(done), GraphsPerSec: rate, Elapsed: elapsed,
					ETA: time.Duration(float64(runTotal-processed) / rate * float64(time.Second)),
				})
			}
		}
		m.History = append(m.History, EpochStats{Epoch: epoch, Loss: lossSum / float64(len(data)), Seconds: prior + time.Since(t0).Seconds()})
		if m.Optimizer, err = tr.opt.snapshot(len(m.History), 0); err != nil {
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
	skipNonFinite bool
	warn          func(string)
	fault         func(i int, s *slot)
	m             *Model
	data          []*graphs.Graph
	fwd           layers.Forward
	opt           *optimizer
	workers       int
	slots         []*slot
	states        []*layers.ForwardState
}

// slot receives one graph's loss and gradients; one per position in a batch, so the reduction
// order does not depend on which worker computed what.
type slot struct {
	skipped bool // left out of the batch (SkipNonFinite)
	loss    float64
	gU, gH  []*mat.Dense
	gLambda []float64
	lambda  []float64
	err     error
}

func (tr *trainer) newSlot() *slot {
	m := tr.m
	s := &slot{gLambda: make([]float64, m.K()), lambda: make([]float64, m.K())}
	for _, v := range m.V {
		r, _ := v.Dims()
		s.gU = append(s.gU, mat.NewDense(r, r, nil))
		if m.Dim() > 0 {
			s.gH = append(s.gH, mat.NewDense(r, m.Dim(), nil))
		}
	}
	return s
}

// step processes one batch and returns the sum of its losses.
func (tr *trainer) step(batch []int) (float64, error) {
	m := tr.m
	for len(tr.slots) < len(batch) {
		tr.slots = append(tr.slots, tr.newSlot())
	}
	atoms := m.Atoms()
	layers.RunBatch(&tr.states, tr.workers, len(batch), func(s int) int { return tr.data[batch[s]].N() }, func(ws *layers.ForwardState, s int) {
		tr.slots[s].compute(ws, tr.fwd, atoms, m, tr.data[batch[s]], batch[s])
	})
	// Reduce in batch order.
	for _, p := range tr.opt.atomParams {
		clear(p.(*param).gradData())
	}
	total := 0.0
	for s, i := range batch {
		sl := tr.slots[s]
		if tr.fault != nil {
			tr.fault(i, sl)
		}
		if sl.err == nil {
			sl.err = sl.checkFinite(tr.data[i].Name)
		}
		if sl.err != nil {
			if !tr.skipNonFinite || !errors.Is(sl.err, errNonFinite) {
				return 0, sl.err
			}
			if tr.warn != nil {
				tr.warn(fmt.Sprintf("skipped: %v", sl.err))
			}
			sl.skipped = true
			continue
		}
		sl.skipped = false
		total += sl.loss
		for k := range m.V {
			addTo(tr.opt.v[k].gradData(), sl.gU[k].RawMatrix().Data)
			if m.Dim() > 0 {
				addTo(tr.opt.h[k].gradData(), sl.gH[k].RawMatrix().Data)
			}
		}
		gz := tr.opt.zParams[i].gradData()
		clear(gz)
		layers.SoftmaxBackward(gz, sl.lambda, sl.gLambda)
	}
	for k, a := range atoms {
		// dV = dU ⊙ [V > 0]
		layers.ReLUBackward(mat.NewDense(a.U.RawMatrix().Rows, a.U.RawMatrix().Cols, tr.opt.v[k].gradData()), a.U)
	}
	if err := checkFinite(tr.opt.atomParams); err != nil {
		return 0, err
	}
	if err := tr.opt.atoms.Step(tr.opt.atomParams); err != nil {
		return 0, fmt.Errorf("adam step on the atoms: %w", err)
	}
	for s, i := range batch {
		if tr.slots[s].skipped {
			continue
		}
		if err := tr.opt.stepZ(i, m.Config.LearningRate); err != nil {
			return 0, fmt.Errorf("adam step on z of graph %q: %w", tr.data[i].Name, err)
		}
	}
	return total, nil
}

// compute runs the forward pass and the envelope loss for graph i into the slot.
func (s *slot) compute(ws *layers.ForwardState, fwd layers.Forward, atoms []layers.Atom, m *Model, g *graphs.Graph, i int) {
	s.err = nil
	layers.Softmax(s.lambda, m.Z.RawRowView(i))
	obs := layers.Space{C: g.C, Mu: g.Mu, F: g.F}
	if err := fwd.Run(ws, atoms, s.lambda, obs); err != nil {
		s.err = fmt.Errorf("graph %q: %w", g.Name, err)
		return
	}
	for k := range s.gU {
		s.gU[k].Zero()
		if s.gH != nil {
			s.gH[k].Zero()
		}
	}
	clear(s.gLambda)
	var gH []*mat.Dense
	if m.Dim() > 0 {
		gH = s.gH
	}
	s.loss = ws.Envelope(atoms, s.lambda, obs, fwd.GWB.Solver.FeatureWeight(), s.gU, gH, s.gLambda)
}

// errNonFinite is wrapped by the errors of graphs whose loss or gradients are NaN or infinite.
var errNonFinite = errors.New("not finite")

// checkFinite reports a NaN or infinite loss or gradient of graph name.
func (s *slot) checkFinite(name string) error {
	if math.IsNaN(s.loss) || math.IsInf(s.loss, 0) {
		return fmt.Errorf("graph %q: the loss is %v: %w", name, s.loss, errNonFinite)
	}
	for k, g := range s.gU {
		if !finite(g.RawMatrix().Data) {
			return fmt.Errorf("graph %q: the gradient of atom %d is %w", name, k, errNonFinite)
		}
	}
	for k, g := range s.gH {
		if !finite(g.RawMatrix().Data) {
			return fmt.Errorf("graph %q: the gradient of atom %d's features is %w", name, k, errNonFinite)
		}
	}
	if !finite(s.gLambda) {
		return fmt.Errorf("graph %q: the gradient of its embedding is %w", name, errNonFinite)
	}
	return nil
}

func finite(xs []float64) bool {
	for _, v := range xs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func addTo(dst, src []float64) {
	for i, v := range src {
		dst[i] += v
	}
}

// checkFinite refuses to take a step with a NaN or infinite atom gradient.
func checkFinite(ps []gorgonia.ValueGrad) error {
	for k, p := range ps {
		for _, v := range p.(*param).gradData() {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("the gradient of atom parameter %d is not finite", k)
			}
		}
	}
	return nil
}
