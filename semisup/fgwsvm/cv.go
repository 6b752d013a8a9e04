package fgwsvm

import (
	"context"
	"fmt"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/classlabel"
	"github.com/gwf-graphs/gwf/internal/split"
	"github.com/gwf-graphs/gwf/internal/subset"
)

// FoldResult is one held-out fold of CrossValidate.
type FoldResult struct {
	Fold     int     `json:"fold"` // 1-based
	Test     int     `json:"test"`
	Accuracy float64 `json:"accuracy"`
	// Choice is what inner cross-validation on the fold's training graphs chose: the best
	// candidate; Voters, where more than one voted, all the voters (Choice is the first).
	Choice Choice `json:"choice"`
	Voters Vote   `json:"voters,omitempty"`
	// Predicted counts the held-out graphs predicted as each class.
	Predicted []int `json:"predicted"`
	// Graphs are the held-out graphs (indices into the data) and Predictions their predicted
	// classes, in that order. Absent from reports written before they were kept.
	Graphs      []int   `json:"graphs,omitempty"`
	Predictions []int   `json:"predictions,omitempty"`
	Seconds     float64 `json:"seconds"`
}

// Chosen is the fold's vote (its one choice where a single candidate decided).
func (r FoldResult) Chosen() Vote {
	if len(r.Voters) > 0 {
		return r.Voters
	}
	return Vote{r.Choice}
}

// CrossValidate scores the classifier by nested stratified cross-validation: the graphs are
// split into folds (internal/split.Folds, so that the folds are those of the GWF classifier for the
// same seed); for each, the voters (candidate, γ and C; Settings.VoteFor) are chosen by
// cross-validation on the other folds' graphs alone (screened, see Settings.Screen), their
// SVMs are trained on all of them and the held-out fold is scored once. The discrepancies use
// no label: each matrix is computed once for all graphs and serves every fold. labels are class indices in [0, classes);
// foldDone, if set, is called after each fold.
func CrossValidate(ctx context.Context, data []*graphs.Graph, labels []int, classes, folds int, seed uint64, s Settings, opt Options, foldDone func(FoldResult)) ([]FoldResult, Stats, error) {
	if len(data) != len(labels) {
		return nil, Stats{}, fmt.Errorf("fgwsvm: %d graphs and %d labels", len(data), len(labels))
	}
	if err := checkLabels(labels, classes); err != nil {
		return nil, Stats{}, err
	}
	fold, err := split.Folds(labels, folds, seed)
	if err != nil {
		return nil, Stats{}, fmt.Errorf("fgwsvm: %w", err)
	}
	if s.Budget > 0 { // planned before any label is read, as the folds' own work
		var out []FoldResult
		st, err := budgeted(ctx, data, folds, s, opt, func(ctx context.Context, s Settings, done *int) (Stats, error) {
			res, st, err := CrossValidate(ctx, data, labels, classes, folds, seed, s, opt, func(r FoldResult) {
				*done++
				if foldDone != nil {
					foldDone(r)
				}
			})
			out = res
			return st, err
		})
		return out, st, err
	}
	mx, err := newMatrices(ctx, data, s, opt)
	if err != nil {
		return nil, Stats{}, err
	}
	trains, tests := make([][]int, folds), make([][]int, folds)
	for i, fi := range fold {
		for f := range folds {
			if fi == f {
				tests[f] = append(tests[f], i)
			} else {
				trains[f] = append(trains[f], i)
			}
		}
	}
	screened, err := mx.plan(trains, labels, classes, s.Grid)
	if err != nil {
		return nil, Stats{}, err
	}
	key := ""
	if opt.Dir != "" {
		key = foldKey(data, labels, folds, seed, s, opt.solver())
	}
	var out []FoldResult
	for f := range folds {
		if key != "" {
			if r, ok := keptFold(foldFile(opt.Dir, key, f+1), f+1); ok {
				opt.log("fold %d of %d: kept in %s", f+1, folds, foldFile(opt.Dir, key, f+1))
				out = append(out, r)
				if foldDone != nil {
					foldDone(r)
				}
				continue
			}
		}
		start := time.Now()
		train, test := trains[f], tests[f]
		v, err := mx.chooseFor(train, labels, classes, s.Grid, screened[f])
		if err != nil {
			return nil, Stats{}, fmt.Errorf("fold %d: %w", f+1, err)
		}
		vs, err := mx.fitFor(v, labels, train, classes)
		if err != nil {
			return nil, Stats{}, fmt.Errorf("fold %d: %w", f+1, err)
		}
		pred := predictVote(vs, test, train, classes)
		r := FoldResult{Fold: f + 1, Test: len(test), Choice: v[0], Predicted: make([]int, classes), Graphs: test, Predictions: pred}
		if len(v) > 1 {
			r.Voters = v
		}
		ok := 0
		for a, i := range test {
			r.Predicted[pred[a]]++
			if pred[a] == labels[i] {
				ok++
			}
		}
		r.Accuracy = float64(ok) / float64(len(test))
		r.Seconds = time.Since(start).Seconds()
		if key != "" {
			if err := keepFold(foldFile(opt.Dir, key, f+1), r); err != nil {
				return nil, Stats{}, err
			}
		}
		out = append(out, r)
		if foldDone != nil {
			foldDone(r)
		}
	}
	return out, mx.stats, nil
}

