package fgwsvm

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

func TestScreenRounds(t *testing.T) {
	for _, c := range []struct {
		s, cands, vote, least int
		want                  []int
	}{
		{300, 71, 3, MinRound, []int{75, 150, 300}},
		{300, 10, 3, MinRound, []int{150, 300}}, // 10 → 6 → 6: the second halving drops none
		{300, 6, 3, MinRound, []int{300}},       // a round would keep all six
		{200, 71, 3, MinRound, []int{100, 200}}, // 50 is under MinRound
		{14, 30, 3, MinRound, []int{14}},
		{1200, 200, 1, MinRound, []int{300, 600, 1200}}, // at most MaxRounds
	} {
		if got := screenRounds(c.s, c.cands, c.vote, c.least); !slices.Equal(got, c.want) {
			t.Errorf("screenRounds(%d, %d, %d) = %v, want %v", c.s, c.cands, c.vote, got, c.want)
		}
	}
	if got := roundKeep(71, 3); got != 24 {
		t.Errorf("roundKeep(71, 3) = %d, want a third, 24", got)
	}
	if got := roundKeep(10, 3); got != 6 {
		t.Errorf("roundKeep(10, 3) = %d, want twice the vote, 6", got)
	}
}

// screenedFolds runs the screening of s on data in rounds of the given sizes for the training
// sets of 3 folds and returns each set's ranking and the discrepancies computed.
func screenedFolds(t *testing.T, data []*graphs.Graph, y []int, s Settings, rounds []int) ([][]int, []Vote, Stats) {
	t.Helper()
	mx, err := newMatrices(context.Background(), data, s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mx.rounds = rounds
	trains := make([][]int, 3)
	for i := range data {
		for f := range trains {
			if i/3%3 != f { // across the classes, which are i%3
				trains[f] = append(trains[f], i)
			}
		}
	}
	out, err := mx.plan(trains, y, 3, s.Grid)
	if err != nil {
		t.Fatal(err)
	}
	return trains, out, mx.stats
}

// TestHalvingRounds: a screening in two rounds compares every candidate on the first round's
// subset and only those some training set keeps on the second; each set ranks the vote among
// what it kept; and one set's ranking does not change when the labels of its held-out graphs
// do (the other sets' may: those graphs are theirs to train on).
func TestHalvingRounds(t *testing.T) {
	data, labels := threeClasses(t, 10, true)
	cands, err := Candidates(data, graphs.FeatureEncoding{}, Narrow{})
	if err != nil {
		t.Fatal(err)
	}
	s := Settings{Candidates: cands, Grid: smallGrid(), Screen: 24, Vote: 1}
	fgw := 0
	for _, c := range cands {
		if !c.vector() {
			fgw++
		}
	}
	if fgw < 8 {
		t.Fatalf("%d FGW candidates, want enough for a round to drop some", fgw)
	}
	_, out, st := screenedFolds(t, data, labels, s, []int{12, 24})
	small, large := 0, 0
	for _, m := range st.Matrices {
		switch {
		case m.Graphs == 12 && !m.Candidate.vector():
			small++
		case m.Graphs == 24 && !m.Candidate.vector():
			large++
		}
	}
	if small != fgw || large == 0 || large > 3*roundKeep(len(cands), 1) || large >= fgw {
		t.Fatalf("%d FGW candidates: %d compared on 12 graphs, %d on 24; want all, then those kept (at most 3 sets × %d)", fgw, small, large, roundKeep(len(cands), 1))
	}
	for f, v := range out {
		if len(v) != 1 {
			t.Fatalf("set %d ranks %d voters, want the vote, 1", f, len(v))
		}
	}
	scrambled := slices.Clone(labels)
	for i := range scrambled {
		if i/3%3 == 0 { // set 0's held-out graphs
			scrambled[i] = (scrambled[i] + 1) % 3
		}
	}
	_, again, _ := screenedFolds(t, data, scrambled, s, []int{12, 24})
	if again[0][0].index != out[0][0].index || again[0][0].Screening != out[0][0].Screening || again[0][0].Validation != out[0][0].Validation {
		t.Fatalf("set 0's held-out labels changed its screening: %v, then %v", out[0], again[0])
	}
}

// TestRankedPreferringWithin: a candidate done accepts goes ahead of one at most tol above it,
// not of one further above; and standardError is that of the smoothed estimate.
func TestRankedPreferringWithin(t *testing.T) {
	cs := []Choice{{Validation: 0.70, index: 0}, {Validation: 0.66, index: 1}, {Validation: 0.60, index: 2}}
	done := func(ci int) bool { return ci == 1 || ci == 2 }
	got := rankedPreferringWithin(cs, 2, done, 0.05)
	if got[0].index != 1 || got[1].index != 0 {
		t.Errorf("tolerance 0.05: %d, %d first; want the done 1 (0.04 lower) ahead of 0", got[0].index, got[1].index)
	}
	got = rankedPreferringWithin(cs, 3, done, 0.03)
	if got[0].index != 0 || got[1].index != 1 || got[2].index != 2 {
		t.Errorf("tolerance 0.03: order %d, %d, %d; want 0, 1, 2", got[0].index, got[1].index, got[2].index)
	}
	if se, want := standardError(0.5, 100), 0.05; se < want-1e-12 || se > want+1e-12 {
		t.Errorf("standardError(0.5, 100) = %v, want %v", se, want)
	}
}

// TestScreeningCutsTheVote: a candidate that screens more than VoteWithin standard errors
// under the best is not planned for a full matrix; without VoteWithin it is.
func TestScreeningCutsTheVote(t *testing.T) {
	data, labels := threeClasses(t, 10, true)
	cands := []Candidate{
		{Structure: graphs.Adjacency},
		{Structure: graphs.ShortestPath},
		{Structure: graphs.Adjacency, FeatureWeight: 1e4}, // the noise feature drowns the structure
	}
	for _, within := range []float64{0, DefaultVoteWithin} {
		s := Settings{Candidates: cands, Grid: smallGrid(), Screen: 24, Vote: 3, VoteWithin: within}
		_, out, _ := screenedFolds(t, data, labels, s, []int{24})
		for f, v := range out {
			has := slices.ContainsFunc(v, func(c Choice) bool { return c.index == 2 })
			if has != (within == 0) {
				t.Errorf("within %v: set %d plans %v", within, f, v)
			}
		}
	}
}

// TestMaxFullCapsTheMatrices: with Settings.MaxFull the folds' voters after a screening come
// from at most that many FGW candidates, where without it they need more.
func TestMaxFullCapsTheMatrices(t *testing.T) {
	data, labels := threeClasses(t, 10, true)
	cands := []Candidate{
		{Structure: graphs.Adjacency},
		{Structure: graphs.ShortestPath},
		{Structure: graphs.Adjacency, FeatureWeight: 1},
		{Structure: graphs.ShortestPath, FeatureWeight: 1},
	}
	union := func(out []Vote) map[int]bool {
		u := map[int]bool{}
		for _, v := range out {
			for _, c := range v {
				u[c.index] = true
			}
		}
		return u
	}
	s := Settings{Candidates: cands, Grid: smallGrid(), Screen: 24, Vote: 2}
	_, free, _ := screenedFolds(t, data, labels, s, []int{24})
	if len(union(free)) < 2 {
		t.Fatalf("without a cap the folds need %d candidates: nothing to narrow", len(union(free)))
	}
	s.MaxFull = 1
	_, capped, _ := screenedFolds(t, data, labels, s, []int{24})
	if u := union(capped); len(u) != 1 {
		t.Errorf("capped at one, the folds vote with %v", u)
	}
	for f, v := range capped {
		if len(v) == 0 {
			t.Errorf("set %d has no voter", f)
		}
	}
	s.MaxFull = -1
	if err := s.Validate(); err == nil {
		t.Error("a negative cap was accepted")
	}
}

// TestNarrowFull: the candidates most folds screen first are kept, then those most folds vote
// with; candidates computed already and vector candidates are free; nothing is narrowed within
// the cap.
func TestNarrowFull(t *testing.T) {
	cands := []Candidate{{Structure: graphs.Adjacency}, {Structure: graphs.ShortestPath}, {Structure: graphs.Adjacency, FeatureWeight: 1}, {Kind: KindStatistics}}
	m := &matrices{cands: cands, full: map[int]*mat.SymDense{}, vote: 1, maxFull: 1}
	ch := func(i int, acc float64) Choice { return Choice{index: i, Validation: acc} }
	each := [][]Choice{
		{ch(0, 0.9), ch(1, 0.8), ch(2, 0.7)},
		{ch(1, 0.9), ch(0, 0.85)},
		{ch(0, 0.7), ch(2, 0.6)},
	}
	got := m.narrowFull(each)
	if !got[0] || got[1] || got[2] || len(got) != 1 {
		t.Errorf("one allowed: %v, want candidate 0 (first in two folds)", got)
	}
	m.full[1] = mat.NewSymDense(1, nil) // computed already: free
	if got := m.narrowFull(each); got != nil {
		t.Errorf("the first choices fit the cap once 1 is computed, narrowed to %v", got)
	}
	m.full = map[int]*mat.SymDense{}
	m.maxFull = 2
	if got := m.narrowFull(each); got != nil {
		t.Errorf("two first choices within a cap of two, narrowed to %v", got)
	}
	m.maxFull = 0
	if got := m.narrowFull(each); got != nil {
		t.Errorf("no cap, narrowed to %v", got)
	}
}

// TestHalvingKeepsVectorsUnderLandmarks: under landmarks no round cuts a vector candidate, and
// each set ranks its vote followed by every vector candidate the vote does not hold, for the
// comparison on all its training graphs (without landmarks TestHalvingRounds: the vote alone).
func TestHalvingKeepsVectorsUnderLandmarks(t *testing.T) {
	data, labels := threeClasses(t, 10, true)
	cands, err := Candidates(data, graphs.FeatureEncoding{}, Narrow{})
	if err != nil {
		t.Fatal(err)
	}
	s := Settings{Candidates: cands, Grid: smallGrid(), Screen: 24, Vote: 1, Landmarks: 12}
	fgw := 0
	for _, c := range cands {
		if !c.vector() {
			fgw++
		}
	}
	_, out, st := screenedFolds(t, data, labels, s, []int{12, 24})
	vec24 := map[int]bool{}
	for _, m := range st.Matrices {
		if m.Graphs == 24 && m.Candidate.vector() {
			vec24[slices.IndexFunc(cands, func(c Candidate) bool { return c.String() == m.Candidate.String() })] = true
		}
	}
	if len(vec24) != len(cands)-fgw {
		t.Errorf("%d of the %d vector candidates compared in the last round; a round cuts none", len(vec24), len(cands)-fgw)
	}
	for f, v := range out {
		// The vote, then every vector candidate it does not hold.
		vec := 0
		for k, c := range v {
			if k > 0 && !cands[c.index].vector() {
				t.Errorf("set %d: %v: after the one voter, want vector candidates only", f, v)
			}
			if cands[c.index].vector() {
				vec++
			}
		}
		if vec != len(cands)-fgw {
			t.Errorf("set %d ranks %d of the %d vector candidates, want all of them", f, vec, len(cands)-fgw)
		}
	}
}
