package fgwsvm

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
)

// planFor is choosePlan on n graphs (their content unread) with nc FGW candidates.
func planFor(t *testing.T, n, folds, nc, screen int, budget time.Duration, pr Probe, set ...func(*Settings)) (Plan, bool) {
	t.Helper()
	cands := make([]Candidate, nc)
	for i := range cands {
		cands[i] = Candidate{Structure: graphs.Adjacency, FeatureWeight: float64(i)}
	}
	s := Settings{Candidates: append(cands, Candidate{Kind: KindStatistics}), Grid: smallGrid(), Screen: screen}
	for _, f := range set {
		f(&s)
	}
	p := Plan{Budget: budget.Seconds()}
	ok := choosePlan(&p, newWorkload(make([]*graphs.Graph, n), folds, s), s, pr, 0)
	if ok && p.EstimateSeconds > p.Budget {
		t.Errorf("plan %s fits, estimated %v s over a budget of %v s", p, p.EstimateSeconds, p.Budget)
	}
	return p, ok
}

// TestPlanBudgetOrder: a generous budget keeps the settings (the full kernel); tighter ones
// keep the full kernel with fewer voters, then with one voter on a smaller screening; then
// the voters and screening as given with landmarks down to LandmarkFloor, a smaller screening,
// fewer landmarks, and fewer candidates, in that order; the tightest none.
func TestPlanBudgetOrder(t *testing.T) {
	pr := Probe{SolvesPerSecond: 1000, SVMSeconds: 0.01, SVMItems: 100}
	// 400 graphs, 30 FGW candidates screened in rounds on 75, 150 and 300 of them (30·2,775 +
	// 17·11,175 + 9·44,850 solves), then 9·79,800: about 23 min; with one voter 3·79,800 full
	// matrices and fewer candidates in the later rounds: about 13 min.
	p, ok := planFor(t, 400, 10, 30, 300, 2*time.Hour, pr)
	if !ok || p.Changed || p.Landmarks != 0 || p.Screen != 300 || p.Candidates != 31 || p.Vote != 0 {
		t.Fatalf("2 h: %s (changed %v, fits %v), want the settings as given", p, p.Changed, ok)
	}
	p, ok = planFor(t, 400, 10, 30, 300, 20*time.Minute, pr)
	if !ok || p.Landmarks != 0 || p.Vote != 2 || p.Screen != 300 || p.Candidates != 31 {
		t.Fatalf("20 min: %s, want the full kernel with 2 voters and the rest as given", p)
	}
	p, ok = planFor(t, 400, 10, 30, 300, 15*time.Minute, pr)
	if !ok || p.Landmarks != 0 || p.Vote != 1 || p.Screen != 300 || p.Candidates != 31 || p.Full != 3 {
		t.Fatalf("15 min: %s (%d matrices over all graphs), want the full kernel with one voter and the rest as given, 3 matrices", p, p.Full)
	}
	p, ok = planFor(t, 400, 10, 30, 300, 10*time.Minute, pr)
	if !ok || p.Landmarks != 0 || p.Vote != 1 || p.Screen >= 300 || p.Screen < MinScreen || p.Candidates != 31 {
		t.Fatalf("10 min: %s, want the full kernel with one voter on a smaller screening", p)
	}
	p, ok = planFor(t, 400, 10, 30, 300, 4*time.Minute, pr)
	if !ok || p.Vote != 0 || p.Screen != MinScreen || p.Landmarks >= LandmarkFloor || p.Landmarks < MinLandmarks || p.Candidates != 31 {
		t.Fatalf("4 min: %s, want the default voters on fewer than %d landmarks on the smallest screening", p, LandmarkFloor)
	}
	// Voters pinned (Settings.Vote): landmarks first, as before the voters could change.
	pinned := func(s *Settings) { s.Vote = 3 }
	p, ok = planFor(t, 400, 10, 30, 300, 20*time.Minute, pr, pinned)
	if !ok || p.Vote != 0 || p.Landmarks < LandmarkFloor || p.Landmarks >= 360 || p.Screen != 300 {
		t.Fatalf("20 min, 3 voters pinned: %s, want landmarks and the rest as given", p)
	}
	p, ok = planFor(t, 400, 10, 30, 300, 15*time.Minute, pr, pinned)
	if !ok || p.Vote != 0 || p.Screen >= 300 || p.Screen < MinScreen || p.Landmarks < LandmarkFloor {
		t.Fatalf("15 min, 3 voters pinned: %s, want a smaller screening at %d landmarks or more", p, LandmarkFloor)
	}
	p, ok = planFor(t, 400, 10, 30, 300, time.Minute, pr)
	if !ok || p.Screen != MinScreen || p.Candidates >= 31 || p.Candidates < 2 {
		t.Fatalf("1 min: %s, want fewer candidates on the smallest screening", p)
	}
	if p, ok = planFor(t, 400, 10, 30, 300, 10*time.Second, pr); ok {
		t.Fatalf("10 s: %s fits, want none", p)
	}
	// Without screening (fewer graphs than Screen): the full kernel, or landmarks.
	p, _ = planFor(t, 100, 10, 2, 300, time.Hour, pr)
	if p.Landmarks != 0 || p.Changed {
		t.Fatalf("1 h on 100 graphs: %s, want the full kernel", p)
	}
	p, _ = planFor(t, 1000, 10, 2, 300, 8*time.Minute, pr)
	if p.Landmarks == 0 || p.Landmarks >= 900 {
		t.Fatalf("8 min on 1000 graphs: %s, want landmarks", p)
	}
}