// TrainPredict chooses and trains on the graphs with a label (labels[i] ≥ 0; classlabel.Unlabeled
// marks the others) and predicts every graph: the labelled-fraction protocol.
func TrainPredict(ctx context.Context, data []*graphs.Graph, labels []int, classes int, s Settings, opt Options) ([]int, Vote, Stats, error) {
	if len(data) != len(labels) {
		return nil, nil, Stats{}, fmt.Errorf("fgwsvm: %d graphs and %d labels", len(data), len(labels))
	}
	var train []int
	masked := make([]int, len(labels))
	for i, l := range labels {
		if l != classlabel.Unlabeled {
			train = append(train, i)
		}
		masked[i] = max(l, 0) // unlabelled graphs' labels are never read
	}
	if err := checkLabels(subset.Ints(labels, train), classes); err != nil {
		return nil, nil, Stats{}, err
	}
	if s.Budget > 0 {
		var pred []int
		var v Vote
		st, err := budgeted(ctx, data, 1, s, opt, func(ctx context.Context, s Settings, _ *int) (st Stats, err error) {
			pred, v, st, err = TrainPredict(ctx, data, labels, classes, s, opt)
			return st, err
		})
		return pred, v, st, err
	}
	mx, err := newMatrices(ctx, data, s, opt)
	if err != nil {
		return nil, nil, Stats{}, err
	}
	screened, err := mx.plan([][]int{train}, masked, classes, s.Grid)
	if err != nil {
		return nil, nil, Stats{}, err
	}
	v, err := mx.chooseFor(train, masked, classes, s.Grid, screened[0])
	if err != nil {
		return nil, nil, Stats{}, err
	}
	vs, err := mx.fitFor(v, masked, train, classes)
	if err != nil {
		return nil, nil, Stats{}, err
	}
	return predictVote(vs, seq(len(labels)), train, classes), v, mx.stats, nil
}

// checkLabels refuses labels out of [0, classes) and fewer than two classes.
func checkLabels(labels []int, classes int) error {
	seen := map[int]bool{}
	for i, l := range labels {
		if l < 0 || l >= classes {
			return fmt.Errorf("fgwsvm: label %d of graph %d is not a class index in [0, %d)", l, i, classes)
		}
		seen[l] = true
	}
	if len(seen) < 2 {
		return fmt.Errorf("fgwsvm: the labelled graphs have %d class(es); a classifier needs at least 2", len(seen))
	}
	return nil
}
