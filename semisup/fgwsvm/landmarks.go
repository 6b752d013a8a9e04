package fgwsvm

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/subset"
	"github.com/gwf-graphs/gwf/layers/observe"
	"github.com/gwf-graphs/gwf/layers/pairwise"
	"github.com/gwf-graphs/gwf/semisup/svm"
)

// Landmark (Nyström) kernels (Settings.Landmarks). Under an FGW candidate each training set
// T has m landmark graphs L ⊆ T, and its graphs are compared with them only: the kernel of
// two graphs x, y is the Nyström approximation
//
//	K̃(x, y) = k(x)ᵀ · K_LL⁺ · k(y),  k(x) = (exp(−s·d(x, l)))_{l ∈ L},  K_LL = (exp(−s·d(l, l')))
//
// of the full kernel exp(−s·d), s = γ/median, with K_LL⁺ the pseudo-inverse of its symmetric
// eigendecomposition (eigenvalues of magnitude at most PinvTolerance times the largest cut).
// Where L = T, K̃ = K on T: the full kernel. The median γ is relative to is the full path's
// (the median discrepancy of the pairs of T) over the pairs the landmarks give: each unordered
// pair {x, l} of a graph x of T and a landmark l ≠ x, once; where L = T, every pair of T. γ
// and C are chosen on T alone, by the inner cross-validation of the full path, on K̃ of T.
//
// An SVM on K̃ with coefficients α over its support graphs S decides by
// Σ_s α_s·K̃(x, s) + b = k(x)ᵀ·w + b with w = K_LL⁺·Σ_s α_s·k(s): the Nyström features of
// x, K_LL⁺·k(x), enter only through w. The voter keeps the machines in that form, an SVM
// whose support graphs are the landmarks and whose coefficients are w; a held-out graph (in
// cross-validation) and an unseen one (Model.Predict, which needs no change) are scored by
// their discrepancies to the landmarks alone, by the same computation.

// PinvTolerance is the relative threshold of the pseudo-inverse of the landmarks' kernel:
// eigenvalues λ with |λ| ≤ PinvTolerance·max|λ| are cut. Negative eigenvalues are kept, as in
// the full kernel (exp(−γ·FGW) need not be positive semi-definite). The threshold trades the
// two uses of K̃: where every training graph is a landmark, K̃ should be K, which a lower
// threshold approaches more closely; with fewer landmarks, near-null directions of an
// indefinite K_LL blow a new graph's K̃ up, more so at a lower threshold
// (docs/results/classification.md, "Landmarks and a time budget", has the measurements). The
// inner cross-validation passes over a γ whose kernel is that poor.
const PinvTolerance = 1e-10

// checkLandmarkSetting refuses a negative number of landmarks, and one: a kernel of rank one.
func checkLandmarkSetting(m int) error {
	if m < 0 || m == 1 {
		return fmt.Errorf("fgwsvm: %d landmarks, want 0 (the full kernel) or at least 2", m)
	}
	return nil
}

// landmarkSet draws each training set's landmarks and keeps the discrepancies of all graphs
// to their union.
//
// A training set's landmarks are its m graphs with the lowest key, a seeded hash of each
// graph's content (ties: the lower index). That is a uniform random sample, the usual
// Nyström choice, drawn without labels or discrepancies (farthest-point sampling would cost
// discrepancies itself); and since a graph's key depends on the seed and the graph alone,
// the samples of the folds' training sets are nested (they share all but a few landmarks,
// and the discrepancies to their union are computed once), and a classifier trained on some
// graphs has the landmarks cross-validation gave the same training graphs.
type landmarkSet struct {
	m    int
	rank []int // the graphs by key, lowest first
	// union are the landmarks of every training set planned (draw), ascending; col maps a
	// graph of union to its column in d; d are the FGW candidates' matrices (len(data) ×
	// len(union)), computed on demand.
	union []int
	col   map[int]int
	d     map[int]*mat.Dense
}

