package semisup

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/gwops"
	"github.com/gwf-graphs/gwf/layers/tape"
	"github.com/gwf-graphs/gwf/training"
)

// TemplateOptions are how FitTemplates runs: Workers solve a batch's transports in parallel (0:
// GOMAXPROCS; the result does not depend on it) and Observe hears of each batch (a training
// step, with the ETA of the whole run) and each epoch (a message).
type TemplateOptions struct {
	Workers int
	Observe training.Observer
	// rung, when set, ends training at its epoch unless the best validation accuracy so far
	// exceeds its bar: a candidate screened against another stops once it clearly trails.
	rung *rung
}

// rung is a checkpoint of successive halving: at epoch, a model whose best validation accuracy
// so far is not above bar stops training.
type rung struct {
	epoch int
	bar   float64
}

// FitTemplates trains m on data (labels[i], or Unlabeled) up to m.Config.Epochs epochs:
// shuffled mini-batches of the labelled graphs (and, with Config.Beta > 0, the unlabelled ones;
// seeded by the seed and the epoch), one Gorgonia graph per batch — encoder, template layer,
// head, the mean cross-entropy of the labelled graphs and β times the mean reconstruction loss —
// one backward pass and one step of Gorgonia's Adam for every parameter. Each (graph, template)
// transport starts from the one of the graph's last batch (gwops.WarmStarts). The Adam state
// is not kept: a model trained further starts a new optimizer.
//
// With m.Config.Validation > 0 a stratified fraction of the labelled graphs is held out of
// training; after every epoch they are scored with a forward pass as unseen graphs are, and the
// model keeps the weights of the epoch that scored best on them (the later epoch on ties, for
// the lower training loss); with Config.Patience, training ends once it has not risen for that
// many epochs, and with Config.MaxEpochs it goes on past Epochs while it still rises. No other
// graph's label is read. With Config.AverageEpochs the weights scored and kept are the moving
// average of the trained ones (paramAverage), the last epoch's without a validation split.
func FitTemplates(ctx context.Context, m *TemplateModel, data []*graphs.Graph, labels []int, opt TemplateOptions) error {
	return fitTemplates(ctx, m, data, labels, nil, opt)
}

