package semisup

import (
	"context"
	"fmt"
	"math"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// EncoderAuto, as TemplateConfig.Encoder, has TrainTemplates train the ensemble once without an
// encoder and once with the GIN encoder and keep the one whose members score better on their
// validation splits: a GIN encoder wins where there are graphs enough to learn its weights
// (NCI1), and overfits where there are few (MUTAG).
const EncoderAuto EncoderKind = "auto"

// trainAuto is TrainTemplates for cfg.Encoder = EncoderAuto: an ensemble without an encoder and
// one with GIN, on the same member seeds (so the same validation splits), the one with the
// higher mean validation accuracy of its members' kept epochs returned (a tie, or validation
// splits too small to score, keep the first, the cheaper). No graph outside the training
// graphs' validation splits chooses.
func trainAuto(ctx context.Context, data []*graphs.Graph, labels []int, classes int, cfg TemplateConfig, opt TemplateOptions) (*TemplateEnsemble, error) {
	var best *TemplateEnsemble
	bestScore := math.Inf(-1)
	for _, enc := range [...]EncoderKind{EncoderNone, EncoderGIN} {
		c := cfg
		c.Encoder = enc
		o := opt
		o.Observe = prefixed(opt.Observe, "encoder "+string(enc)+": ")
		e, err := TrainTemplates(ctx, data, labels, classes, c, o)
		if err != nil {
			return nil, fmt.Errorf("encoder %s: %w", enc, err)
		}
		score := e.ValidationAccuracy()
		opt.Observe.Say(false, "encoder %s: validation accuracy %.1f %% (mean of the members' kept epochs)", enc, 100*score)
		if best == nil || score > bestScore { // NaN, for a split too small to score, never wins
			best, bestScore = e, score
		}
	}
	return best, nil
}

// trainFeaturesAuto is TrainTemplates for cfg.NodeFeatures = NodeFeaturesAuto on graphs with
// node features: the ensemble reading them and, after it, one member reading the structure
// alone with member 1's seed (so member 1's validation split). The structure alone replaces the
// features only where its kept epoch scores better on that split than member 1's by more than
// one standard error of member 1's (√(p(1−p)/n), n validation graphs), as gwf classify prefers
// the data's features unless the structure alone is clearly better: features that carry the
// class are kept at little more training, noise that drowns the structure is left out. The
// screen stops at a rung, a third of the epochs, unless it scores above member 1's best by then
// less one standard error (screenRung): one that trails so far is not trained to the end to be
// rejected. Where it is chosen, the other members are trained on the structure alone, the
// screened one kept as member 1.
func trainFeaturesAuto(ctx context.Context, data []*graphs.Graph, labels []int, classes int, cfg TemplateConfig, opt TemplateOptions) (*TemplateEnsemble, error) {
	members := cfg.MemberCount()
	withF, bare := cfg, cfg
	withF.NodeFeatures, bare.NodeFeatures = NodeFeaturesData, NodeFeaturesNone
	cfgs := make([]TemplateConfig, members)
	for k := range members {
		cfgs[k] = memberConfig(withF, k)
	}
	feat, err := trainMembers(ctx, data, labels, nil, classes, cfgs, memberNames(members), opt)
	if err != nil {
		return nil, err
	}
	o := opt
	o.rung = screenRung(feat[0])
	screened, err := trainMembers(ctx, data, labels, nil, classes, []TemplateConfig{memberConfig(bare, 0)}, []string{"structure alone"}, o)
	if err != nil {
		return nil, err
	}
	screen := screened[0]
	p, q, n := feat[0].keptAccuracy(), screen.keptAccuracy(), float64(feat[0].validGraphs)
	margin := math.Sqrt(p * (1 - p) / n)
	if !(q > p+margin) { // NaN, for a split too small to score, keeps the features
		opt.Observe.Say(false, "node features kept: validation accuracy %.1f %%, the structure alone %.1f %% (needs > %.1f %%)", 100*p, 100*q, 100*(p+margin))
		return &TemplateEnsemble{Members: feat}, nil
	}
	opt.Observe.Say(false, "the structure alone chosen: validation accuracy %.1f %% against %.1f %% with the node features", 100*q, 100*p)
	rest := make([]TemplateConfig, members-1)
	for k := range rest {
		rest[k] = memberConfig(bare, k+1)
	}
	more, err := trainMembers(ctx, data, labels, nil, classes, rest, memberNames(members)[1:], opt)
	if err != nil {
		return nil, fmt.Errorf("the structure alone: %w", err)
	}
	return &TemplateEnsemble{Members: append([]*TemplateModel{screen}, more...)}, nil
}

// screenRung is the rung of the structure-alone screen beside lead, member 1 with the node
// features: at a third of the epochs, the screen goes on only if it scores above lead's best
// over those epochs less one standard error. It stops no screen that could have been chosen in
// the logs of the runs it was designed on (MUTAG, ENZYMES); a stopped screen scores at most
// lead's best, below what the choice asks. Nil (no rung) without a validation split.
func screenRung(lead *TemplateModel) *rung {
	epoch := (lead.Config.Epochs + 2) / 3
	if lead.validGraphs == 0 || epoch < 1 {
		return nil
	}
	p := math.Inf(-1)
	for _, e := range lead.History[:min(epoch, len(lead.History))] {
		p = math.Max(p, e.ValidationAccuracy)
	}
	if math.IsInf(p, -1) || math.IsNaN(p) {
		return nil
	}
	return &rung{epoch: epoch, bar: p - math.Sqrt(p*(1-p)/float64(lead.validGraphs))}
}

// keptAccuracy is the validation accuracy of the epoch m keeps (NaN without a validation split).
func (m *TemplateModel) keptAccuracy() float64 {
	if m.BestEpoch < 1 || m.BestEpoch > len(m.History) {
		return math.NaN()
	}
	return m.History[m.BestEpoch-1].ValidationAccuracy
}

// ValidationAccuracy is the mean over the members of the validation accuracy of the epoch each
// keeps (NaN without a validation split).
func (e *TemplateEnsemble) ValidationAccuracy() float64 {
	sum := 0.0
	for _, m := range e.Members {
		sum += m.keptAccuracy()
	}
	return sum / float64(len(e.Members))
}

// prefixed passes o the events, their messages prefixed.
func prefixed(o training.Observer, prefix string) training.Observer {
	if o == nil {
		return nil
	}
	return func(e training.Event) {
		if e.Message != "" {
			e.Message = prefix + e.Message
		}
		o(e)
	}
}
