package fgwsvm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/observe"
	"github.com/gwf-graphs/gwf/layers/pairwise"
)

// Settings are what the classifier chooses among, and how.
type Settings struct {
	Candidates []Candidate `json:"candidates"`
	Grid       Grid        `json:"grid"`
	// Screen bounds the cost of many candidates on many graphs: with more graphs than Screen,
	// every candidate is first compared on a random subset of Screen graphs (drawn without
	// labels, seeded by Grid.Seed); each training set keeps the candidate that scores best on
	// its graphs of the subset (or one already computed in full that scores within
	// ScreenTolerance of it), and full matrices are computed for the kept candidates only.
	// 0: no screening (every candidate in full).
	Screen int `json:"screen"`
	// Vote is the number of candidates whose SVMs vote: the best by inner cross-validation,
	// each with its own γ and C (with screening, the best on the subset, each computed in
	// full); 1: the single best; 0: VoteFor's default.
	Vote int `json:"vote,omitempty"`
	// VoteWithin, above 0, leaves out of the vote the candidates that rank more than this
	// many standard errors of the best one's inner estimate below it (cutVote): a vote
	// averages out the luck of near-equal candidates, and should not outvote a candidate
	// that is clearly the best with clearly worse ones. 0 keeps all Vote of them;
	// DefaultVoteWithin is 'gwf classify's.
	VoteWithin float64 `json:"vote_within,omitempty"`
	// Landmarks, above 0, compares each graph under an FGW candidate with this many landmark
	// graphs of the training graphs only (all of them where a training set holds fewer), and
	// gives the SVMs the Nyström approximation of the kernel (landmarks.go): n·m discrepancies
	// a candidate instead of n(n−1)/2. Vector candidates keep their full matrices, which cost
	// seconds. 0: the full kernel.
	Landmarks int `json:"landmarks,omitempty"`
	// MaxFull, above 0, caps the FGW candidates computed over all the graphs after a screening
	// (narrowFull): where the folds' first choices would need more, they choose among the
	// candidates most of them screen first. A budget's plan sets it to the matrices it counted,
	// so that the run computes no more than the plan's estimate. 0: no cap.
	MaxFull int `json:"max_full,omitempty"`
	// Budget, above 0 (at least MinBudget), plans the run to fit this time and stops it there
	// (budget.go): the plan may take landmarks, a smaller screening and fewer candidates, and
	// is reported in Stats.Budget. 0: no budget.
	Budget time.Duration `json:"-"`
}

// DefaultVoteWithin is the VoteWithin of 'gwf classify': two standard errors.
const DefaultVoteWithin = 2

// MaxVoteWithin bounds Settings.VoteWithin.
const MaxVoteWithin = 100

// VoteFor is the number of voters on n graphs: Vote where it is set; otherwise, where every
// candidate's matrix is computed anyway, the best third of the candidates (rounded up) and at
// most DefaultVote — a vote of all would give the poor candidates of a wide grid as many votes
// as the good ones —, and DefaultScreenedVote where the candidates are screened.
func (s Settings) VoteFor(n int) int {
	switch {
	case s.Vote > 0:
		return s.Vote
	case s.screens(n):
		return min(DefaultScreenedVote, len(s.Candidates))
	}
	return max(1, min(DefaultVote, (len(s.Candidates)+2)/3))
}

// screens reports whether the candidates are screened on n graphs.
func (s Settings) screens(n int) bool {
	return len(s.Candidates) > 1 && s.Screen > 0 && n > s.Screen
}

// ScreenTolerance is how much lower a candidate whose full matrix is already computed may
// score in the screening and still be kept over the best: one point of accuracy, under the
// noise of a 5-fold estimate on a few hundred graphs (a standard error of 2–3 points).
const ScreenTolerance = 0.01

// DefaultScreen is the subset size of the screening: 300 graphs cost 44,850 discrepancies per
// candidate (docs/results/classification.md has their times).
const DefaultScreen = 300

// Stats says what the discrepancies cost.
type Stats struct {
	GWDs    int     `json:"gwds"`
	Seconds float64 `json:"seconds"`
	// Screened is the size of the screening subset (0: none).
	Screened int `json:"screened,omitempty"`
	// Matrices are the matrices computed or reused, in order: the screening's, then those over
	// all graphs.
	Matrices []MatrixCost `json:"matrices"`
	// Budget is the plan of a run under Settings.Budget (nil: none).
	Budget *Plan `json:"budget,omitempty"`
}

