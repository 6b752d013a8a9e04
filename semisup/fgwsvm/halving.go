package fgwsvm

import (
	"context"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/subset"
	"github.com/gwf-graphs/gwf/layers/pairwise"
)

// The screening (Settings.Screen) runs as successive halving: the candidates are first
// compared on a quarter of the screening subset, each training set keeps the best third of
// its candidates there, those are compared on half of it, the best third again on all of it,
// where the voters are ranked as in a screening of one round. The smaller subsets are nested
// prefixes of the same seeded draw, so that a round's graphs are among the next round's. A
// candidate costs a sixteenth of its full screening in the first round and a quarter in the
// second, so most candidates cost a fraction of what one round on the whole subset costs.
//
// Each training set (outer fold) ranks and cuts its own candidates on its own graphs of the
// round's subset; the discrepancies of a round are computed once for all the candidates any
// training set still keeps. A candidate that an earlier set kept ranks as if a standard error
// of the set's best inner estimate higher (rankedPreferringWithin; ScreenTolerance, one point,
// in the last round, as in a screening of one round): on a few dozen graphs most candidates'
// estimates lie within their noise of each other, and without the preference each set keeps
// its own share of them, so that their union, which is computed, is nearly all of them
// (docs/results/classification.md has the counts).

// Under landmarks (Settings.Landmarks) the vector candidates (graph statistics, WL subtree
// counts) are never cut by a round: their full matrices cost seconds, and every one goes on to
// the comparison on all the training graphs beside the voters the screening chooses
// (vectorsKept). There the screening compares the FGW candidates on their full kernels where
// the run will use landmark kernels, and a subset of a few hundred graphs underrates kernels
// whose accuracy grows with the data and ranks the WL depths in another order than all the
// graphs do. On the full kernel the screening ranks every candidate as the run will use it,
// and the vectors' extra grid searches cost more time than they bring accuracy
// (docs/results/classification.md, "Under landmarks, every cheap candidate to the full
// comparison").

// keepsVectors is whether the screening keeps every vector candidate (above): under landmarks.
func (m *matrices) keepsVectors() bool { return m.lm != nil }

// HalvingKeep is the share of its candidates (one in HalvingKeep) a training set keeps after
// a round of the screening that is not the last.
const HalvingKeep = 3

// MinRound is the fewest graphs a round of the screening compares candidates on: below it the
// inner cross-validation's estimate is too noisy to drop a candidate on.
const MinRound = 60

// MaxRounds is the most rounds of the screening.
const MaxRounds = 3

// screenRounds is the subset sizes of the screening's rounds for a screening of s graphs and
// c candidates with a vote of vote: s halved while the half holds at least least graphs
// (MinRound) and a round would still drop candidates, smallest first, ending at s.
func screenRounds(s, c, vote, least int) []int {
	sizes := []int{s}
	alive := c
	for half := s / 2; half >= least && roundKeep(alive, vote) < alive && len(sizes) < MaxRounds; half /= 2 {
		sizes = append(sizes, half)
		alive = roundKeep(alive, vote)
	}
	slices.Reverse(sizes)
	return sizes
}

// roundKeep is how many of its alive candidates a training set keeps after a round that is
// not the last: a third (rounded up), but at least twice the vote, so that the last round
// still chooses the voters among more than the vote.
func roundKeep(alive, vote int) int {
	return min(alive, max((alive+HalvingKeep-1)/HalvingKeep, 2*vote))
}

// screenSubset is the graphs of the round of size k (sorted indices into the data).
func (m *matrices) screenSubset(k int) []int {
	sub := slices.Clone(m.screenOrder[:k])
	slices.Sort(sub)
	return sub
}

// screening runs the rounds of the screening for the training sets trains (labels y) and
// returns each set's choices in the last round (its candidates still kept, in their order).
// A round computes the matrices of its subset for every candidate some set still keeps, then
// each set ranks its own and keeps the best (roundKeep).
func (m *matrices) screening(trains [][]int, y []int, classes int, g Grid) ([][]Choice, error) {
	alive := make([][]int, len(trains))
	for f := range alive {
		alive[f] = seq(len(m.cands))
	}
	out := make([][]Choice, len(trains))
	for r, size := range m.rounds {
		sub := m.screenSubset(size)
		need := unionSorted(alive)
		ds, err := m.roundMatrices(sub, need, r)
		if err != nil {
			return nil, err
		}
		last := r == len(m.rounds)-1
		had := len(alive[0])
		kept := map[int]bool{} // what the sets before kept in this round
		for f, train := range trains {
			pos := positionsIn(sub, train)
			sd, err := m.scaledStatistics(ds, sub, pos, alive[f])
			if err != nil {
				return nil, err
			}
			each, err := chooseEachOf(m.ctx, sd, m.cands, alive[f], subset.Ints(y, sub), pos, classes, g)
			if err != nil {
				return nil, fmt.Errorf("screening: %w", err)
			}
			if last {
				out[f] = each
				continue
			}
			// A candidate an earlier set kept goes ahead of one less than a standard error of
			// the best estimate above it: the sets' near-equal candidates, the many that a
			// small subset cannot tell apart, are then the same ones, computed once.
			best := ranked(each, 1)[0]
			tol := standardError(best.Validation, len(pos))
			alive[f] = alive[f][:0]
			for _, c := range rankedPreferringWithin(each, roundKeep(len(each), m.vote), func(ci int) bool { return kept[ci] }, tol) {
				alive[f] = append(alive[f], c.index)
				kept[c.index] = true
			}
			for _, c := range each { // under landmarks the vector candidates go on to the last round (vectorsKept)
				if m.keepsVectors() && m.cands[c.index].vector() && !slices.Contains(alive[f], c.index) {
					alive[f] = append(alive[f], c.index)
				}
			}
			slices.Sort(alive[f])
		}
		if !last {
			m.opt.log("screening round %d of %d done: each training set keeps its best %d of %d candidates, %d in all",
				r+1, len(m.rounds), len(alive[0]), had, len(unionSorted(alive)))
		}
	}
	return out, nil
}

