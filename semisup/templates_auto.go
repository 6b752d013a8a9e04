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
const EncoderAuto = "auto"

// trainAuto is TrainTemplates for cfg.Encoder = EncoderAuto: an ensemble without an encoder and
// one with GIN, on the same member seeds (so the same validation splits), the one with the
// higher mean validation accuracy of its members' kept epochs returned (a tie, or validation
// splits too small to score, keep the first, the cheaper). No graph outside the training
// graphs' validation splits chooses.
func trainAuto(ctx context.Context, data []*graphs.Graph, labels []int, classes int, cfg TemplateConfig, opt TemplateOptions) (*TemplateEnsemble, error) {
	var best *TemplateEnsemble
	bestScore := math.Inf(-1)
	for _, enc := range [...]string{EncoderNone, EncoderGIN} {
		c := cfg
		c.Encoder = enc
		o := opt
		o.Observe = prefixed(opt.Observe, "encoder "+enc+": ")
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

// ValidationAccuracy is the mean over the members of the validation accuracy of the epoch each
// keeps (NaN without a validation split).
func (e *TemplateEnsemble) ValidationAccuracy() float64 {
	sum := 0.0
	for _, m := range e.Members {
		if m.BestEpoch < 1 || m.BestEpoch > len(m.History) {
			return math.NaN()
		}
		sum += m.History[m.BestEpoch-1].ValidationAccuracy
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