// TestPlanBudgetRefusesTooSmall: where one candidate on the fewest landmarks does not fit,
// PlanBudget refuses before any work, naming the estimate; bad budgets are refused.
func TestPlanBudgetRefusesTooSmall(t *testing.T) {
	data, _ := threeClasses(t, 10, false)
	s := Settings{Candidates: []Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}}, Grid: smallGrid()}
	_, err := PlanBudget(context.Background(), data, 3, s, 2*time.Second, Options{Probe: &Probe{SolvesPerSecond: 1, SVMItems: 10}})
	if !errors.Is(err, ErrBudgetTooSmall) || !strings.Contains(err.Error(), "needs about") {
		t.Fatalf("err %v, want ErrBudgetTooSmall with the estimate", err)
	}
	for _, b := range []time.Duration{-time.Second, time.Millisecond} {
		s.Budget = b
		if err := s.Validate(); err == nil {
			t.Errorf("budget %s accepted", b)
		}
	}
}

// TestBudgetPlanReadsNoLabel: under a budget that takes landmarks, scrambled labels give the
// same plan; and a generous budget gives what no budget gives, with the plan reported.
func TestBudgetPlanReadsNoLabel(t *testing.T) {
	data, labels := threeClasses(t, 20, false)
	cands := []Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}, {Structure: graphs.ShortestPath, FeatureWeight: 1}}
	// 2·1,770 solves at 0.5/s is 7,080 s: over the budget, landmarks fit. The probe is slow and
	// the budget long so that the plan does not depend on this machine's speed, nor the run
	// reach its deadline (under the race detector on a busy machine, seconds do not suffice).
	s := Settings{Candidates: cands, Grid: smallGrid(), Budget: 6500 * time.Second}
	opt := Options{Probe: &Probe{SolvesPerSecond: 0.5, SVMSeconds: 1, SVMItems: 40}}
	plan := func(y []int) Plan {
		_, st, err := CrossValidate(context.Background(), data, y, 3, 3, 1, s, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.Budget == nil {
			t.Fatal("no plan in the stats")
		}
		p := *st.Budget
		p.Seconds, p.EstimateSeconds = 0, 0 // times of the run, not the plan
		return p
	}
	want := plan(labels)
	if want.Landmarks < MinLandmarks || want.Landmarks >= 40 {
		t.Fatalf("plan %s, want landmarks", want)
	}
	scrambled := make([]int, len(labels))
	for i, j := range rand.New(rand.NewPCG(3, 4)).Perm(len(labels)) {
		scrambled[i] = labels[j]
	}
	if got := plan(scrambled); !reflect.DeepEqual(got, want) {
		t.Fatalf("scrambled labels: plan %+v, want %+v", got, want)
	}

	s.Budget, opt.Probe.SolvesPerSecond = time.Hour, 1e6
	res, st, err := CrossValidate(context.Background(), data, labels, 3, 3, 1, s, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Budget = 0
	plain, pst, err := CrossValidate(context.Background(), data, labels, 3, 3, 1, s, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for f := range res {
		res[f].Seconds, plain[f].Seconds = 0, 0
	}
	if st.Budget == nil || st.Budget.Changed || pst.Budget != nil || !reflect.DeepEqual(res, plain) {
		t.Fatalf("a generous budget: plan %v, folds %+v; no budget: plan %v, folds %+v", st.Budget, res, pst.Budget, plain)
	}
}

// TestBudgetStops: where the estimate is far too short (a probe claiming a fast machine), the
// run stops at the budget with a BudgetError that says what was done, keeps its partial
// matrix in Options.Dir, and does not run past the budget by more than a little.
func TestBudgetStops(t *testing.T) {
	data, labels := threeClasses(t, 40, false)
	cands, err := DefaultCandidates(data) // 32 candidates on 120 graphs: about a minute of work
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := Settings{Candidates: cands, Grid: smallGrid(), Budget: time.Second}
	opt := Options{Probe: &Probe{SolvesPerSecond: 1e9, SVMSeconds: 0.001, SVMItems: 40}, Dir: dir}
	start := time.Now()
	_, _, err = CrossValidate(context.Background(), data, labels, 3, 3, 1, s, opt, nil)
	elapsed := time.Since(start)
	var be *BudgetError
	if !errors.As(err, &be) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want a BudgetError", err)
	}
	if elapsed > s.Budget+5*time.Second { // a solve or an SVM in flight finishes first
		t.Fatalf("stopped after %s, budget %s", elapsed, s.Budget)
	}
	if msg := err.Error(); !strings.Contains(msg, "budget of 1s ran out") || !strings.Contains(msg, "0 of 3 folds done") || !strings.Contains(msg, dir) {
		t.Fatalf("message %q does not say the budget, what was done and where it is kept", msg)
	}
	if files, _ := os.ReadDir(dir); len(files) == 0 {
		t.Fatal("nothing kept in the folder")
	}
}

// TestBudgetPlanKept: Options.Dir keeps the plan, and a rerun there takes it again, however
// fast its machine, so that it computes the matrices the first run kept.
func TestBudgetPlanKept(t *testing.T) {
	data, labels := threeClasses(t, 20, false)
	cands := []Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}, {Structure: graphs.ShortestPath, FeatureWeight: 1}}
	s := Settings{Candidates: cands, Grid: smallGrid(), Budget: 6500 * time.Second}
	dir := t.TempDir()
	run := func(rate float64) Plan {
		opt := Options{Probe: &Probe{SolvesPerSecond: rate, SVMSeconds: 1, SVMItems: 40}, Dir: dir}
		_, st, err := CrossValidate(context.Background(), data, labels, 3, 3, 1, s, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		return *st.Budget
	}
	first := run(0.5) // landmarks (TestBudgetPlanReadsNoLabel)
	again := run(1e6) // would keep the full kernel
	if first.Reused || !again.Reused || first.Landmarks == 0 || again.Landmarks != first.Landmarks || !reflect.DeepEqual(again.Kept, first.Kept) {
		t.Fatalf("first plan %+v, rerun's %+v: want the first one reused", first, again)
	}
}