// roundMatrices computes the matrices of the graphs sub for the candidates need (indexed by
// candidate, nil for the others).
func (m *matrices) roundMatrices(sub, need []int, round int) ([]*mat.SymDense, error) {
	graphsOf := make([]*graphs.Graph, len(sub))
	for a, i := range sub {
		graphsOf[a] = m.data[i]
	}
	cands := make([]Candidate, len(need))
	solves := 0
	for k, ci := range need {
		cands[k] = m.cands[ci]
		if !cands[k].vector() {
			solves++
		}
	}
	switch {
	case round == 0 && len(m.rounds) > 1:
		m.opt.log("screening %d candidates in %d rounds on %v of the %d graphs, each training set keeping the best third of its candidates after a round: %d discrepancies in the first; then %d discrepancies for each candidate the folds choose, at least %d (the vote)",
			len(need), len(m.rounds), m.rounds, len(m.data), solves*pairwise.Pairs(len(sub)), m.matrixPairs(), m.vote)
	case round == 0:
		m.opt.log("screening %d candidates on %d of the %d graphs (%d discrepancies); then %d discrepancies for each candidate the folds choose there, at least %d (the vote)",
			len(need), len(sub), len(m.data), solves*pairwise.Pairs(len(sub)), m.matrixPairs(), m.vote)
	default:
		m.opt.log("screening round %d of %d: %d candidates on %d graphs (%d discrepancies)", round+1, len(m.rounds), len(need), len(sub), solves*pairwise.Pairs(len(sub)))
	}
	ds, costs, err := distances(m.ctx, graphsOf, cands, m.opt)
	if err != nil {
		return nil, err
	}
	m.stats.add(costs)
	out := make([]*mat.SymDense, len(m.cands))
	for k, ci := range need {
		out[ci] = ds[k]
	}
	return out, nil
}

// scaledStatistics is ds as the training graphs at positions pos of the subset sub use it: a
// statistics candidate among alive gets its statistics divided by their spread over those
// graphs alone (matrixFor).
func (m *matrices) scaledStatistics(ds []*mat.SymDense, sub, pos, alive []int) ([]*mat.SymDense, error) {
	out := slices.Clone(ds)
	for _, ci := range alive {
		c := m.cands[ci]
		if c.Kind != KindStatistics {
			continue
		}
		v, err := m.vectorsOf(ci)
		if err != nil {
			return nil, err
		}
		vs := v.subset(sub)
		if out[ci], err = vs.pairwise(m.ctx, statisticScales(vs.dense, pos), m.opt.Workers); err != nil {
			return nil, fmt.Errorf("fgwsvm: %s: %w", c, err)
		}
	}
	return out, nil
}

// positionsIn is the positions in sub (sorted indices) of the graphs of train (sorted).
func positionsIn(sub, train []int) []int {
	var pos []int
	for a, i := range sub {
		if _, ok := slices.BinarySearch(train, i); ok {
			pos = append(pos, a)
		}
	}
	return pos
}

// unionSorted is the sorted union of the index lists.
func unionSorted(lists [][]int) []int {
	var out []int
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// chooseEachOf is chooseEach over the candidates alive alone (indices into cands and ds), each
// choice's index its candidate's in cands.
func chooseEachOf(ctx context.Context, ds []*mat.SymDense, cands []Candidate, alive []int, y, idx []int, classes int, g Grid) ([]Choice, error) {
	sub, dsub := make([]Candidate, len(alive)), make([]*mat.SymDense, len(alive))
	for k, ci := range alive {
		sub[k], dsub[k] = cands[ci], ds[ci]
	}
	out, err := chooseEach(ctx, dsub, sub, y, idx, classes, g)
	if err != nil {
		return nil, err
	}
	for k := range out {
		out[k].index = alive[k]
	}
	return out, nil
}
