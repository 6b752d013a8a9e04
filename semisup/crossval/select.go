package crossval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
)

// Selection configures the model selection of Select: a stratified validation split of the
// labelled graphs chooses the candidate configuration and the stopping epoch.
type Selection struct {
	// Validation is the fraction of each class's labelled graphs held out to choose on
	// (0 means DefaultValidation).
	Validation float64 `json:"validation"`
	// Candidates are the configurations tried, each trained once (at least one).
	Candidates []semisup.Config `json:"candidates"`
	// Refit retrains the chosen candidate on all the labels up to the chosen epoch; without it
	// the result is the model of the chosen epoch, trained without the validation labels.
	Refit bool `json:"refit"`
	// Seed seeds the validation split.
	Seed uint64 `json:"seed"`
	// Unsupervised makes the model trained without labels a candidate too, in nested
	// cross-validation (CrossValidate; Select, which trains one fold, ignores it): the β = 0
	// baseline's head, its epoch chosen on the same validation split, is the fold's model when
	// it scores better there than the trained candidates' choice (higher accuracy, then lower
	// cross-entropy). Where the labels hurt the GWF model, the classifier then falls back to
	// embeddings trained without them. It implies CVOptions.Baselines, whose model it reads:
	// one training shared by all folds.
	Unsupervised bool `json:"unsupervised,omitempty"`
}

// Grid lists the settings a Selection chooses among; Candidates crosses them. An empty list
// keeps the base configuration's value.
type Grid struct {
	Beta      []float64
	Detach    []bool
	HeadDecay []float64 // Config.Head.WeightDecay
	Hidden    [][]int
	EncoderLR []float64 // Config.EncoderLearningRate
}

// Candidates are base with every combination of the grid's values, β varying slowest.
func (g Grid) Candidates(base semisup.Config) []semisup.Config {
	out := []semisup.Config{base}
	vary := func(n int, set func(c *semisup.Config, i int)) {
		if n == 0 {
			return
		}
		var next []semisup.Config
		for _, c := range out {
			for i := range n {
				set(&c, i)
				next = append(next, c)
			}
		}
		out = next
	}
	vary(len(g.Beta), func(c *semisup.Config, i int) { c.Beta = g.Beta[i] })
	vary(len(g.Detach), func(c *semisup.Config, i int) { c.Detach = g.Detach[i] })
	vary(len(g.HeadDecay), func(c *semisup.Config, i int) { c.Head.WeightDecay = g.HeadDecay[i] })
	vary(len(g.Hidden), func(c *semisup.Config, i int) { c.Hidden = g.Hidden[i] })
	vary(len(g.EncoderLR), func(c *semisup.Config, i int) { c.EncoderLearningRate = g.EncoderLR[i] })
	return out
}

// DefaultValidation is the validation fraction: a fifth of the labelled graphs, the inner split
// of a 5-fold scheme.
const DefaultValidation = 0.2

func (s Selection) fraction() float64 {
	if s.Validation == 0 {
		return DefaultValidation
	}
	return s.Validation
}

// Validate checks the selection.
func (s Selection) Validate() error {
	if f := s.fraction(); !(f > 0 && f < 1) {
		return fmt.Errorf("crossval: validation fraction %v not in (0, 1)", s.Validation)
	}
	if len(s.Candidates) == 0 {
		return errors.New("crossval: no candidate configuration to select from")
	}
	for i, c := range s.Candidates {
		if err := c.Validate(); err != nil {
			return fmt.Errorf("candidate %d: %w", i+1, err)
		}
	}
	return nil
}

// Choice is what Select chose, and on what.
type Choice struct {
	Candidate int            `json:"candidate"` // index into Selection.Candidates
	Config    semisup.Config `json:"config"`
	Epoch     int            `json:"epoch"`
	// Validation is the number of validation graphs; ValidationAccuracy and ValidationLoss (mean
	// cross-entropy) are the chosen model's scores on them.
	Validation         int     `json:"validation_graphs"`
	ValidationAccuracy float64 `json:"validation_accuracy"`
	ValidationLoss     float64 `json:"validation_loss"`
	// Curves are every candidate's validation accuracy after each epoch.
	Curves [][]float64 `json:"validation_curves"`
	Refit  bool        `json:"refit"`
	// Unsupervised says that the β = 0 head (Selection.Unsupervised, FoldResult.Beta0) scored
	// better on the validation split than the trained candidate above, and is the fold's model.
	Unsupervised bool `json:"unsupervised,omitempty"`
}

// errNoValidation: the validation split of a fraction of the labelled graphs is empty (no class
// has two labelled graphs).
var errNoValidation = errors.New("crossval: too few labelled graphs to hold some out for validation")

// ValidationSplit holds out a stratified, seeded fraction of each class's labelled graphs (at
// least one per class with two or more, never the last one): it returns the labels with those
// graphs marked Unlabeled, and their indices, sorted.
func ValidationSplit(labels []int, fraction float64, seed uint64) (inner []int, val []int) {
	inner = slices.Clone(labels)
	rng := rand.New(rand.NewPCG(seed, 0x7a11d))
	for _, members := range semisup.ClassMembers(labels) {
		rng.Shuffle(len(members), func(a, b int) { members[a], members[b] = members[b], members[a] })
		n := 0
		if len(members) >= 2 {
			n = min(max(1, int(fraction*float64(len(members))+0.5)), len(members)-1)
		}
		for _, i := range members[:n] {
			inner[i] = semisup.Unlabeled
			val = append(val, i)
		}
	}
	slices.Sort(val)
	return inner, val
}