// fitTemplates is FitTemplates with pseudo-labels: pseudo[i], where labels[i] is Unlabeled and
// pseudo is not nil, is a class graph i trains with as if it were its label, but the validation
// split is drawn from labels alone, so that the epoch kept is chosen on true labels.
func fitTemplates(ctx context.Context, m *TemplateModel, data []*graphs.Graph, labels, pseudo []int, opt TemplateOptions) error {
	if err := m.Config.Validate(); err != nil {
		return err
	}
	if len(labels) != len(data) || (pseudo != nil && len(pseudo) != len(data)) {
		return fmt.Errorf("templates: %d labels and %d pseudo-labels for %d graphs", len(labels), len(pseudo), len(data))
	}
	classes := m.Head.Classes()
	var labelled, guessed []int
	for i, l := range labels {
		switch {
		case l == Unlabeled && pseudo != nil && pseudo[i] != Unlabeled:
			if pseudo[i] < 0 || pseudo[i] >= classes {
				return fmt.Errorf("templates: graph %q has pseudo-class %d, the model has %d", data[i].Name, pseudo[i], classes)
			}
			guessed = append(guessed, i)
		case l == Unlabeled:
		case l < 0 || l >= classes:
			return fmt.Errorf("templates: graph %q has class %d, the model has %d", data[i].Name, l, classes)
		default:
			labelled = append(labelled, i)
		}
	}
	train, valid := splitValidation(labels, labelled, m.Config.Validation, m.Config.Seed)
	train = append(train, guessed...)
	if len(train) == 0 {
		return fmt.Errorf("templates: no labelled graph to train on")
	}
	m.validGraphs = len(valid)
	trainLabels := withPseudoLabels(labels, pseudo) // what the batches read

	if m.Config.Beta > 0 { // the graphs without a label train through the reconstruction term
		for i, l := range trainLabels {
			if l == Unlabeled {
				train = append(train, i)
			}
		}
	}
	b, err := m.bind(data)
	if err != nil {
		return err
	}
	cfg := m.Config
	params := m.params()
	adamOpts := []gorgonia.SolverOpt{gorgonia.WithLearnRate(cfg.LearningRate)}
	if cfg.WeightDecay > 0 {
		adamOpts = append(adamOpts, gorgonia.WithL2Reg(cfg.WeightDecay))
	}
	adam := gorgonia.NewAdamSolver(adamOpts...)
	warm := gwops.NewWarmStarts()
	// Without an encoder the node features are data: no gradient is computed for them.
	layer := gwops.Templates{Solver: m.solver(), Workers: opt.Workers, Context: ctx, Warm: warm, FixedFeatures: m.Encoder == nil}
	eval := gwops.Templates{Solver: m.solver(), Workers: opt.Workers, Context: ctx}
	began, trained := time.Now(), 0
	avg := newParamAverage(params, cfg.AverageEpochs, (len(train)+cfg.BatchSize-1)/cfg.BatchSize)
	best, bestAcc := snapshot(params), math.Inf(-1)
	since := 0 // epochs since the validation accuracy last rose
	last := cfg.Epochs
	if len(valid) > 0 && cfg.MaxEpochs > cfg.Epochs {
		last = cfg.MaxEpochs
	}
	for epoch := len(m.History) + 1; epoch <= last; epoch++ {
		horizon := cfg.Epochs // the epochs the progress counts: past Epochs, up to last
		if epoch > cfg.Epochs {
			horizon = last
		}
		start := time.Now()
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(epoch)))
		order := append([]int(nil), train...)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		loss, seen := 0.0, 0 // the cross-entropy summed over the labelled graphs seen
		for s := 0; s < len(order); s += cfg.BatchSize {
			if err := ctx.Err(); err != nil {
				return err
			}
			batch := order[s:min(s+cfg.BatchSize, len(order))]
			ce, n, err := b.step(adam, params, batch, trainLabels, layer)
			if err != nil {
				return fmt.Errorf("templates: epoch %d: %w", epoch, err)
			}
			avg.update(params)
			loss, seen = loss+ce*float64(n), seen+n
			done := s + len(batch)
			elapsed := time.Since(began)
			trained += len(batch)
			rate := float64(trained) / elapsed.Seconds()
			left := (horizon-epoch)*len(order) + len(order) - done
			opt.Observe.Step(training.Progress{Epoch: epoch, Epochs: horizon, Done: done, Total: len(order), Loss: loss / float64(max(seen, 1)),
				GraphsPerSec: rate, Elapsed: elapsed, ETA: time.Duration(float64(left) / rate * float64(time.Second))})
		}
		st := TemplateEpoch{Epoch: epoch, CrossEntropy: loss / float64(max(seen, 1)), ValidationAccuracy: math.NaN()}
		if len(valid) > 0 {
			avg.swapIn(params) // validation scores, and best keeps, the averaged parameters
			acc, err := b.accuracy(valid, labels, eval)
			if err != nil {
				return fmt.Errorf("templates: epoch %d, validation: %w", epoch, err)
			}
			st.ValidationAccuracy = acc
			if acc > bestAcc {
				since = 0
			} else {
				since++
			}
			if acc >= bestAcc {
				bestAcc, best, m.BestEpoch = acc, snapshot(params), epoch
			}
			avg.swapOut(params)
		} else {
			m.BestEpoch = epoch
		}
		st.Seconds = time.Since(start).Seconds()
		m.History = append(m.History, st)
		if len(valid) > 0 {
			opt.Observe.Say(false, "epoch %d: cross-entropy %.4f, validation accuracy %.1f %% (%.1f s)", epoch, st.CrossEntropy, 100*st.ValidationAccuracy, st.Seconds)
		} else { // no split to score: no accuracy to print (the history keeps NaN)
			opt.Observe.Say(false, "epoch %d: cross-entropy %.4f (%.1f s)", epoch, st.CrossEntropy, st.Seconds)
		}
		if cfg.Patience > 0 && since >= cfg.Patience {
			opt.Observe.Say(false, "no better validation accuracy in %d epochs: training ends at epoch %d", since, epoch)
			break
		}
		if r := opt.rung; r != nil && epoch == r.epoch && len(valid) > 0 && !(bestAcc > r.bar) {
			opt.Observe.Say(false, "best validation accuracy %.1f %% by epoch %d, not above %.1f %% (the rung): training ends", 100*bestAcc, epoch, 100*r.bar)
			break
		}
		if epoch >= cfg.Epochs && epoch < last {
			if since >= extendWindow(cfg.Epochs) {
				if epoch > cfg.Epochs {
					opt.Observe.Say(false, "no better validation accuracy in %d epochs: training ends at epoch %d", since, epoch)
				}
				break
			}
			if epoch == cfg.Epochs {
				opt.Observe.Say(false, "the validation accuracy last rose at epoch %d: training goes on past epoch %d (at most %d)", epoch-since, epoch, last)
			}
		}
	}
	switch {
	case len(valid) > 0:
		restore(params, best)
	case avg != nil:
		avg.swapIn(params)
	}
	return nil
}

