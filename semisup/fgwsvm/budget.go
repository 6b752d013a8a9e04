package fgwsvm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/pairwise"
	"github.com/gwf-graphs/gwf/semisup/svm"
)

// A budget (Settings.Budget) plans a run to fit a time and stops it there. The plan measures
// the solver on a small timed probe of the data (ProbePairs discrepancies spread over the FGW
// candidates, and one SVM grid search on a synthetic kernel; no label is read), estimates the
// discrepancies of the run and the seconds of its SVMs, and, where the settings as given do not
// fit, changes them in this order, taking the first that fits:
//
//  1. the settings as given (the full kernel, or Settings.Landmarks where set);
//  2. the kernel as given while it fits (unless Settings.Vote pins the voters; with screening,
//     where each voter may cost a matrix of all the graphs): fewer voters, the most from the
//     default down to one, then at one voter a smaller screening subset, the largest from
//     MinScreen up to Settings.Screen — a single best on the full kernel keeps far more of the
//     class than a vote on a Nyström kernel (docs/results/classification.md, "Budgets");
//  3. the voters and screening as given again, and landmarks (unless Settings.Landmarks pins
//     them): the largest m from LandmarkFloor up to a training set's size;
//  4. at LandmarkFloor, a smaller screening subset: the largest from MinScreen up to
//     Settings.Screen (where there is more than one candidate, this also screens a collection
//     that Settings.Screen would not);
//  5. at MinScreen, fewer landmarks: the largest m from MinLandmarks up to LandmarkFloor;
//  6. at the least of all, fewer FGW candidates: the most, spread evenly over their list (so
//     that both structures and the range of weights stay), down to one; the vector candidates
//     stay, seconds of work.
//
// Where even one FGW candidate does not fit, the run is refused before any work
// (ErrBudgetTooSmall). The plan depends on the machine's speed, so two runs of the same
// settings may plan differently; it is logged and reported (Stats.Budget), and a rerun can pin
// it (Settings.Landmarks, Settings.Screen). Everything else is deterministic for a seed.

// MinBudget is the least Settings.Budget above 0: the probe alone takes a fraction of a second.
const MinBudget = time.Second

// The default budget (DefaultBudget): DefaultBudgetPerGraph a graph, from DefaultBudgetMin
// to DefaultBudgetMax. A user waits minutes for a few hundred graphs and an hour for
// thousands; the settings as given fit it on a few hundred graphs of a few dozen nodes (MUTAG,
// ENZYMES on 2 cores), and larger collections get a plan (docs/results/classification.md,
// "Faster discrepancies and a default budget").
const (
	DefaultBudgetPerGraph = 1500 * time.Millisecond
	DefaultBudgetMin      = 5 * time.Minute
	DefaultBudgetMax      = time.Hour
)

// DefaultBudget is the time a run on n graphs is given when the caller names none.
func DefaultBudget(n int) time.Duration {
	if n >= int(DefaultBudgetMax/DefaultBudgetPerGraph) {
		return DefaultBudgetMax
	}
	return max(DefaultBudgetMin, time.Duration(n)*DefaultBudgetPerGraph)
}

// MinLandmarks is the fewest landmarks a budget chooses.
const MinLandmarks = 20

// LandmarkFloor is the fewest landmarks a budget chooses before it shrinks the screening:
// with a few dozen the Nyström kernel loses the class where a smaller screening costs less
// (docs/results/classification.md, "a landmark floor").
const LandmarkFloor = 100

// MinScreen is the smallest screening subset a budget chooses.
const MinScreen = 50

// ProbePairs is the number of discrepancies the probe times (fewer where it reaches a
// fortieth of the budget first).
const ProbePairs = 1024

// ErrBudgetTooSmall is returned where the cheapest plan does not fit the budget.
var ErrBudgetTooSmall = errors.New("fgwsvm: budget too small")