// Full lists the candidates whose matrix over all graphs was computed or reused.
func (s Stats) Full() []Candidate {
	var out []Candidate
	for _, m := range s.Matrices {
		if m.Graphs > s.Screened || s.Screened == 0 {
			out = append(out, m.Candidate)
		}
	}
	return out
}

func (s *Stats) add(costs []MatrixCost) {
	for _, c := range costs {
		s.GWDs += c.GWDs
		s.Seconds += c.Seconds
	}
	s.Matrices = append(s.Matrices, costs...)
}

// matrices computes discrepancy matrices on demand and keeps them.
type matrices struct {
	ctx   context.Context
	data  []*graphs.Graph
	cands []Candidate
	opt   Options
	full  map[int]*mat.SymDense
	// screen are the graphs of the screening subset (sorted), nil without screening;
	// screenOrder the same graphs in the seeded order whose prefixes are the subsets of the
	// screening's rounds, rounds their sizes (halving.go).
	screen      []int
	screenOrder []int
	rounds      []int
	stats       Stats
	// vote is the number of voters (Settings.VoteFor); within, Settings.VoteWithin; maxFull,
	// Settings.MaxFull.
	vote    int
	within  float64
	maxFull int
	// The matrices over all graphs that the plan will compute, their discrepancies, and those
	// done so far: one progress count over all of them (plan).
	fullTotal, fullDone int
	// vecs are the vector candidates' vectors of all graphs; scaled, the statistics
	// candidates' matrices for the last training set asked for (matrixFor).
	vecs   map[int]*vectors
	scaled map[int]scaledMatrix
	// lm are the landmarks and the FGW candidates' discrepancies to them; nil without
	// Settings.Landmarks.
	lm *landmarkSet
}

// scaledMatrix is a statistics candidate's matrix of all graphs, its statistics divided by
// their spread over the training graphs train.
type scaledMatrix struct {
	train  []int
	scales []float64
	d      *mat.SymDense
}

// Validate checks the settings: candidates, the grid, the screening size and the vote.
func (s Settings) Validate() error {
	if len(s.Candidates) == 0 {
		return fmt.Errorf("fgwsvm: no candidates")
	}
	if err := s.Grid.Validate(); err != nil {
		return err
	}
	if s.Screen < 0 {
		return fmt.Errorf("fgwsvm: screen = %d must not be negative (0: no screening)", s.Screen)
	}
	if s.MaxFull < 0 {
		return fmt.Errorf("fgwsvm: at most %d candidates over all graphs, want 0 (no cap) or more", s.MaxFull)
	}
	if s.Vote < 0 || s.Vote > len(s.Candidates) {
		return fmt.Errorf("fgwsvm: a vote of %d candidates, want 1..%d (0: the default)", s.Vote, len(s.Candidates))
	}
	if w := s.VoteWithin; !(w >= 0) || w > MaxVoteWithin {
		return fmt.Errorf("fgwsvm: voters within %v standard errors of the best, want 0 to %d (0: all)", w, MaxVoteWithin)
	}
	if err := checkBudget(s.Budget); err != nil {
		return err
	}
	return checkLandmarkSetting(s.Landmarks)
}

func newMatrices(ctx context.Context, data []*graphs.Graph, s Settings, opt Options) (*matrices, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	m := &matrices{ctx: ctx, data: data, cands: s.Candidates, opt: opt, full: map[int]*mat.SymDense{}, vote: s.VoteFor(len(data)), within: s.VoteWithin,
		maxFull: s.MaxFull, vecs: map[int]*vectors{}, scaled: map[int]scaledMatrix{}}
	if s.Landmarks > 0 && slices.ContainsFunc(s.Candidates, func(c Candidate) bool { return !c.vector() }) {
		m.lm = newLandmarkSet(data, s.Landmarks, s.Grid.Seed)
	}
	if s.screens(len(data)) {
		rng := rand.New(rand.NewPCG(s.Grid.Seed, 0x5c4ee7))
		m.screenOrder = rng.Perm(len(data))[:s.Screen]
		m.screen = m.screenSubset(s.Screen)
		m.rounds = screenRounds(s.Screen, len(s.Candidates), m.vote, MinRound)
		m.stats.Screened = s.Screen
	}
	return m, nil
}