// extendWindow is how recently the validation accuracy must have risen for training to go on
// past TemplateConfig.Epochs (with MaxEpochs): a sixth of Epochs, 10 epochs at 60, so that
// noise in a small validation split rarely carries a finished model on.
func extendWindow(epochs int) int { return (epochs + 5) / 6 }

// step runs one mini-batch: forward, loss, backward, one Adam step. It returns the mean
// cross-entropy of the batch's labelled graphs and their number.
func (b *boundTemplates) step(adam gorgonia.Solver, params []*tensor.Dense, batch, labels []int, layer gwops.Templates) (float64, int, error) {
	ce, grads, err := b.lossGrad(params, batch, labels, layer)
	if err != nil {
		return 0, 0, err
	}
	labelled := 0
	for _, i := range batch {
		if labels[i] != Unlabeled {
			labelled++
		}
	}
	vg := make([]gorgonia.ValueGrad, len(params))
	for i, p := range params {
		vg[i] = &param{value: p, grad: tensor.New(tensor.WithShape(p.Shape().Clone()...), tensor.WithBacking(grads[i]))}
	}
	return ce, labelled, adam.Step(vg)
}

// lossGrad returns the batch's mean cross-entropy over its labelled graphs and the gradient
// in every parameter of that plus, with Config.Beta > 0, β times the mean GWF reconstruction
// loss of all its graphs.
func (b *boundTemplates) lossGrad(params []*tensor.Dense, batch, labels []int, layer gwops.Templates) (float64, [][]float64, error) {
	m := b.m
	C := m.Head.Classes()
	onehot := make([]float64, len(batch)*C)
	rows := make([]float64, len(batch))
	labelled := 0
	for _, i := range batch {
		if labels[i] != Unlabeled {
			labelled++
		}
	}
	for r, i := range batch {
		if labels[i] != Unlabeled {
			onehot[r*C+labels[i]] = 1
			rows[r] = 1 / float64(labelled)
		}
	}
	var obs []layers.Space
	if m.Config.Beta > 0 {
		var err error
		if obs, err = b.observed(batch); err != nil {
			return 0, nil, err
		}
	}
	var pn gorgonia.Nodes
	var ceValue gorgonia.Value // read as computed: the sum after it may be done in place
	g, _, err := tape.Build(func() (*gorgonia.ExprGraph, *gorgonia.Node, error) {
		g := gorgonia.NewGraph()
		pn = paramNodes(g, params)
		f, err := b.forwardAll(g, pn, batch, layer)
		if err != nil {
			return nil, nil, err
		}
		// Built even for a batch without labels (all rows weighing 0), so that every parameter
		// has a gradient (0 for the head's).
		ce, err := crossEntropyNode(g, f.logits, onehot, rows)
		if err != nil {
			return nil, nil, err
		}
		gorgonia.Read(ce, &ceValue)
		total := ce
		if m.Config.Beta > 0 {
			rec, err := b.reconstruction(g, f, obs, layer)
			if err != nil {
				return nil, nil, err
			}
			if rec, err = gorgonia.Mul(rec, gorgonia.NewConstant(m.Config.Beta/float64(len(batch)))); err != nil {
				return nil, nil, err
			}
			if total, err = gorgonia.Add(total, rec); err != nil {
				return nil, nil, err
			}
		}
		if _, err := gorgonia.Grad(total, pn...); err != nil {
			return nil, nil, err
		}
		return g, total, nil
	})
	if err != nil {
		return 0, nil, err
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		return 0, nil, err
	}
	loss := ceValue.Data().(float64)
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return 0, nil, fmt.Errorf("the cross-entropy is %v", loss)
	}
	grads := make([][]float64, len(pn))
	for i, n := range pn {
		gv, err := n.Grad()
		if err != nil {
			return 0, nil, err
		}
		grads[i] = append([]float64(nil), gv.Data().([]float64)...)
		if !finite(grads[i]) {
			return 0, nil, fmt.Errorf("the gradient of parameter %d is not finite", i)
		}
	}
	return loss, grads, nil
}