// Plan is what a budget chose, and what it cost.
type Plan struct {
	// Budget is the time given, in seconds.
	Budget float64 `json:"budget_seconds"`
	// Landmarks (0: the full kernel), Screen (0: no screening), Candidates (the number kept)
	// and Vote (0: the settings' voters) are the settings chosen; Changed, whether they differ
	// from those given.
	Landmarks  int `json:"landmarks"`
	Screen     int `json:"screen"`
	Candidates int `json:"candidates"`
	Vote       int `json:"vote,omitempty"`
	// Full is the FGW candidates counted over all graphs after a screening: the run computes
	// no more (Settings.MaxFull). 0: no screening, or no cap.
	Full    int  `json:"full_matrices,omitempty"`
	Changed bool `json:"changed"`
	// ProbeGWDs discrepancies took ProbeSeconds: SolvesPerSecond. ProbeSVMSeconds is the
	// SVM probe's time.
	ProbeGWDs       int     `json:"probe_gwds"`
	ProbeSeconds    float64 `json:"probe_seconds"`
	SolvesPerSecond float64 `json:"solves_per_second"`
	ProbeSVMSeconds float64 `json:"probe_svm_seconds"`
	// GWDs is the estimated number of discrepancies, SVMSeconds the estimated seconds of the
	// SVMs, EstimateSeconds the whole run's estimate (probe included).
	GWDs            int     `json:"gwds"`
	SVMSeconds      float64 `json:"svm_seconds"`
	EstimateSeconds float64 `json:"estimate_seconds"`
	// Seconds is the time the run took (probe included), set when it ends.
	Seconds float64 `json:"seconds,omitempty"`
	// Kept are the indices of the candidates kept, in Settings.Candidates.
	Kept []int `json:"kept"`
	// Reused says that the plan is an earlier run's, kept in Options.Dir (budget_keep.go).
	Reused bool `json:"reused,omitempty"`
}

// Apply returns s as the plan runs it: its landmarks, screening and candidates, no budget.
func (p Plan) Apply(s Settings) Settings {
	s.Landmarks, s.Screen, s.Budget = p.Landmarks, p.Screen, 0
	if p.Vote > 0 {
		s.Vote = p.Vote
	}
	if p.Full > 0 && (s.MaxFull == 0 || p.Full < s.MaxFull) {
		s.MaxFull = p.Full
	}
	if p.Kept != nil && len(p.Kept) < len(s.Candidates) {
		cs := make([]Candidate, len(p.Kept))
		for k, i := range p.Kept {
			cs[k] = s.Candidates[i]
		}
		s.Candidates = cs
	}
	if s.Vote > len(s.Candidates) {
		s.Vote = len(s.Candidates)
	}
	return s
}

func (p Plan) String() string {
	kernel := "the full kernel"
	if p.Landmarks > 0 {
		kernel = fmt.Sprintf("%d landmarks", p.Landmarks)
	}
	screen := "no screening"
	if p.Screen > 0 {
		screen = fmt.Sprintf("screening on %d graphs", p.Screen)
	}
	voters := ""
	switch {
	case p.Vote == 1:
		voters = ", the single best"
	case p.Vote > 1:
		voters = fmt.Sprintf(", %d voters", p.Vote)
	}
	return fmt.Sprintf("%s, %s, %d candidates%s", kernel, screen, p.Candidates, voters)
}

// BudgetError is returned where a run under a budget reached its deadline: the estimate was
// short. Folds is the number of outer folds finished (of FoldsTotal; 0 of 1 for one training
// set). What Options.Dir keeps stays for a rerun.
type BudgetError struct {
	Plan              Plan
	Elapsed           time.Duration
	Folds, FoldsTotal int
	Dir               string
	Err               error
}

func (e *BudgetError) Error() string {
	kept := "nothing kept (no folder to keep the discrepancies in)"
	if e.Dir != "" {
		kept = "the discrepancies computed so far are kept in " + e.Dir + " for a rerun"
	}
	return fmt.Sprintf("fgwsvm: the budget of %s ran out after %s, estimated %s (%s, %d discrepancies at %.0f/s): %d of %d folds done; %s",
		seconds(e.Plan.Budget), e.Elapsed.Round(time.Second), seconds(e.Plan.EstimateSeconds), e.Plan, e.Plan.GWDs, e.Plan.SolvesPerSecond, e.Folds, e.FoldsTotal, kept)
}

func (e *BudgetError) Unwrap() error { return e.Err }

func seconds(s float64) time.Duration {
	return time.Duration(s * float64(time.Second)).Round(time.Second)
}

// checkBudget refuses a negative budget and one below MinBudget.
func checkBudget(b time.Duration) error {
	if b < 0 || (b > 0 && b < MinBudget) {
		return fmt.Errorf("fgwsvm: budget %s, want 0 (none) or at least %s", b, MinBudget)
	}
	return nil
}