// TestBudgetTrain: Train and TrainPredict plan under a budget too, and a generous one gives
// what no budget gives.
func TestBudgetTrain(t *testing.T) {
	data, labels := threeClasses(t, 8, false)
	s := Settings{Candidates: []Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}}, Grid: smallGrid()}
	plain, err := Train(context.Background(), data, labels, 3, s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Budget = time.Hour
	opt := Options{Probe: &Probe{SolvesPerSecond: 1e6, SVMItems: 10}}
	m, err := Train(context.Background(), data, labels, 3, s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if m.Stats.Budget == nil || m.Stats.Budget.Changed || !reflect.DeepEqual(m.Vote(), plain.Vote()) {
		t.Fatalf("under a budget: plan %v, vote %v; without: %v", m.Stats.Budget, m.Vote(), plain.Vote())
	}
	pred, _, st, err := TrainPredict(context.Background(), data, labels, 3, s, opt)
	if err != nil || st.Budget == nil || len(pred) != len(data) {
		t.Fatalf("TrainPredict under a budget: %d predictions, plan %v, err %v", len(pred), st.Budget, err)
	}
}

// TestPlanBudgetProbe: the probe measures on the data itself, however few graphs there are.
func TestPlanBudgetProbe(t *testing.T) {
	data, _ := threeClasses(t, 4, false)
	s := Settings{Candidates: []Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}, {Structure: graphs.ShortestPath, FeatureWeight: 1}}, Grid: smallGrid()}
	for _, n := range []int{2, 3, len(data)} {
		p, err := PlanBudget(context.Background(), data[:n], 0, s, time.Hour, Options{})
		if err != nil || p.ProbeGWDs == 0 || !(p.SolvesPerSecond > 0) || p.Changed {
			t.Fatalf("%d graphs: plan %+v, err %v; want a probe and the settings kept", n, p, err)
		}
	}
}