// vectorsOf is vector candidate ci's vectors of all graphs.
func (m *matrices) vectorsOf(ci int) (*vectors, error) {
	if v, ok := m.vecs[ci]; ok {
		return v, nil
	}
	m.opt.log("vectors of all %d graphs under %s", len(m.data), m.cands[ci])
	v, err := m.cands[ci].vectorsOf(m.ctx, m.data, m.opt.Workers)
	if err != nil {
		return nil, err
	}
	m.vecs[ci] = v
	return v, nil
}

// matrixFor is candidate ci's matrix over all graphs as the training graphs train (sorted
// indices) use it: a statistics candidate's statistics are divided by their spread over train
// alone, so that a held-out graph's row is what a classifier trained on train computes for it
// (Voter.Scales); the others' matrices read no training set.
func (m *matrices) matrixFor(ci int, train []int) (*mat.SymDense, error) {
	if m.cands[ci].Kind != KindStatistics {
		return m.fullOf(ci)
	}
	if s, ok := m.scaled[ci]; ok && slices.Equal(s.train, train) {
		return s.d, nil
	}
	start := time.Now()
	v, err := m.vectorsOf(ci)
	if err != nil {
		return nil, err
	}
	scales := statisticScales(v.dense, train)
	d, err := v.pairwise(m.ctx, scales, m.opt.Workers)
	if err != nil {
		return nil, fmt.Errorf("fgwsvm: %s: %w", m.cands[ci], err)
	}
	if _, ok := m.scaled[ci]; !ok {
		m.stats.add([]MatrixCost{{Candidate: m.cands[ci], Graphs: len(m.data), Seconds: time.Since(start).Seconds()}})
	}
	m.scaled[ci] = scaledMatrix{train: slices.Clone(train), scales: scales, d: d}
	return d, nil
}

// fullOf is candidate ci's matrix over all graphs.
func (m *matrices) fullOf(ci int) (*mat.SymDense, error) {
	if d, ok := m.full[ci]; ok {
		return d, nil
	}
	c := m.cands[ci]
	if c.vector() {
		start := time.Now()
		v, err := m.vectorsOf(ci)
		if err != nil {
			return nil, err
		}
		d, err := v.pairwise(m.ctx, nil, m.opt.Workers)
		if err != nil {
			return nil, fmt.Errorf("fgwsvm: %s: %w", c, err)
		}
		m.full[ci] = d
		m.stats.add([]MatrixCost{{Candidate: c, Graphs: len(m.data), Seconds: time.Since(start).Seconds()}})
		return d, nil
	}
	pairs := pairwise.Pairs(len(m.data))
	m.opt.log("discrepancies of all %d graphs under %s (%d; full matrix %d)", len(m.data), c, pairs, len(m.full)+1)
	opt := m.opt
	if outer, done, total := opt.Observe, m.fullDone, m.fullTotal; outer != nil && done+pairs <= total {
		opt.Observe = func(e observe.Event) { // the count of this matrix → the count of the plan's
			if e.Total == pairs {
				e.Done, e.Total = done+e.Done, total
			}
			outer(e)
		}
	}
	ds, costs, err := distances(m.ctx, m.data, []Candidate{c}, opt)
	if err != nil {
		return nil, err
	}
	m.full[ci] = ds[0]
	m.fullDone += pairs
	m.stats.add(costs)
	return ds[0], nil
}