// workload is what a run does, as far as its cost goes: known without labels.
type workload struct {
	n, sets, train int   // graphs, training sets (outer folds, or 1), graphs of a training set
	fgw, vec       []int // the FGW and vector candidates' indices
}

func newWorkload(data []*graphs.Graph, folds int, s Settings) workload {
	w := workload{n: len(data), sets: 1, train: len(data)}
	if folds > 1 {
		w.sets, w.train = folds, len(data)-len(data)/folds
	}
	for i, c := range s.Candidates {
		if c.vector() {
			w.vec = append(w.vec, i)
		} else {
			w.fgw = append(w.fgw, i)
		}
	}
	return w
}

// option is one plan the search considers.
type option struct {
	landmarks, screen int
	fgw               []int // FGW candidates kept
	vote              int   // 0: the settings' voters
}

// screenedVote is the voters of a screening of cands candidates under option o.
func (o option) screenedVote(s Settings, cands int) int {
	switch {
	case o.vote > 0:
		return min(o.vote, cands)
	case s.Vote > 0:
		return min(s.Vote, cands)
	}
	return min(DefaultScreenedVote, cands)
}

// gwds estimates the discrepancies of option o on settings s.
func (w workload) gwds(s Settings, o option) int {
	screen, full, _ := w.split(s, o)
	return screen + full
}

// split estimates the discrepancies of option o on settings s: those of the screening, those
// of the matrices over all graphs (or to the landmarks), and the number of those matrices
// where a screening chooses them (0 otherwise).
func (w workload) split(s Settings, o option) (screen, full, matrices int) {
	f := len(o.fgw)
	cands := f + len(w.vec)
	screens := cands > 1 && o.screen > 0 && w.n > o.screen
	kept := f
	if screens {
		vote := o.screenedVote(s, cands)
		// The folds' screenings keep the candidates computed already where they score within
		// ScreenTolerance (rankedPreferring), so the folds share most of their voters: at most
		// three sets' worth are computed in full (docs/results/classification.md, "Landmarks
		// and a time budget").
		kept = min(f, vote*min(w.sets, 3))
		matrices = kept
		screen = screeningGWDs(o.screen, f, cands, vote, w.sets)
	}
	per := pairwise.Pairs(w.n)
	if m := o.landmarks; m > 0 {
		u := min(w.n, m)
		if w.sets > 1 { // the union of the folds' nested samples (landmarkSet)
			u = min(w.n, (m*w.sets+w.sets-2)/(w.sets-1))
		}
		per = min(per, pairwise.Pairs(u)+(w.n-u)*u)
	}
	return screen, kept * per, matrices
}

// screeningGWDs estimates the discrepancies of a screening of s graphs with f FGW candidates
// among cands and a vote of vote, for sets training sets: the rounds of halving.go, each
// round's candidates the union of what the sets keep, taken as 1.5 times one set's where
// there are several sets (the sets share 8 graphs in 9 at 10 folds and prefer what an earlier
// set kept; measured on ENZYMES, docs/results/classification.md), the FGW candidates the last
// to be dropped.
func screeningGWDs(s, f, cands, vote, sets int) int {
	total, alive := 0, cands
	for _, size := range screenRounds(s, cands, vote, MinRound) {
		union := alive
		if sets > 1 {
			union = (3*alive + 1) / 2
		}
		total += min(f, union) * pairwise.Pairs(size)
		alive = roundKeep(alive, vote)
	}
	return total
}

// svmSeconds estimates the seconds of option o's SVM grid searches from one of probe seconds
// on q graphs: quadratic in the graphs (the kernel's entries). A screening's rounds grid-search
// the candidates a set still keeps on the round's training graphs (halving.go).
func (w workload) svmSeconds(s Settings, o option, probe float64, q int) float64 {
	at := func(size int) float64 { r := float64(size) / float64(q); return probe * r * r }
	cands := len(o.fgw) + len(w.vec)
	if cands <= 1 || o.screen <= 0 || w.n <= o.screen {
		return float64(cands) * at(w.train) * float64(w.sets)
	}
	vote := o.screenedVote(s, cands)
	// Under landmarks every vector candidate runs every round and is compared on all the
	// training graphs beside the voters (halving.go).
	vec := 0
	if o.landmarks > 0 {
		vec = len(w.vec)
	}
	per, alive := float64(vote+vec)*at(w.train), cands
	for _, size := range screenRounds(o.screen, cands, vote, MinRound) {
		per += float64(alive) * at(size*w.train/w.n)
		alive = min(cands, roundKeep(alive, vote)+vec)
	}
	return per * float64(w.sets)
}