// TestPlanApplyVote: a plan's voters replace the settings' default; a plan without them keeps
// the settings' own.
func TestPlanApplyVote(t *testing.T) {
	s := Settings{Candidates: []Candidate{{Structure: graphs.Adjacency}, {Structure: graphs.ShortestPath}}, Grid: smallGrid(), Vote: 0}
	p := Plan{Vote: 1, Kept: []int{0, 1}, Candidates: 2}
	if got := p.Apply(s); got.Vote != 1 || got.Budget != 0 {
		t.Errorf("applied %+v, want one voter and no budget", got)
	}
	p.Vote, s.Vote = 0, 2
	if got := p.Apply(s); got.Vote != 2 {
		t.Errorf("applied %d voters, want the settings' 2", got.Vote)
	}
	p.Full = 2
	if got := p.Apply(s); got.MaxFull != 2 {
		t.Errorf("applied a cap of %d, want the plan's 2", got.MaxFull)
	}
	s.MaxFull = 1
	if got := p.Apply(s); got.MaxFull != 1 {
		t.Errorf("applied a cap of %d, want the settings' tighter 1", got.MaxFull)
	}
	if !strings.Contains((Plan{Vote: 1, Candidates: 2}).String(), "the single best") {
		t.Error("the plan's text does not name its voters")
	}
}

// TestDefaultBudget: 1.5 s a graph, from 5 minutes to an hour.
func TestDefaultBudget(t *testing.T) {
	for _, c := range []struct {
		n    int
		want time.Duration
	}{{0, 5 * time.Minute}, {188, 5 * time.Minute}, {600, 15 * time.Minute}, {1113, 1113 * 1500 * time.Millisecond}, {4110, time.Hour}, {1 << 62, time.Hour}} {
		if got := DefaultBudget(c.n); got != c.want {
			t.Errorf("DefaultBudget(%d) = %s, want %s", c.n, got, c.want)
		}
	}
}

// The SVM estimate of a screened plan counts every vector candidate's grid search on the
// training graphs only under landmarks, where the screening keeps them (halving.go).
func TestSVMSecondsCountsKeptVectors(t *testing.T) {
	s := Settings{Vote: 2}
	w := workload{n: 1000, sets: 10, train: 900, fgw: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, vec: []int{10, 11, 12}}
	full := w.svmSeconds(s, option{screen: 200, fgw: w.fgw}, 1, 100)
	lm := w.svmSeconds(s, option{screen: 200, fgw: w.fgw, landmarks: 100}, 1, 100)
	// Three more grid searches on 900 graphs a set, at 81 s each, and the vectors kept in the
	// screening's later rounds.
	if min := full + 3*81*10; !(lm >= min) {
		t.Errorf("estimate %v s under landmarks, %v s on the full kernel: want at least %v", lm, full, min)
	}
}
