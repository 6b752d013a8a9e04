package semisup

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// SelfTraining records how a self-trained ensemble (TemplateConfig.PseudoLabels) came about.
type SelfTraining struct {
	// LabelsAlone is the class the first round's ensemble, trained on the labelled graphs
	// alone, predicted for each graph without a label (Unlabeled for the labelled ones): the
	// same model without the unlabelled graphs, for comparison.
	LabelsAlone []int
	// Pseudo is the class each graph without a label trained with in the second round
	// (Unlabeled where it was not confident enough, and for the labelled graphs).
	Pseudo []int
}

// PseudoLabelled is the number of graphs that trained with a pseudo-label.
func (s *SelfTraining) PseudoLabelled() int {
	n := 0
	for _, c := range s.Pseudo {
		if c != Unlabeled {
			n++
		}
	}
	return n
}

// selfTrain is TrainTemplates with cfg.PseudoLabels > 0 and graphs without a label: the
// ensemble trained on the labelled graphs alone (round 1) predicts the others; per predicted
// class, the most confident share cfg.PseudoLabels of them take that class (pseudoLabels); a
// second ensemble, on the same member seeds and with round 1's choices of node features and
// encoder, trains on the labelled and pseudo-labelled graphs, its validation splits those of
// round 1 (drawn from the true labels). A graph's pseudo-label is the first round's belief,
// so classes the labels already separate spread to the graphs like them.
func selfTrain(ctx context.Context, data []*graphs.Graph, labels []int, classes int, cfg TemplateConfig, opt TemplateOptions) (*TemplateEnsemble, error) {
	first := cfg
	first.PseudoLabels = 0
	alone, err := TrainTemplates(ctx, data, labels, classes, first, TemplateOptions{Workers: opt.Workers, Observe: prefixed(opt.Observe, "labels alone: ")})
	if err != nil {
		return nil, fmt.Errorf("self-training, labels alone: %w", err)
	}
	var idx []int
	var rest []*graphs.Graph
	for i, l := range labels {
		if l == Unlabeled {
			idx, rest = append(idx, i), append(rest, data[i])
		}
	}
	p, err := alone.Probabilities(ctx, rest, opt.Workers)
	if err != nil {
		return nil, fmt.Errorf("self-training, labels alone: %w", err)
	}
	st := &SelfTraining{LabelsAlone: filled(len(data), idx, ArgMax(p)), Pseudo: filled(len(data), idx, pseudoLabels(p, cfg.PseudoLabels))}
	opt.Observe.Say(false, "self-training: %d of %d graphs without a label take the class the labelled graphs' model predicts", st.PseudoLabelled(), len(idx))
	second := first
	second.Encoder, second.NodeFeatures = alone.Members[0].Config.Encoder, alone.Members[0].Config.NodeFeatures
	cfgs := make([]TemplateConfig, second.MemberCount())
	for k := range cfgs {
		cfgs[k] = memberConfig(second, k)
	}
	models, err := trainMembers(ctx, data, labels, st.Pseudo, classes, cfgs, memberNames(len(cfgs)), TemplateOptions{Workers: opt.Workers, Observe: prefixed(opt.Observe, "self-trained: ")})
	if err != nil {
		return nil, fmt.Errorf("self-training: %w", err)
	}
	return &TemplateEnsemble{Members: models, SelfTraining: st}, nil
}

// pseudoLabels gives each row of p (class probabilities) its most likely class where the row is
// among the most confident share of the rows predicted that class (at least one per class
// predicted; ties by row), and Unlabeled elsewhere.
func pseudoLabels(p *mat.Dense, share float64) []int {
	pred := ArgMax(p)
	byClass := map[int][]int{}
	for r, c := range pred {
		byClass[c] = append(byClass[c], r)
	}
	out := make([]int, len(pred))
	for r := range out {
		out[r] = Unlabeled
	}
	for c, rows := range byClass {
		slices.SortStableFunc(rows, func(a, b int) int { return cmp.Compare(p.At(b, c), p.At(a, c)) })
		keep := min(len(rows), max(1, int(math.Ceil(share*float64(len(rows))))))
		for _, r := range rows[:keep] {
			out[r] = c
		}
	}
	return out
}

// filled is a slice of n Unlabeled with vals[j] at idx[j].
func filled(n int, idx, vals []int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = Unlabeled
	}
	for j, i := range idx {
		out[i] = vals[j]
	}
	return out
}

// withPseudoLabels is labels with pseudo's classes where labels has none (labels itself for a
// nil pseudo).
func withPseudoLabels(labels, pseudo []int) []int {
	if pseudo == nil {
		return labels
	}
	out := slices.Clone(labels)
	for i, l := range labels {
		if l == Unlabeled {
			out[i] = pseudo[i]
		}
	}
	return out
}