// PlanBudget plans a run of s on data with folds outer folds (0 or 1: one training set, as
// Train and TrainPredict) to fit budget (see the top of budget.go): it times a probe of the
// data, reads no label, and returns the plan, ErrBudgetTooSmall (wrapped) where nothing fits.
// opt is the run's: its solver, workers and Observe (told the plan).
func PlanBudget(ctx context.Context, data []*graphs.Graph, folds int, s Settings, budget time.Duration, opt Options) (Plan, error) {
	start := time.Now()
	if err := checkBudget(budget); err != nil {
		return Plan{}, err
	}
	if budget == 0 {
		return Plan{}, errors.New("fgwsvm: no budget to plan for")
	}
	if err := s.Validate(); err != nil {
		return Plan{}, err
	}
	w := newWorkload(data, folds, s)
	p := Plan{Budget: budget.Seconds()}
	pr := Probe{SVMItems: min(w.train, 200)}
	if opt.Probe != nil {
		pr = *opt.Probe
		if !(pr.SolvesPerSecond > 0) || pr.SVMSeconds < 0 || pr.SVMItems < 1 {
			return Plan{}, fmt.Errorf("fgwsvm: probe %+v: want solves per second above 0, SVM seconds at least 0 on at least one item", pr)
		}
	} else {
		var err error
		if len(w.fgw) > 0 {
			if p.ProbeGWDs, p.ProbeSeconds, err = probeSolves(ctx, data, s, w.fgw, budget/40, opt); err != nil {
				return Plan{}, fmt.Errorf("fgwsvm: the budget's probe: %w", err)
			}
			pr.SolvesPerSecond = float64(p.ProbeGWDs) / max(p.ProbeSeconds, 1e-9)
		}
		if pr.SVMSeconds, err = probeSVM(ctx, pr.SVMItems, s.Grid); err != nil {
			return Plan{}, fmt.Errorf("fgwsvm: the budget's probe: %w", err)
		}
	}
	p.SolvesPerSecond, p.ProbeSVMSeconds = pr.SolvesPerSecond, pr.SVMSeconds
	ok := choosePlan(&p, w, s, pr, time.Since(start).Seconds())
	if !ok {
		return p, fmt.Errorf("%w: %s; the cheapest plan (%s) needs about %s (%d discrepancies at %.0f/s, %s of SVMs)",
			ErrBudgetTooSmall, budget.Round(100*time.Millisecond), p, seconds(p.EstimateSeconds), p.GWDs, p.SolvesPerSecond, seconds(p.SVMSeconds))
	}
	return p, nil
}

// Probe is the speed of a machine as a budget's plan measures it: discrepancies per second
// (all workers together), and the seconds of one grid search of the SVMs on SVMItems items.
type Probe struct {
	SolvesPerSecond float64
	SVMSeconds      float64
	SVMItems        int
}