// Select trains every candidate on data with the labels minus a validation split (the graphs
// without a label, and the validation graphs, take part in the GWF term unlabelled) and keeps
// the candidate and epoch whose model scores best on the validation graphs: highest accuracy,
// then lowest cross-entropy, then the earliest. The model of an epoch is what Fit would return
// had it stopped there: the joint state, and the head trained alone on that epoch's embeddings
// (when the candidate's Head.Steps > 0). Only labels[i] of labelled graphs are read: a graph
// to be scored later must be passed Unlabeled.
//
// The returned model's GWF epochs are the chosen epoch, so resuming it trains no further.
// opt.EpochDone is not called; in a cross-validation with a fold directory, the selection is
// saved after every epoch instead, and resumed from there (selectResumable).
func Select(ctx context.Context, data []*graphs.Graph, labels []int, classes int, gwf training.Config, sel Selection, opt semisup.Options) (*semisup.Model, *Choice, error) {
	return selectResumable(ctx, data, labels, classes, gwf, sel, opt, nil)
}

// selectResumable is Select, resumed from and saved to resume where it is set.
func selectResumable(ctx context.Context, data []*graphs.Graph, labels []int, classes int, gwf training.Config, sel Selection, opt semisup.Options, resume *selectResume) (*semisup.Model, *Choice, error) {
	if err := sel.Validate(); err != nil {
		return nil, nil, err
	}
	inner, val := ValidationSplit(labels, sel.fraction(), sel.Seed)
	if len(val) == 0 {
		return nil, nil, errNoValidation
	}
	choice := &Choice{Candidate: -1, Validation: len(val), Refit: sel.Refit}
	var best, resumed *semisup.Model
	var curve []float64
	start := 0
	if r := resume; r != nil && r.from != nil {
		p := r.from
		start, resumed, curve, best, *choice = p.Candidate, p.Model, p.Curve, p.Best, p.Choice
	}
	for ci := start; ci < len(sel.Candidates); ci++ {
		c := sel.Candidates[ci]
		joint := c
		joint.Head.Steps = 0 // the head is trained alone on every epoch's snapshot below
		m := resumed
		if m == nil {
			var err error
			if m, err = semisup.NewModel(data, classes, gwf, joint); err != nil {
				return nil, nil, err
			}
			curve = nil
		}
		resumed = nil
		fo := opt
		fo.EpochDone = func(m *semisup.Model) error {
			snap, err := m.Snapshot(c, inner)
			if err != nil {
				return err
			}
			acc, loss := headScore(snap, val, labels)
			curve = append(curve, acc)
			if acc > choice.ValidationAccuracy || (acc == choice.ValidationAccuracy && loss < choice.ValidationLoss) || best == nil {
				best = snap
				choice.Candidate, choice.Config, choice.Epoch = ci, c, len(m.History)
				choice.ValidationAccuracy, choice.ValidationLoss = acc, loss
			}
			return resume.keep(selectProgress{Candidate: ci, Model: m, Curve: curve, Best: best, Choice: *choice})
		}
		if err := semisup.Fit(ctx, m, data, inner, fo); err != nil {
			return nil, nil, fmt.Errorf("candidate %d: %w", ci+1, err)
		}
		choice.Curves = append(choice.Curves, curve)
	}
	if best == nil {
		return nil, nil, errors.New("crossval: no epoch to select from")
	}
	if !sel.Refit {
		return best, choice, nil
	}
	// Every candidate is trained: a stop during the refit does not train them again.
	if err := resume.keep(selectProgress{Candidate: len(sel.Candidates), Best: best, Choice: *choice}); err != nil {
		return nil, nil, err
	}
	g := gwf
	g.Epochs = choice.Epoch
	m, err := semisup.NewModel(data, classes, g, choice.Config)
	if err != nil {
		return nil, nil, err
	}
	if err := semisup.Fit(ctx, m, data, labels, opt); err != nil {
		return nil, nil, fmt.Errorf("refit: %w", err)
	}
	return m, choice, nil
}

// headScore is the head's accuracy and mean cross-entropy on the graphs idx.
func headScore(m *semisup.Model, idx []int, labels []int) (acc, loss float64) {
	p := semisup.Probabilities(m.Head.Logits(m.Config.HeadInput(m.GWF.Z)))
	return scoreRows(p, idx, labels)
}

// scoreRows is the accuracy and mean cross-entropy of class probabilities p on rows idx.
func scoreRows(p *mat.Dense, idx []int, labels []int) (acc, loss float64) {
	ok := 0
	for _, i := range idx {
		row := p.RawRowView(i)
		if floats.MaxIdx(row) == labels[i] {
			ok++
		}
		loss -= math.Log(max(row[labels[i]], 1e-300))
	}
	n := float64(len(idx))
	return float64(ok) / n, loss / n
}
