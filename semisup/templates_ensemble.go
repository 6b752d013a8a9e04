package semisup

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// TemplateEnsemble is Config.Members template models trained alike on the same graphs, each
// from its own seed (its own initial templates, validation split and batches); it predicts
// with the mean of their class probabilities. One member is the single model.
type TemplateEnsemble struct {
	Members []*TemplateModel
	// Features is how the training graphs' node features were read, for new graphs to be
	// read alike (nil when unknown).
	Features *graphs.FeatureEncoding
	ClassLabels
	// SelfTraining is how the ensemble came from self-training (TemplateConfig.PseudoLabels;
	// nil otherwise). It is not saved with the ensemble.
	SelfTraining *SelfTraining
}

// MemberSeed is the seed of member m of an ensemble seeded by seed: member 0 has seed itself,
// so that a one-member ensemble is the single model of that seed.
func MemberSeed(seed uint64, m int) uint64 { return seed + uint64(m)*0x9e3779b97f4a7c15 }

// TrainTemplates initialises and trains cfg.Members template models (NewTemplateModel and
// FitTemplates), member m with the seed MemberSeed(cfg.Seed, m). Up to twice opt.Workers
// (0: GOMAXPROCS) members train side by side, each solving on that many workers, so that the
// cores stay busy while a member builds its expression graphs; a member's result does not
// depend on how many train at once. opt.Observe hears the first member's steps (its ETA is
// that of the members beside it) and every member's messages, one event at a time.
//
// With cfg.Encoder = EncoderAuto it trains an ensemble without an encoder and one with the GIN
// encoder, and returns the one whose members score better on their validation splits. With
// cfg.NodeFeatures = NodeFeaturesAuto and graphs that have node features, a member reading the
// structure alone is screened after them, and replaces the features only where it does
// clearly better (trainFeaturesAuto). With cfg.PseudoLabels > 0 and graphs without a label
// among data, it self-trains (selfTrain).
func TrainTemplates(ctx context.Context, data []*graphs.Graph, labels []int, classes int, cfg TemplateConfig, opt TemplateOptions) (*TemplateEnsemble, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.PseudoLabels > 0 && slices.Contains(labels, Unlabeled) {
		return selfTrain(ctx, data, labels, classes, cfg, opt)
	}
	if cfg.Encoder == EncoderAuto {
		return trainAuto(ctx, data, labels, classes, cfg, opt)
	}
	if cfg.ChoosesNodeFeatures(data) {
		return trainFeaturesAuto(ctx, data, labels, classes, cfg, opt)
	}
	if cfg.NodeFeatures == NodeFeaturesAuto {
		cfg.NodeFeatures = NodeFeaturesData // nothing to choose (no features), or nothing to choose on
	}
	members := cfg.MemberCount()
	cfgs := make([]TemplateConfig, members)
	for k := range cfgs {
		cfgs[k] = memberConfig(cfg, k)
	}
	models, err := trainMembers(ctx, data, labels, nil, classes, cfgs, memberNames(members), opt)
	if err != nil {
		return nil, err
	}
	return &TemplateEnsemble{Members: models}, nil
}

// ChoosesNodeFeatures reports whether TrainTemplates chooses between data's node features and
// the structure alone under c: NodeFeaturesAuto, a validation split to choose on, and graphs
// that have features.
func (c TemplateConfig) ChoosesNodeFeatures(data []*graphs.Graph) bool {
	return c.NodeFeatures == NodeFeaturesAuto && c.Validation > 0 && len(data) > 0 && data[0].Dim() > 0
}

// memberConfig is the configuration of member k of an ensemble configured by cfg.
func memberConfig(cfg TemplateConfig, k int) TemplateConfig {
	cfg.Seed = MemberSeed(cfg.Seed, k)
	return cfg
}

// memberNames names each of members members in messages ("member 2 of 3"; no name for one).
func memberNames(members int) []string {
	names := make([]string, members)
	for k := range names {
		if members > 1 {
			names[k] = fmt.Sprintf("member %d of %d", k+1, members)
		}
	}
	return names
}