// choosePlan fills p with the first option of the order at the top of budget.go that fits
// p.Budget on machine pr (spent: seconds gone already), or the cheapest one and false.
func choosePlan(p *Plan, w workload, s Settings, pr Probe, spent float64) bool {
	q := pr.SVMItems
	estimate := func(o option) (float64, int, float64) {
		g := w.gwds(s, o)
		sv := w.svmSeconds(s, o, pr.SVMSeconds, q)
		t := spent + sv
		if g > 0 {
			t += float64(g) / pr.SolvesPerSecond
		}
		return t, g, sv
	}
	fits := func(o option) bool { t, _, _ := estimate(o); return t <= p.Budget }
	given := option{landmarks: s.Landmarks, screen: s.Screen, fgw: w.fgw}
	o, ok := given, fits(given)
	floor := min(LandmarkFloor, w.train)
	landmarksDown := func(least int) { // the largest m from least that fits, where one does
		if ok || s.Landmarks != 0 || w.train <= least || (o.landmarks > 0 && o.landmarks <= least) {
			return
		}
		o.landmarks = least
		if ok = fits(o); ok {
			o.landmarks = largest(least, w.train, func(m int) bool { o.landmarks = m; return fits(o) })
		}
	}
	screens := len(w.fgw)+len(w.vec) > 1 && min(s.Screen, w.n-1) >= MinScreen
	smallerScreen := func() { // the largest screening from MinScreen that fits, where one does
		hi := w.n - 1
		if s.Screen > 0 {
			hi = min(s.Screen, hi)
		}
		before := o
		o.screen = MinScreen
		if ok = fits(o); ok {
			o.screen = largest(MinScreen, hi, func(v int) bool { o.screen = v; return fits(o) })
		} else if least, _, _ := estimate(o); least > func() float64 { e, _, _ := estimate(before); return e }() {
			o.screen = before.screen // screening costs more here than it saves
		}
	}
	if !ok && s.Vote == 0 && s.Screen > 0 && w.n > s.Screen {
		for v := o.screenedVote(s, len(w.fgw)+len(w.vec)) - 1; v >= 1 && !ok; v-- {
			o.vote = v
			ok = fits(o)
		}
		if !ok && screens {
			smallerScreen()
		}
		if !ok {
			o = given
		}
	}
	landmarksDown(floor)
	if !ok && screens {
		smallerScreen()
	}
	landmarksDown(MinLandmarks)
	if !ok && len(w.fgw) > 1 {
		spread := func(c int) []int {
			out := make([]int, c)
			for k := range c {
				out[k] = w.fgw[k*len(w.fgw)/c]
			}
			return out
		}
		o.fgw = spread(1)
		if ok = fits(o); ok {
			c := largest(1, len(w.fgw), func(c int) bool { o.fgw = spread(c); return fits(o) })
			o.fgw = spread(c)
		}
	}
	if ok && o.landmarks > 0 && s.Landmarks == 0 && o.landmarks < w.train { // the most landmarks at what steps 3 and 4 chose
		o.landmarks = largest(o.landmarks, w.train, func(m int) bool { o.landmarks = m; return fits(o) })
	}
	est, g, sv := estimate(o)
	_, _, p.Full = w.split(s, o)
	p.Landmarks, p.Screen, p.Vote, p.GWDs, p.SVMSeconds, p.EstimateSeconds = o.landmarks, o.screen, o.vote, g, sv, est
	p.Kept = append(slices.Clone(o.fgw), w.vec...)
	slices.Sort(p.Kept)
	p.Candidates = len(p.Kept)
	p.Changed = o.landmarks != given.landmarks || o.screen != given.screen || len(o.fgw) != len(given.fgw) || o.vote != 0
	return ok
}