// plan ranks the candidates on the screening subset (after the screening's earlier rounds,
// halving.go) for each set of training graphs in trains (labels y), in turn, as chooseFor
// takes them: a candidate that an earlier set chose ranks as if computed in full already
// (rankedPreferring). It returns each set's ranking, nil
// without screening, and logs how many matrices over all graphs they need, so that their
// progress is counted (and its ETA given) over all of them.
func (m *matrices) plan(trains [][]int, y []int, classes int, g Grid) ([]Vote, error) {
	out := make([]Vote, len(trains))
	m.lm.draw(trains)
	if m.screen == nil {
		return out, nil
	}
	each, err := m.screening(trains, y, classes, g)
	if err != nil {
		return nil, err
	}
	planned := map[int]bool{}
	fresh := 0 // planned candidates without a full matrix yet
	allowed := m.narrowFull(each)
	for f := range trains {
		ranking := each[f]
		if allowed != nil {
			if in := slices.DeleteFunc(slices.Clone(ranking), func(c Choice) bool { return !allowed[c.index] }); len(in) > 0 {
				ranking = in
			}
		}
		// Candidates already computed in full rank as if they screened ScreenTolerance higher
		// (first among equals): each fold would otherwise pay a full matrix for a difference
		// the subset cannot resolve. With one voter this keeps the computed candidate that
		// screens within ScreenTolerance of the best.
		out[f] = rankedPreferring(ranking, m.vote, func(ci int) bool { return m.full[ci] != nil || planned[ci] })
		// A candidate that screens more than VoteWithin standard errors under the first would
		// most likely be cut from the vote after its full matrix too (chooseFor): it is not
		// computed in full.
		out[f] = cutVote(out[f], m.within, len(positionsIn(m.screen, trains[f])))
		if m.keepsVectors() {
			out[f] = append(out[f], vectorsKept(each[f], out[f], m.cands)...)
		}
		for _, c := range out[f] {
			if !planned[c.index] && m.full[c.index] == nil && !m.cands[c.index].vector() {
				fresh++ // vectors take seconds: no discrepancies to count
			}
			planned[c.index] = true
		}
	}
	pairs := m.matrixPairs()
	m.fullTotal, m.fullDone = fresh*pairs, 0
	who := "the screening"
	if len(trains) > 1 {
		who = fmt.Sprintf("the screenings of the %d folds", len(trains))
	}
	m.opt.log("%s chose %d candidates: %d matrices of all %d graphs to compute (%d discrepancies)",
		who, len(planned), fresh, len(m.data), m.fullTotal)
	return out, nil
}

// chooseFor chooses the voters on the training graphs train (labels y, indices into the data):
// where the candidates are screened, those of screened (plan's ranking for train), each with γ
// and C chosen on its full matrix; else the best of all candidates on their full matrices.
// Each voter's full matrix is m.full[voter.index].
func (m *matrices) chooseFor(train, y []int, classes int, g Grid, screened Vote) (Vote, error) {
	if m.lm != nil {
		return m.chooseLandmarked(train, y, classes, g, screened)
	}
	vote := m.vote
	if m.screen == nil {
		ds := make([]*mat.SymDense, len(m.cands))
		for ci := range m.cands {
			d, err := m.matrixFor(ci, train)
			if err != nil {
				return nil, err
			}
			ds[ci] = d
		}
		v, err := choose(m.ctx, ds, m.cands, y, train, classes, g, vote)
		if err != nil {
			return nil, err
		}
		return cutVote(v, m.within, len(train)), nil
	}
	out := make(Vote, len(screened))
	for k, sc := range screened {
		d, err := m.matrixFor(sc.index, train)
		if err != nil {
			return nil, err
		}
		v, err := choose(m.ctx, []*mat.SymDense{d}, m.cands[sc.index:sc.index+1], y, train, classes, g, 1)
		if err != nil {
			return nil, err
		}
		out[k] = v[0]
		out[k].index, out[k].Screening = sc.index, sc.Validation
	}
	setHandicaps(out, len(train))
	// The screened voters (at most the vote), and under landmarks every vector candidate: the
	// best vote.
	return cutVote(ranked(out, m.vote), m.within, len(train)), nil
}

// vectorsKept is, of the screening's last-round choices each, every vector candidate that vote
// does not hold, best first: they are compared on all the training graphs beside the voters (see
// the top of halving.go), and the best of all those vote.
func vectorsKept(each []Choice, vote Vote, cands []Candidate) Vote {
	var out Vote
	for _, c := range ranked(each, len(each)) {
		if cands[c.index].vector() && !slices.ContainsFunc(vote, func(v Choice) bool { return v.index == c.index }) {
			out = append(out, c)
		}
	}
	return out
}

// fitFor trains the voters' SVMs on the graphs train.
func (m *matrices) fitFor(v Vote, y, train []int, classes int) ([]voter, error) {
	if m.lm != nil {
		return m.fitLandmarked(v, y, train, classes)
	}
	ds := make([]*mat.SymDense, len(v))
	for k, ch := range v {
		d, err := m.matrixFor(ch.index, train)
		if err != nil {
			return nil, err
		}
		ds[k] = d
	}
	return fitVote(v, ds, y, train, classes)
}

func (o Options) log(format string, args ...any) {
	o.Observe.Say(false, format, args...)
}
