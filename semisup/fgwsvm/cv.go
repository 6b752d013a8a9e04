package fgwsvm

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/semisup"
)

// FoldResult is one held-out fold of CrossValidate.
type FoldResult struct {
	Fold     int     `json:"fold"` // 1-based
	Test     int     `json:"test"`
	Accuracy float64 `json:"accuracy"`
	// Choice is what inner cross-validation on the fold's training graphs chose.
	Choice Choice `json:"choice"`
	// Predicted counts the held-out graphs predicted as each class.
	Predicted []int   `json:"predicted"`
	Seconds   float64 `json:"seconds"`
}

// CrossValidate scores the classifier by nested stratified cross-validation: the graphs are
// split into folds (semisup.Folds, so that the folds are those of the GWF classifier for the
// same seed); for each, the candidate, γ and C are chosen by g.Folds-fold cross-validation on
// the other folds' graphs alone, the SVM is trained on all of them and the held-out fold is
// scored once. ds are the candidates' discrepancy matrices over all the graphs (Distances):
// they use no label. labels are class indices in [0, classes); foldDone, if set, is called
// after each fold.
func CrossValidate(ctx context.Context, ds []*mat.SymDense, cands []Candidate, labels []int, classes, folds int, seed uint64, g Grid, foldDone func(FoldResult)) ([]FoldResult, error) {
	if err := checkInputs(ds, cands, labels, classes, g); err != nil {
		return nil, err
	}
	if err := checkSize(ds, len(labels)); err != nil {
		return nil, err
	}
	fold, err := semisup.Folds(labels, folds, seed)
	if err != nil {
		return nil, fmt.Errorf("fgwsvm: %w", err)
	}
	var out []FoldResult
	for f := range folds {
		start := time.Now()
		var train, test []int
		for i, fi := range fold {
			if fi == f {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		ch, err := choose(ctx, ds, cands, labels, train, classes, g)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		m, err := fit(ds, ch, labels, train, classes)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		pred := predictRows(ds, ch, m, test, train)
		r := FoldResult{Fold: f + 1, Test: len(test), Choice: ch, Predicted: make([]int, classes)}
		ok := 0
		for a, i := range test {
			r.Predicted[pred[a]]++
			if pred[a] == labels[i] {
				ok++
			}
		}
		r.Accuracy = float64(ok) / float64(len(test))
		r.Seconds = time.Since(start).Seconds()
		out = append(out, r)
		if foldDone != nil {
			foldDone(r)
		}
	}
	return out, nil
}

// TrainPredict chooses and trains on the graphs with a label (labels[i] ≥ 0; semisup.Unlabeled
// marks the others) and predicts every graph: the labelled-fraction protocol.
func TrainPredict(ctx context.Context, ds []*mat.SymDense, cands []Candidate, labels []int, classes int, g Grid) ([]int, Choice, error) {
	var train []int
	for i, l := range labels {
		if l != semisup.Unlabeled {
			train = append(train, i)
		}
	}
	masked := make([]int, len(labels))
	for i, l := range labels {
		masked[i] = max(l, 0) // unlabelled rows are never read as labels
	}
	if err := checkInputs(ds, cands, pick(masked, train), classes, g); err != nil {
		return nil, Choice{}, err
	}
	if err := checkSize(ds, len(labels)); err != nil {
		return nil, Choice{}, err
	}
	ch, err := choose(ctx, ds, cands, masked, train, classes, g)
	if err != nil {
		return nil, Choice{}, err
	}
	m, err := fit(ds, ch, masked, train, classes)
	if err != nil {
		return nil, Choice{}, err
	}
	return predictRows(ds, ch, m, seq(len(labels)), train), ch, nil
}

func checkInputs(ds []*mat.SymDense, cands []Candidate, labels []int, classes int, g Grid) error {
	if len(ds) == 0 || len(ds) != len(cands) {
		return fmt.Errorf("fgwsvm: %d discrepancy matrices for %d candidates", len(ds), len(cands))
	}
	if err := g.Validate(); err != nil {
		return err
	}
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

// checkSize refuses matrices of another number of graphs than n.
func checkSize(ds []*mat.SymDense, n int) error {
	for _, d := range ds {
		if d.SymmetricDim() != n {
			return fmt.Errorf("fgwsvm: a discrepancy matrix of %d graphs for %d labels", d.SymmetricDim(), n)
		}
	}
	return nil
}