// observed are the batch's graphs as the reconstruction term sees them: their structure and,
// with features, their node features as the templates see them (the encoder's, computed with
// its current weights and taken as given: the reconstruction moves the templates and, through
// the barycenter weights, the discrepancies, not the encoder's outputs directly).
func (b *boundTemplates) observed(batch []int) ([]layers.Space, error) {
	obs := make([]layers.Space, len(batch))
	var feats []*mat.Dense
	if b.m.Config.FeatureWeight > 0 {
		var err error
		if feats, err = b.nodeFeatures(batch); err != nil {
			return nil, err
		}
	}
	for r, i := range batch {
		obs[r] = b.obs[i]
		if feats != nil {
			obs[r].F = feats[r]
		}
	}
	return obs, nil
}

// reconstruction adds the GWF loss of the batch (gwops.BatchLoss: eq. approx, the paper's
// GWB of Algorithm 3 with PPA) with the templates as atoms and the barycenter weights
// softmax(−scaled discrepancies): a graph is rebuilt mostly from the templates nearest it.
func (b *boundTemplates) reconstruction(g *gorgonia.ExprGraph, f forwardNodes, obs []layers.Space, layer gwops.Templates) (*gorgonia.Node, error) {
	ppa := layers.DefaultPPA()
	ppa.Weight = b.m.FeatureWeight()
	loss := gwops.BatchLoss{Forward: layers.Forward{GWB: layers.GWB{Solver: ppa, Layers: 2}}, Workers: layer.Workers, Context: layer.Context}
	atoms := make([]gwops.AtomNodes, len(f.templates))
	for k, t := range f.templates {
		// The atoms' weights are today's, as constants: the reconstruction moves the templates'
		// structures and features, not their node weights.
		atoms[k] = gwops.AtomNodes{V: t.V, H: t.H, Mu: b.m.Templates[k].Weights()}
	}
	z, err := gorgonia.Neg(f.scaled)
	if err != nil {
		return nil, err
	}
	return loss.Build(g, atoms, z, obs)
}

// accuracy scores the graphs idx with a forward pass from scratch.
func (b *boundTemplates) accuracy(idx, labels []int, layer gwops.Templates) (float64, error) {
	logits, _, err := b.scores(idx, layer)
	if err != nil {
		return 0, err
	}
	right := 0
	for r, c := range ArgMax(logits) {
		if c == labels[idx[r]] {
			right++
		}
	}
	return float64(right) / float64(len(idx)), nil
}

// splitValidation holds out a stratified fraction of the labelled graphs (at least one per
// class with two or more, none of a class with one), seeded.
func splitValidation(labels, labelled []int, fraction float64, seed uint64) (train, valid []int) {
	if fraction == 0 {
		return labelled, nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x76616c))
	byClass := map[int][]int{}
	var classes []int
	for _, i := range labelled {
		if _, ok := byClass[labels[i]]; !ok {
			classes = append(classes, labels[i])
		}
		byClass[labels[i]] = append(byClass[labels[i]], i)
	}
	held := map[int]bool{}
	for _, c := range classes {
		members := byClass[c]
		if len(members) < 2 {
			continue
		}
		k := max(1, int(math.Round(fraction*float64(len(members)))))
		k = min(k, len(members)-1)
		for _, q := range rng.Perm(len(members))[:k] {
			held[members[q]] = true
		}
	}
	for _, i := range labelled {
		if held[i] {
			valid = append(valid, i)
		} else {
			train = append(train, i)
		}
	}
	return train, valid
}

// snapshot copies the parameters' values.
func snapshot(ps []*tensor.Dense) [][]float64 {
	out := make([][]float64, len(ps))
	for i, p := range ps {
		out[i] = append([]float64(nil), p.Data().([]float64)...)
	}
	return out
}

// restore writes a snapshot back.
func restore(ps []*tensor.Dense, s [][]float64) {
	for i, p := range ps {
		copy(p.Data().([]float64), s[i])
	}
}