func newLandmarkSet(data []*graphs.Graph, m int, seed uint64) *landmarkSet {
	keys := make([]uint64, len(data))
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], seed)
	for i, g := range data {
		h := sha256.New()
		h.Write(buf[:])
		h.Write([]byte(graphs.Fingerprint([]*graphs.Graph{g})))
		keys[i] = binary.LittleEndian.Uint64(h.Sum(nil))
	}
	rank := seq(len(data))
	slices.SortFunc(rank, func(a, b int) int { return cmp.Or(cmp.Compare(keys[a], keys[b]), cmp.Compare(a, b)) })
	return &landmarkSet{m: m, rank: rank, col: map[int]int{}, d: map[int]*mat.Dense{}}
}

// of is the landmarks of the training graphs train (sorted): min(m, len(train)) of them,
// ascending.
func (l *landmarkSet) of(train []int) []int {
	k := min(l.m, len(train))
	out := make([]int, 0, k)
	for _, i := range l.rank {
		if len(out) == k {
			break
		}
		if _, ok := slices.BinarySearch(train, i); ok {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

// draw sets the union of the landmarks of the training sets trains (nothing on a nil set).
// Matrices computed already are dropped where it changes.
func (l *landmarkSet) draw(trains [][]int) {
	if l == nil {
		return
	}
	var union []int
	for _, t := range trains {
		union = append(union, l.of(t)...)
	}
	slices.Sort(union)
	union = slices.Compact(union)
	if slices.Equal(union, l.union) {
		return
	}
	l.union, l.col, l.d = union, map[int]int{}, map[int]*mat.Dense{}
	for c, i := range union {
		l.col[i] = c
	}
}

// landmarked reports whether candidate ci compares graphs with landmarks: an FGW candidate
// under Settings.Landmarks (vector candidates keep their full matrices, seconds of work).
func (m *matrices) landmarked(ci int) bool {
	return m.lm != nil && !m.cands[ci].vector()
}

// matrixPairs is the number of discrepancies of an FGW candidate's matrix over all graphs:
// n(n−1)/2, or those to the landmarks (m ones per training set assumed before they are drawn).
func (m *matrices) matrixPairs() int {
	n := len(m.data)
	if m.lm == nil {
		return pairwise.Pairs(n)
	}
	u := len(m.lm.union)
	if u == 0 {
		u = min(m.lm.m, n)
	}
	return pairwise.Pairs(u) + (n-u)*u
}

// landmarkMatrix is FGW candidate ci's discrepancies of all graphs to the landmarks of every
// training set planned: the landmarks' matrix among themselves, then the other graphs' to
// them, each kept in Options.Dir and resumed like a full matrix. A full matrix of all graphs
// kept there by an earlier run serves instead.
func (m *matrices) landmarkMatrix(ci int) (*mat.Dense, error) {
	if d, ok := m.lm.d[ci]; ok {
		return d, nil
	}
	union := m.lm.union
	if len(union) == 0 {
		return nil, errors.New("fgwsvm: the landmarks were not drawn (plan)")
	}
	c, n := m.cands[ci], len(m.data)
	cost := MatrixCost{Candidate: c, Graphs: n, Landmarks: len(union)}
	start := time.Now()
	if m.opt.Dir != "" {
		if full, ok := loadMatrix(matrixFile(m.opt.Dir, m.data, c, m.opt.solver()), n); ok {
			m.opt.log("reusing the full matrix of %s for its %d landmarks", c, len(union))
			d := mat.NewDense(n, len(union), nil)
			for i := range n {
				for a, l := range union {
					d.Set(i, a, full.At(i, l))
				}
			}
			cost.Reused = true
			m.fullDone += m.matrixPairs()
			m.lm.d[ci] = d
			m.stats.add([]MatrixCost{cost})
			return d, nil
		}
	}
	pairs := m.matrixPairs()
	among := pairwise.Pairs(len(union))
	offset, total := 0, pairs // one count over the matrix, or over the plan's (fullOf)
	if m.opt.Observe != nil && m.fullDone+pairs <= m.fullTotal {
		offset, total = m.fullDone, m.fullTotal
	}
	m.opt.log("discrepancies of all %d graphs to %d landmarks under %s (%d)", n, len(union), c, pairs)
	d := mat.NewDense(n, len(union), nil)
	if len(union) > 1 {
		opt := m.opt
		if outer := opt.Observe; outer != nil {
			opt.Observe = func(e observe.Event) { // the count of distances' one matrix → ours
				if e.Total == among {
					e.Done, e.Total = offset+e.Done, total
				}
				outer(e)
			}
		}
		ds, costs, err := distances(m.ctx, graphsAt(m.data, union), []Candidate{c}, opt)
		if err != nil {
			return nil, err
		}
		for a, i := range union {
			for b := range union {
				d.Set(i, b, ds[0].At(a, b))
			}
		}
		cost.GWDs, cost.Reused = costs[0].GWDs, costs[0].Reused
	}
	var rest []int
	for i := range n {
		if _, ok := m.lm.col[i]; !ok {
			rest = append(rest, i)
		}
	}
	if len(rest) > 0 {
		cross, reused, err := m.crossToLandmarks(c, rest, union, offset+among, total)
		if err != nil {
			return nil, err
		}
		for a, i := range rest {
			d.SetRow(i, cross.RawRowView(a))
		}
		if !reused {
			cost.GWDs += len(rest) * len(union)
		}
		cost.Reused = cost.Reused && reused
	}
	if cost.GWDs > 0 {
		cost.Seconds = time.Since(start).Seconds()
	}
	m.fullDone += pairs
	m.lm.d[ci] = d
	m.stats.add([]MatrixCost{cost})
	return d, nil
}

// crossToLandmarks is the discrepancies of the graphs rest to the landmarks union under c,
// reported after offset of total; kept in Options.Dir, in part while they are computed
// (crossKept), reused reports whether they were found there whole.
func (m *matrices) crossToLandmarks(c Candidate, rest, union []int, offset, total int) (d *mat.Dense, reused bool, err error) {
	a, b := graphsAt(m.data, rest), graphsAt(m.data, union)
	var path string
	if m.opt.Dir != "" {
		path = landmarkFile(m.opt.Dir, a, b, c, m.opt.solver())
		if d, ok := loadCross(path, len(a), len(b)); ok {
			m.opt.log("reusing %s", path)
			return d, true, nil
		}
	}
	if path == "" {
		d, err = crossDistances(m.ctx, a, b, c, nil, m.opt, offset, total)
		return d, false, err
	}
	if d, err = m.opt.crossKept(m.ctx, a, b, c, path, offset, total, crossBlock); err != nil {
		return nil, false, err
	}
	if err := saveCross(path, d); err != nil {
		return nil, false, fmt.Errorf("fgwsvm: keep the matrix: %w", err)
	}
	removePartial(path)
	return d, false, nil
}

// nystrom is what the landmark kernel of a training set is made of: the discrepancies of its
// graphs (rows) to its landmarks lm, and among the landmarks.
type nystrom struct {
	rows, lm []int
	dtl      *mat.Dense    // len(rows) × len(lm)
	dll      *mat.SymDense // len(lm) × len(lm)
	// cols are lm's columns in all, the discrepancies of all graphs to the landmarks' union.
	cols []int
	all  *mat.Dense
}

// nystromFor is candidate ci's discrepancies of the training graphs train to their landmarks.
func (m *matrices) nystromFor(ci int, train []int) (*nystrom, error) {
	all, err := m.landmarkMatrix(ci)
	if err != nil {
		return nil, err
	}
	lm := m.lm.of(train)
	cols := make([]int, len(lm))
	for a, l := range lm {
		c, ok := m.lm.col[l]
		if !ok {
			return nil, fmt.Errorf("fgwsvm: landmark %d of a training set that was not planned", l)
		}
		cols[a] = c
	}
	nk := &nystrom{rows: train, lm: lm, cols: cols, all: all,
		dtl: mat.NewDense(len(train), len(lm), nil), dll: mat.NewSymDense(len(lm), nil)}
	for a, i := range train {
		for b, c := range cols {
			nk.dtl.Set(a, b, all.At(i, c))
		}
	}
	for a, l := range lm {
		for b := a; b < len(lm); b++ {
			nk.dll.SetSym(a, b, all.At(l, cols[b]))
		}
	}
	return nk, nil
}

// median is the median of the discrepancies of the unordered pairs {x, l} of a training
// graph x and a landmark l ≠ x, each once: the full path's median of the training pairs
// (svm.MedianOffDiagonal) restricted to the pairs with a landmark. Like it, 1 where there are
// none or it is not positive.
func (nk *nystrom) median() float64 {
	xs := make([]float64, 0, len(nk.rows)*len(nk.lm))
	for a, i := range nk.rows {
		_, isLandmark := slices.BinarySearch(nk.lm, i)
		for b, l := range nk.lm {
			if i == l || isLandmark && i > l { // {l, i}, l < i: counted in row l
				continue
			}
			xs = append(xs, nk.dtl.At(a, b))
		}
	}
	return svm.MedianScale(xs)
}

// pinvSym is the pseudo-inverse V·diag(inv)·Vᵀ of a symmetric matrix, over the eigenvalues
// kept.
type pinvSym struct {
	v   *mat.Dense // m × r
	inv []float64  // r
}

// pseudoInverse is k⁺ through k's symmetric eigendecomposition, eigenvalues of magnitude at
// most PinvTolerance times the largest cut.
func pseudoInverse(k *mat.SymDense) (pinvSym, error) {
	var es mat.EigenSym
	if !es.Factorize(k, true) {
		return pinvSym{}, errors.New("the eigendecomposition of the landmarks' kernel failed")
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	top := 0.0
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return pinvSym{}, fmt.Errorf("the landmarks' kernel has eigenvalue %v", v)
		}
		top = max(top, math.Abs(v))
	}
	var keep []int
	for j, v := range vals {
		if math.Abs(v) > PinvTolerance*top {
			keep = append(keep, j)
		}
	}
	if len(keep) == 0 {
		return pinvSym{}, errors.New("the landmarks' kernel is zero")
	}
	m := k.SymmetricDim()
	p := pinvSym{v: mat.NewDense(m, len(keep), nil), inv: make([]float64, len(keep))}
	for a, j := range keep {
		p.v.SetCol(a, mat.Col(nil, j, &vecs))
		p.inv[a] = 1 / vals[j]
	}
	return p, nil
}

// apply is p·u.
func (p pinvSym) apply(u []float64) []float64 {
	t := mat.NewVecDense(len(p.inv), nil)
	t.MulVec(p.v.T(), mat.NewVecDense(len(u), u))
	for a, s := range p.inv {
		t.SetVec(a, t.AtVec(a)*s)
	}
	w := mat.NewVecDense(len(u), nil)
	w.MulVec(p.v, t)
	return w.RawVector().Data
}

// landmarkKernel is the Nyström kernel of a training set at one scale: k, of its graphs,
// made of ktl (the kernel of its graphs to its landmarks) and p (the landmarks' kernel's
// pseudo-inverse).
type landmarkKernel struct {
	k   *mat.SymDense
	ktl *mat.Dense
	p   pinvSym
}

// kernel is the Nyström approximation of exp(−s·d) on the training graphs.
func (nk *nystrom) kernel(s float64) (landmarkKernel, error) {
	ktl, kll := svm.ExpKernel(nk.dtl, s), svm.ExpKernelSym(nk.dll, s)
	// exp(−s·d) overflows where a discrepancy is negative (rounding) and s huge.
	if err := checkFinite(ktl); err != nil {
		return landmarkKernel{}, fmt.Errorf("the kernel to the landmarks is not finite at scale %g: %w", s, err)
	}
	if err := checkFinite(kll); err != nil {
		return landmarkKernel{}, fmt.Errorf("the landmarks' kernel is not finite at scale %g: %w", s, err)
	}
	p, err := pseudoInverse(kll)
	if err != nil {
		return landmarkKernel{}, err
	}
	f := mat.NewDense(len(nk.rows), len(p.inv), nil)
	f.Mul(ktl, p.v)
	// K̃ = F·diag(inv)·Fᵀ = F₊F₊ᵀ − F₋F₋ᵀ, the columns of F scaled by √|inv| and split by sign:
	// exactly symmetric.
	var pos, neg []int
	for a, s := range p.inv {
		if s > 0 {
			pos = append(pos, a)
		} else {
			neg = append(neg, a)
		}
	}
	part := func(cols []int) *mat.Dense {
		out := mat.NewDense(len(nk.rows), len(cols), nil)
		for b, a := range cols {
			r := math.Sqrt(math.Abs(p.inv[a]))
			for i := range len(nk.rows) {
				out.Set(i, b, r*f.At(i, a))
			}
		}
		return out
	}
	k := mat.NewSymDense(len(nk.rows), nil)
	if len(pos) > 0 {
		k.SymOuterK(1, part(pos))
	}
	if len(neg) > 0 {
		k.SymRankK(k, -1, part(neg))
	}
	if err := checkFinite(k); err != nil {
		return landmarkKernel{}, fmt.Errorf("the landmark kernel: %w", err)
	}
	return landmarkKernel{k: k, ktl: ktl, p: p}, nil
}

// selectLandmarks is svm.SelectExp on candidate ci's landmark kernel of the training graphs
// train (labels yi): the same grid, folds, order and ties.
func (m *matrices) selectLandmarks(ci int, train, yi []int, classes int, g Grid, folds [][]int) (svm.ExpChoice, error) {
	nk, err := m.nystromFor(ci, train)
	if err != nil {
		return svm.ExpChoice{}, err
	}
	med := nk.median()
	return svm.SelectKernels(m.ctx, func(gm float64) (mat.Symmetric, error) {
		lk, err := nk.kernel(gm / med)
		return lk.k, err
	}, med, yi, classes, g.Gammas, g.Cs, folds...)
}

// chooseLandmarked is chooseFor under Settings.Landmarks: the FGW candidates' γ and C are
// chosen on their landmark kernels, the vector candidates' on their full matrices.
func (m *matrices) chooseLandmarked(train, y []int, classes int, g Grid, screened Vote) (Vote, error) {
	sel := func(ci int, yi []int, folds [][]int) (svm.ExpChoice, error) {
		if m.landmarked(ci) {
			return m.selectLandmarks(ci, train, yi, classes, g, folds)
		}
		d, err := m.matrixFor(ci, train)
		if err != nil {
			return svm.ExpChoice{}, err
		}
		return svm.SelectExp(m.ctx, subSym(d, train), yi, classes, g.Gammas, g.Cs, folds...)
	}
	mark := func(v Vote) Vote {
		k := len(m.lm.of(train))
		for a := range v {
			if m.landmarked(v[a].index) {
				v[a].Landmarks = k
			}
		}
		return v
	}
	if m.screen == nil {
		each, err := chooseEachBy(m.cands, y, train, g, sel)
		if err != nil {
			return nil, err
		}
		return cutVote(ranked(mark(each), m.vote), m.within, len(train)), nil
	}
	out := make(Vote, len(screened))
	for k, sc := range screened {
		one, err := chooseEachBy(m.cands[sc.index:sc.index+1], y, train, g, func(_ int, yi []int, folds [][]int) (svm.ExpChoice, error) {
			return sel(sc.index, yi, folds)
		})
		if err != nil {
			return nil, err
		}
		out[k] = one[0]
		out[k].index, out[k].Screening = sc.index, sc.Validation
	}
	setHandicaps(mark(out), len(train))
	return cutVote(ranked(out, m.vote), m.within, len(train)), nil
}

// fitLandmarked is fitFor under Settings.Landmarks.
func (m *matrices) fitLandmarked(v Vote, y, train []int, classes int) ([]voter, error) {
	out := make([]voter, len(v))
	for k, ch := range v {
		if m.landmarked(ch.index) {
			vt, err := m.fitLandmarks(ch, y, train, classes)
			if err != nil {
				return nil, err
			}
			out[k] = vt
			continue
		}
		d, err := m.matrixFor(ch.index, train)
		if err != nil {
			return nil, err
		}
		vs, err := fitVote(Vote{ch}, []*mat.SymDense{d}, y, train, classes)
		if err != nil {
			return nil, err
		}
		out[k] = vs[0]
	}
	return out, nil
}

// fitLandmarks trains choice ch's SVM on its landmark kernel of the graphs train and folds the
// kernel into it: an SVM whose support graphs are the landmarks, with coefficients
// w = K_LL⁺·Σ_s α_s·k(s), that reads a graph's kernel to the landmarks alone.
func (m *matrices) fitLandmarks(ch Choice, y, train []int, classes int) (voter, error) {
	nk, err := m.nystromFor(ch.index, train)
	if err != nil {
		return voter{}, err
	}
	lk, err := nk.kernel(ch.kernelScale())
	if err != nil {
		return voter{}, fmt.Errorf("fgwsvm: %s: %w", ch.Candidate, err)
	}
	fitted, err := svm.Fit(lk.k, subset.Ints(y, train), classes, ch.C)
	if err != nil {
		return voter{}, fmt.Errorf("fgwsvm: %w", err)
	}
	folded := *fitted
	folded.Machines = make([]svm.Machine, len(fitted.Machines))
	for p, mc := range fitted.Machines {
		u := make([]float64, len(nk.lm))
		for a, s := range mc.Support {
			for b := range u {
				u[b] += mc.Coef[a] * lk.ktl.At(s, b)
			}
		}
		folded.Machines[p] = svm.Machine{A: mc.A, B: mc.B, Support: slices.Clone(nk.lm), Coef: lk.p.apply(u), Bias: mc.Bias}
	}
	return voter{choice: ch, svm: &folded, land: &landmarkRows{all: nk.all, lm: nk.lm, cols: nk.cols}}, nil
}

// landmarkRows are the discrepancies of all graphs to a landmark voter's landmarks lm
// (columns cols of all).
type landmarkRows struct {
	all      *mat.Dense
	lm, cols []int
}

// predict predicts the graphs rows with a landmark voter's SVM from their kernel to its
// landmarks: Model.Predict's computation.
func (r *landmarkRows) predict(ch Choice, m *svm.Model, rows []int) []int {
	// The machines weigh the landmarks (and only them) in lm's order: the kernel's columns
	// are the landmarks', not all graphs'.
	compact := *m
	compact.Machines = slices.Clone(m.Machines)
	for p := range compact.Machines {
		compact.Machines[p].Support = seq(len(r.lm))
	}
	s := ch.kernelScale()
	kr := mat.NewDense(len(rows), len(r.lm), nil)
	for a, i := range rows {
		for b, c := range r.cols {
			kr.Set(a, b, math.Exp(-s*r.all.At(i, c)))
		}
	}
	return compact.Predict(kr)
}

// landmarkPositions are the positions in sup (sorted) of the landmarks of the first
// landmark voter of vs (all share them: one training set); nil where none is one.
func landmarkPositions(vs []voter, sup []int) []int {
	for _, v := range vs {
		if v.land == nil {
			continue
		}
		out := make([]int, len(v.land.lm))
		for a, l := range v.land.lm {
			out[a], _ = slices.BinarySearch(sup, l)
		}
		return out
	}
	return nil
}

// checkLandmarks refuses a classifier file's landmark data that do not fit together: the
// landmarks (positions in its graphs, ascending, distinct) and each landmark voter's SVM,
// which must weigh exactly them, under an FGW candidate.
func checkLandmarks(landmarks []int, voters []Voter, graphs int) error {
	for a, l := range landmarks {
		if l < 0 || l >= graphs || a > 0 && l <= landmarks[a-1] {
			return fmt.Errorf("landmarks %v: want distinct ascending positions among %d graphs", landmarks, graphs)
		}
	}
	users := 0
	for k, v := range voters {
		ch := v.Choice
		switch {
		case ch.Landmarks < 0:
			return fmt.Errorf("voter %d: %d landmarks", k+1, ch.Landmarks)
		case ch.Landmarks == 0:
			continue
		case ch.Candidate.vector():
			return fmt.Errorf("voter %d: landmarks for %s, which compares vectors", k+1, ch.Candidate)
		case ch.Landmarks != len(landmarks):
			return fmt.Errorf("voter %d: %d landmarks, the classifier %d", k+1, ch.Landmarks, len(landmarks))
		}
		users++
		for p, mc := range v.SVM.Machines {
			if !slices.Equal(mc.Support, landmarks) {
				return fmt.Errorf("voter %d: machine %d weighs graphs %v, not the landmarks %v", k+1, p+1, mc.Support, landmarks)
			}
		}
	}
	if users == 0 && len(landmarks) > 0 {
		return fmt.Errorf("%d landmarks and no voter that uses them", len(landmarks))
	}
	return nil
}
