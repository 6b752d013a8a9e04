package cluster

import (
	"fmt"
	"math"
)

// Scores collects the clustering metrics of Evaluate, each in [0, 1] except ARI, which can be
// negative for worse-than-chance agreement.
type Scores struct {
	Accuracy, NMI, ARI, RandIndex float64
}

// Evaluate computes all metrics of truth (class labels) against pred (cluster labels).
func Evaluate(truth, pred []int) (Scores, error) {
	t, err := newContingency(truth, pred)
	if err != nil {
		return Scores{}, err
	}
	return Scores{Accuracy: t.accuracy(), NMI: t.nmi(), ARI: t.ari(), RandIndex: t.randIndex()}, nil
}

// Accuracy is the clustering accuracy: the fraction of points on the best one-to-one matching
// of clusters to classes, found with the Hungarian algorithm on the contingency table. Extra
// clusters (or classes) stay unmatched and their points count as errors. For two classes and
// two clusters it equals 1 − min(‖y−ŷ‖₁, ‖y−1+ŷ‖₁)/N, the GWF paper's formula.
func Accuracy(truth, pred []int) (float64, error) {
	t, err := newContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return t.accuracy(), nil
}

// NMI is the normalized mutual information with arithmetic-mean normalization,
// I(U;V) / ((H(U)+H(V))/2), as scikit-learn's default. When both labelings put every point in
// one cluster it is defined as 1 (a perfect, if trivial, match).
func NMI(truth, pred []int) (float64, error) {
	t, err := newContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return t.nmi(), nil
}

// ARI is the adjusted Rand index of Hubert and Arabie: the Rand index corrected for chance,
// 1 for identical partitions and about 0 for independent ones. As in scikit-learn, it is 1
// when the pair counts leave it undefined (for example both labelings all singletons).
func ARI(truth, pred []int) (float64, error) {
	t, err := newContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return t.ari(), nil
}

// RandIndex is the fraction of point pairs on which the labelings agree (both together or
// both apart). It is 1 for a single point, where there are no pairs.
func RandIndex(truth, pred []int) (float64, error) {
	t, err := newContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return t.randIndex(), nil
}

// contingency is the class × cluster count table of two labelings.
type contingency struct {
	n      int
	counts [][]int // counts[i][j]: points of class i in cluster j.
	rows   []int   // Class sizes.
	cols   []int   // Cluster sizes.
}

func newContingency(truth, pred []int) (*contingency, error) {
	if len(truth) != len(pred) {
		return nil, fmt.Errorf("cluster: %d true labels but %d predicted labels", len(truth), len(pred))
	}
	if len(truth) == 0 {
		return nil, fmt.Errorf("cluster: no labels to compare")
	}
	ti, nr := relabel(truth)
	pi, nc := relabel(pred)
	t := &contingency{n: len(truth), counts: make([][]int, nr), rows: make([]int, nr), cols: make([]int, nc)}
	for i := range t.counts {
		t.counts[i] = make([]int, nc)
	}
	for k := range ti {
		t.counts[ti[k]][pi[k]]++
		t.rows[ti[k]]++
		t.cols[pi[k]]++
	}
	return t, nil
}

// relabel maps arbitrary int labels to 0..m-1 in order of first appearance.
func relabel(labels []int) ([]int, int) {
	ids := make(map[int]int)
	out := make([]int, len(labels))
	for i, l := range labels {
		id, ok := ids[l]
		if !ok {
			id = len(ids)
			ids[l] = id
		}
		out[i] = id
	}
	return out, len(ids)
}

func (t *contingency) accuracy() float64 {
	cost := make([][]float64, len(t.counts))
	for i, row := range t.counts {
		cost[i] = make([]float64, len(row))
		for j, c := range row {
			cost[i][j] = -float64(c) // Maximise matched counts.
		}
	}
	matched := 0
	for i, j := range minCostAssignment(cost) {
		if j >= 0 {
			matched += t.counts[i][j]
		}
	}
	return float64(matched) / float64(t.n)
}

func (t *contingency) nmi() float64 {
	if len(t.rows) == 1 && len(t.cols) == 1 {
		return 1
	}
	n := float64(t.n)
	logN := math.Log(n)
	mi := 0.0
	for i, row := range t.counts {
		for j, c := range row {
			if c == 0 {
				continue
			}
			nij := float64(c)
			mi += nij / n * (math.Log(nij) + logN - math.Log(float64(t.rows[i])) - math.Log(float64(t.cols[j])))
		}
	}
	if mi <= 0 {
		return 0 // Independent labelings; rounding can make mi slightly negative.
	}
	h := (entropy(t.rows, n) + entropy(t.cols, n)) / 2
	// MI ≤ min(H(U), H(V)) ≤ their mean, so anything above 1 is rounding.
	return math.Min(mi/h, 1)
}

func entropy(sizes []int, n float64) float64 {
	h := 0.0
	for _, s := range sizes {
		p := float64(s) / n
		h -= p * math.Log(p)
	}
	return h
}

// pairCounts returns the pair confusion matrix over ordered pairs of distinct points, as
// scikit-learn: tp together in both, fp together only in pred, fn together only in truth, tn
// apart in both. Counts are exact in float64 for n < 2^26.
func (t *contingency) pairCounts() (tp, fp, fn, tn float64) {
	var sumSq, rowSq, colSq float64
	for _, row := range t.counts {
		for _, c := range row {
			sumSq += float64(c) * float64(c)
		}
	}
	for _, r := range t.rows {
		rowSq += float64(r) * float64(r)
	}
	for _, c := range t.cols {
		colSq += float64(c) * float64(c)
	}
	n := float64(t.n)
	tp = sumSq - n
	fp = colSq - sumSq
	fn = rowSq - sumSq
	tn = n*n - fp - fn - sumSq
	return tp, fp, fn, tn
}

func (t *contingency) ari() float64 {
	tp, fp, fn, tn := t.pairCounts()
	if fn == 0 && fp == 0 {
		return 1 // Identical partitions, including the undefined 0/0 cases.
	}
	return 2 * (tp*tn - fn*fp) / ((tp+fn)*(fn+tn) + (tp+fp)*(fp+tn))
}

func (t *contingency) randIndex() float64 {
	tp, fp, fn, tn := t.pairCounts()
	total := tp + fp + fn + tn
	if total == 0 {
		return 1 // A single point: no pairs to disagree on.
	}
	return (tp + tn) / total
}