// largest is the largest v in [lo, hi] with ok(v), given ok(lo) and ok monotone (true, then
// false).
func largest(lo, hi int, ok func(int) bool) int {
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// probeSolves times discrepancies of seeded random pairs under the FGW candidates fgw (in a
// seeded order), about ProbePairs of them spread evenly, stopping after the candidates begun
// once limit has passed; it returns the discrepancies computed and their seconds. The
// candidates run side by side, each on one worker, as the pairs of a matrix do: a handful of
// pairs split over the workers would leave them waiting on each other, and the probe would
// measure that instead of the machine (docs/results/classification.md, "The budget's
// estimate", has the rates).
func probeSolves(ctx context.Context, data []*graphs.Graph, s Settings, fgw []int, limit time.Duration, opt Options) (int, float64, error) {
	if len(data) < 2 {
		return 0, 0, errors.New("fewer than two graphs")
	}
	rng := rand.New(rand.NewPCG(s.Grid.Seed, 0xb0d6e7))
	order := slices.Clone(fgw)
	rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
	perCand := max(4, ProbePairs/len(order))
	b := min(len(data)-1, max(2, perCand/2)) // a pair of sources against b targets
	a := max(1, min(2, perCand/b, len(data)-b))
	type job struct {
		src, dst []*graphs.Graph
		c        Candidate
	}
	jobs := make([]job, len(order))
	for k, ci := range order {
		perm := rng.Perm(len(data))[:a+b]
		j := job{src: make([]*graphs.Graph, a), dst: make([]*graphs.Graph, b), c: s.Candidates[ci]}
		for i := range a {
			j.src[i] = data[perm[i]]
		}
		for i := range b {
			j.dst[i] = data[perm[a+i]]
		}
		jobs[k] = j
	}
	quiet := opt
	quiet.Observe, quiet.Workers = nil, 1
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		next    atomic.Int64
		mu      sync.Mutex
		done    int
		failure error
		wg      sync.WaitGroup
	)
	start := time.Now()
	for range min(workers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= len(jobs) || (k > 0 && time.Since(start) > limit) {
					return
				}
				j := jobs[k]
				_, err := crossDistances(ctx, j.src, j.dst, j.c, nil, quiet, 0, a*b)
				mu.Lock()
				if err != nil && failure == nil {
					failure = err
				}
				if err == nil {
					done += a * b
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	if failure != nil {
		return 0, 0, failure
	}
	return done, time.Since(start).Seconds(), nil
}

// probeSVM times one grid search of s's grid on q synthetic items of two overlapping classes
// (so that the SVMs work as on real data, not on a separable toy).
func probeSVM(ctx context.Context, q int, g Grid) (float64, error) {
	if q < 20 { // milliseconds; and too few items to split into folds of both classes
		return 0, nil
	}
	rng := rand.New(rand.NewPCG(g.Seed, 0x5f3a))
	x := mat.NewDense(q, 4, nil)
	y := make([]int, q)
	for i := range q {
		for j := range 4 {
			x.Set(i, j, rng.NormFloat64())
		}
		if x.At(i, 0)+0.8*rng.NormFloat64() > 0 {
			y[i] = 1
		}
	}
	d := svm.SquaredDistances(x, x)
	sym := mat.NewSymDense(q, nil)
	for i := range q {
		for j := i; j < q; j++ {
			sym.SetSym(i, j, d.At(i, j))
		}
	}
	folds, err := svm.RepeatedStratifiedFolds(y, min(g.Folds, q/2), g.Repeats, g.Seed)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if _, err := svm.SelectExp(ctx, sym, y, 2, g.Gammas, g.Cs, folds...); err != nil {
		return 0, err
	}
	return time.Since(start).Seconds(), nil
}

// budgeted runs run under s.Budget, planned by PlanBudget on folds outer folds: with the plan's
// settings and a context whose deadline is the budget's end (or the earlier one ctx has). It
// logs the plan, records it in the stats run returns, and turns the deadline into a
// BudgetError (done: the folds finished, told by run through its argument).
func budgeted(ctx context.Context, data []*graphs.Graph, folds int, s Settings, opt Options, run func(context.Context, Settings, *int) (Stats, error)) (Stats, error) {
	start := time.Now()
	budget := s.Budget
	if d, ok := ctx.Deadline(); ok && time.Until(d) < budget {
		budget = max(MinBudget, time.Until(d))
	}
	bctx, cancel := context.WithDeadline(ctx, start.Add(budget))
	defer cancel()
	var path string
	if opt.Dir != "" {
		path = planFile(opt.Dir, data, folds, s, opt.solver())
	}
	p, reused := keptPlan(path, s)
	if reused {
		p.Budget, p.Reused, p.Seconds = budget.Seconds(), true, 0
		opt.log("budget %s: the plan of an earlier run, kept in %s (delete it to plan anew): %s; its estimate, for the whole work: %s; what that run computed is reused",
			budget.Round(time.Second), path, p, seconds(p.EstimateSeconds))
	} else {
		var err error
		if p, err = PlanBudget(bctx, data, folds, s, budget, opt); err != nil {
			return Stats{}, err
		}
		changed := ""
		if p.Changed {
			changed = " (changed to fit)"
		}
		full := ""
		if p.Full > 0 {
			full = fmt.Sprintf(", at most %d matrices over all graphs", p.Full)
		}
		opt.log("budget %s: %.0f discrepancies/s measured on %d pairs; plan%s: %s%s; estimate %d discrepancies and %s of SVMs, %s in all: ETA %s for the whole run",
			budget.Round(time.Second), p.SolvesPerSecond, p.ProbeGWDs, changed, p, full, p.GWDs, seconds(p.SVMSeconds), seconds(p.EstimateSeconds), start.Add(seconds(p.EstimateSeconds)).Format("15:04:05"))
		if path != "" {
			if err := keepPlan(path, p); err != nil {
				return Stats{}, err
			}
		}
	}
	done := 0
	st, err := run(bctx, p.Apply(s), &done)
	p.Seconds = time.Since(start).Seconds()
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			total := max(folds, 1)
			return Stats{}, &BudgetError{Plan: p, Elapsed: time.Since(start), Folds: done, FoldsTotal: total, Dir: opt.Dir, Err: err}
		}
		return Stats{}, err
	}
	st.Budget = &p
	return st, nil
}