// trainMembers initialises and trains one model per configuration, each with its own seed, as
// TrainTemplates says (up to twice the workers side by side), each stopped at opt's rung where
// it has one; names[k] prefixes model k's messages and errors where not empty. pseudo, when not
// nil, gives classes to graphs without a label (fitTemplates): they start templates and train
// as labelled graphs do, but are never held out for validation.
func trainMembers(ctx context.Context, data []*graphs.Graph, labels, pseudo []int, classes int, cfgs []TemplateConfig, names []string, opt TemplateOptions) ([]*TemplateModel, error) {
	starts := withPseudoLabels(labels, pseudo)
	models := make([]*TemplateModel, len(cfgs))
	for k, c := range cfgs {
		m, err := NewTemplateModel(data, starts, classes, c)
		if err != nil {
			return nil, err
		}
		models[k] = m
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	side := min(len(models), 2*workers)    // models training at once
	ctx, cancel := context.WithCancel(ctx) // a model's error stops the others
	defer cancel()
	var mu sync.Mutex
	errs := make([]error, len(models))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < side; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				o := TemplateOptions{Workers: workers, Observe: memberObserver(opt.Observe, &mu, k, names[k]), rung: opt.rung}
				if err := fitTemplates(ctx, models[k], data, labels, pseudo, o); err != nil {
					errs[k] = err
					cancel()
				}
			}
		}()
	}
	for k := range models {
		next <- k
	}
	close(next)
	wg.Wait()
	if k := firstError(errs); k >= 0 {
		if names[k] != "" {
			return nil, fmt.Errorf("%s: %w", names[k], errs[k])
		}
		return nil, errs[k]
	}
	return models, nil
}

// firstError is the index of the first error of errs that is not a cancellation (the one
// that cancelled the others), else of the first error; -1 when there is none.
func firstError(errs []error) int {
	first := -1
	for k, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return k
		}
		if err != nil && first < 0 {
			first = k
		}
	}
	return first
}

// memberObserver passes o, under mu, model k's messages (prefixed by its name, where it has
// one) and, for the first model, its steps.
func memberObserver(o training.Observer, mu *sync.Mutex, k int, name string) training.Observer {
	if o == nil {
		return nil
	}
	return func(e training.Event) {
		if e.Step != nil && k > 0 {
			return
		}
		if e.Message != "" && name != "" {
			e.Message = name + ": " + e.Message
		}
		mu.Lock()
		defer mu.Unlock()
		o(e)
	}
}

// Probabilities returns each graph's class probabilities (one row per graph): the mean over
// the members of the softmax of their logits (TemplateModel.Logits, a forward pass).
func (e *TemplateEnsemble) Probabilities(ctx context.Context, data []*graphs.Graph, workers int) (*mat.Dense, error) {
	if len(e.Members) == 0 {
		return nil, fmt.Errorf("templates: an ensemble without members")
	}
	var mean *mat.Dense
	for k, m := range e.Members {
		l, err := m.Logits(ctx, data, workers)
		if err != nil {
			return nil, err
		}
		p := Probabilities(l)
		if k == 0 {
			mean = p
			continue
		}
		if _, c := p.Dims(); c != mean.RawMatrix().Cols {
			return nil, fmt.Errorf("templates: member %d scores %d classes, member 1 %d", k+1, c, mean.RawMatrix().Cols)
		}
		mean.Add(mean, p)
	}
	mean.Scale(1/float64(len(e.Members)), mean)
	return mean, nil
}

// Predict returns the most likely class of each graph under the members' mean probabilities.
func (e *TemplateEnsemble) Predict(ctx context.Context, data []*graphs.Graph, workers int) ([]int, error) {
	p, err := e.Probabilities(ctx, data, workers)
	if err != nil {
		return nil, err
	}
	return ArgMax(p), nil
}

// BestEpochs are the epochs whose weights the members hold, in member order.
func (e *TemplateEnsemble) BestEpochs() []int {
	out := make([]int, len(e.Members))
	for k, m := range e.Members {
		out[k] = m.BestEpoch
	}
	return out
}
