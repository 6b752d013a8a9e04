package fgwsvm

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/observe"
)

// graphOf is a graph of n nodes and the undirected edges, without features.
func graphOf(t *testing.T, name string, n int, edges ...[2]int) *graphs.Graph {
	t.Helper()
	a := mat.NewDense(n, n, nil)
	for _, e := range edges {
		a.Set(e[0], e[1], 1)
		a.Set(e[1], e[0], 1)
	}
	g, err := graphs.New(name, a, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestWLSubtreeCounts: a path of three nodes has, from one label for all nodes, the counts 3
// (iteration 0), 2 and 1 (the ends and the middle after one iteration); a triangle 3 and 3,
// the middle's code; their distance is that of the unit vectors.
func TestWLSubtreeCounts(t *testing.T) {
	path := graphOf(t, "path", 3, [2]int{0, 1}, [2]int{1, 2})
	triangle := graphOf(t, "triangle", 3, [2]int{0, 1}, [2]int{1, 2}, [2]int{0, 2})
	c := Candidate{Kind: KindWLSubtree, WL: 1}
	v, err := c.vectorsOf(context.Background(), []*graphs.Graph{path, triangle}, 1)
	if err != nil {
		t.Fatal(err)
	}
	p, tr := v.sparse[0], v.sparse[1]
	counts := slices.Clone(p.vals)
	for k := range counts {
		counts[k] *= math.Sqrt(14)
	}
	slices.Sort(counts)
	if len(counts) != 3 || math.Abs(counts[0]-1) > 1e-12 || math.Abs(counts[1]-2) > 1e-12 || math.Abs(counts[2]-3) > 1e-12 {
		t.Fatalf("path counts %v, want 1, 2, 3 (over √14)", counts)
	}
	if len(tr.keys) != 2 || tr.keys[0] != p.keys[0] {
		t.Fatalf("triangle keys %v, path keys %v: iteration 0 should share its code", tr.keys, p.keys)
	}
	// The triangle's iteration-1 code is the path's middle node's (a label and two neighbours).
	mid := slices.Index(p.keys, tr.keys[1])
	if mid < 0 || math.Abs(p.vals[mid]*math.Sqrt(14)-1) > 1e-12 {
		t.Fatalf("triangle's iteration-1 code %x not the path's middle (%x)", tr.keys[1], p.keys)
	}
	dot := (3*3 + 1*3) / (math.Sqrt(14) * math.Sqrt(18))
	if got := sparseDistance(p, tr); math.Abs(got-(2-2*dot)) > 1e-12 {
		t.Fatalf("distance %v, want %v", got, 2-2*dot)
	}
}

// TestWLSubtreeKernel: relabelled copies are 0 apart, and the kernel 1 − d/2 (the cosine of
// the count vectors) is positive semidefinite on a random set of graphs, labelled or not.
func TestWLSubtreeKernel(t *testing.T) {
	data, _ := threeClasses(t, 5, true)
	rng := rand.New(rand.NewPCG(9, 9))
	g := data[4]
	perm := rng.Perm(g.N())
	dense := g.Dense()
	a := mat.NewDense(g.N(), g.N(), nil)
	f := mat.NewDense(g.N(), 1, nil)
	for u := range g.N() {
		f.Set(perm[u], 0, g.F.At(u, 0))
		for v := range g.N() {
			a.Set(perm[u], perm[v], dense.At(u, v))
		}
	}
	copied, err := graphs.New("copy", a, nil, f)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, copied)
	for _, c := range []Candidate{{Kind: KindWLSubtree, WL: 3}, {Kind: KindWLSubtree, WL: 2, WithoutFeatures: true}} {
		ds, err := Distances(context.Background(), data, []Candidate{c}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		d := ds[0]
		if got := d.At(4, len(data)-1); got != 0 {
			t.Errorf("%s: a relabelled copy is %v apart", c, got)
		}
		n := len(data)
		k := mat.NewSymDense(n, nil)
		for i := range n {
			for j := i; j < n; j++ {
				k.SetSym(i, j, 1-d.At(i, j)/2)
			}
		}
		var es mat.EigenSym
		if !es.Factorize(k, false) {
			t.Fatal("eigendecomposition failed")
		}
		if low := es.Values(nil)[0]; low < -1e-9 {
			t.Errorf("%s: kernel eigenvalue %v", c, low)
		}
	}
}

// TestVectorCandidatesBadInput: graphs of one node, without edges, disconnected, get finite
// distances under every vector candidate, and a cross-validation runs on them.
func TestVectorCandidatesBadInput(t *testing.T) {
	var data []*graphs.Graph
	var labels []int
	for i := range 12 {
		var g *graphs.Graph
		switch i % 3 {
		case 0:
			g = graphOf(t, "one", 1)
		case 1:
			g = graphOf(t, "empty", 2+i%4)
		default:
			g = graphOf(t, "two parts", 5, [2]int{0, 1}, [2]int{2, 3}, [2]int{3, 4})
		}
		data = append(data, g)
		labels = append(labels, i%3)
	}
	cands, err := Candidates(data, graphs.FeatureEncoding{}, Narrow{Kinds: []Kind{KindStatistics, KindWLSubtree}})
	if err != nil || len(cands) != 5 {
		t.Fatalf("%d candidates (%v), want statistics and WL subtree 1 to 4", len(cands), err)
	}
	ds, err := Distances(context.Background(), data, cands, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for k, d := range ds {
		if err := checkFinite(d); err != nil {
			t.Fatalf("%s: %v", cands[k], err)
		}
	}
	res, _, err := CrossValidate(context.Background(), data, labels, 3, 3, 1, Settings{Candidates: cands, Grid: smallGrid()}, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Accuracy != 1 {
			t.Errorf("fold %d: accuracy %v on graphs whose size tells the class", r.Fold, r.Accuracy)
		}
	}
}

// TestVectorSelectionIgnoresHeldOutLabels: with the vector candidates too, the choice, the
// statistics' scales and the predictions of a fold do not change when its held-out labels do.
func TestVectorSelectionIgnoresHeldOutLabels(t *testing.T) {
	data, labels := threeClasses(t, 8, true)
	cands, err := Candidates(data, graphs.FeatureEncoding{}, Narrow{Kinds: []Kind{KindStatistics, KindWLSubtree}})
	if err != nil {
		t.Fatal(err)
	}
	cands = append(cands, Candidate{Structure: graphs.Adjacency, FeatureWeight: 1})
	var train, test []int
	for i := range data {
		if i%4 == 0 {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	run := func(y []int) (Vote, []int, []float64) {
		mx, err := newMatrices(context.Background(), data, Settings{Candidates: cands, Grid: smallGrid(), Vote: 3}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		v, err := mx.chooseFor(train, y, 3, smallGrid(), nil)
		if err != nil {
			t.Fatal(err)
		}
		vs, err := mx.fitFor(v, y, train, 3)
		if err != nil {
			t.Fatal(err)
		}
		return v, predictVote(vs, test, train, 3), mx.scaled[0].scales
	}
	ch1, p1, s1 := run(labels)
	scrambled := slices.Clone(labels)
	for _, i := range test {
		scrambled[i] = (scrambled[i] + 1) % 3
	}
	ch2, p2, s2 := run(scrambled)
	if !slices.Equal(ch1, ch2) || !slices.Equal(p1, p2) || !slices.Equal(s1, s2) || len(s1) != graphs.NumStatistics {
		t.Fatalf("held-out labels changed the result: %v %v vs %v %v", ch1, p1, ch2, p2)
	}
	// The statistics are scaled by the training graphs alone: other held-out graphs, other rows.
	mx, _ := newMatrices(context.Background(), data, Settings{Candidates: cands, Grid: smallGrid()}, Options{})
	all, _ := mx.matrixFor(0, seq(len(data)))
	some, _ := mx.matrixFor(0, train)
	if mat.EqualApprox(all, some, 1e-12) {
		t.Error("the statistics' matrix does not depend on the training graphs")
	}
}

// TestPredictVectorCandidates: a classifier whose voters are the statistics and a WL subtree
// candidate predicts unseen graphs as cross-validation scores held-out graphs (statistics
// scaled by the training graphs), before and after a file round trip.
func TestPredictVectorCandidates(t *testing.T) {
	data, labels := threeClasses(t, 10, true)
	cands := []Candidate{{Kind: KindStatistics, WithoutFeatures: true}, {Kind: KindWLSubtree, WL: 2}}
	train, test := data[:21], data[21:]
	m, err := Train(context.Background(), train, labels[:21], 3, Settings{Candidates: cands, Grid: smallGrid(), Vote: 2}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Voters) != 2 {
		t.Fatalf("%d voters, want 2", len(m.Voters))
	}
	var last observe.Event
	got, err := m.Predict(context.Background(), test, Options{Observe: func(e observe.Event) {
		if e.Total > 0 {
			last = e
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if last.Total == 0 || last.Done != last.Total {
		t.Errorf("the last progress of a prediction by vector voters is %d of %d, want all", last.Done, last.Total)
	}
	mx, err := newMatrices(context.Background(), data, Settings{Candidates: cands, Grid: smallGrid(), Vote: 2}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := mx.fitFor(m.Vote(), labels, seq(21), 3)
	if err != nil {
		t.Fatal(err)
	}
	want := predictVote(vs, seq(len(data))[21:], seq(21), 3)
	if !slices.Equal(got, want) {
		t.Fatalf("unseen graphs predicted %v, the cross-validation path %v", got, want)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	again, err := back.Predict(context.Background(), test, Options{})
	if err != nil || !slices.Equal(again, got) {
		t.Fatalf("after a round trip %v (%v), before %v", again, err, got)
	}
	for _, vt := range back.Voters {
		if (vt.Choice.Candidate.Kind == KindStatistics) != (len(vt.Scales) == graphs.NumStatistics) {
			t.Errorf("%s: %d scales", vt.Choice.Candidate, len(vt.Scales))
		}
	}
	// Decode refuses scales that do not fit the candidate (the seal's checksum aside).
	stats := back.Voters[0]
	if stats.Choice.Candidate.Kind != KindStatistics {
		stats = back.Voters[1]
	}
	for _, scales := range [][]float64{nil, stats.Scales[1:], append(slices.Clone(stats.Scales[1:]), -1), append(slices.Clone(stats.Scales[1:]), math.Inf(1))} {
		v := stats
		v.Scales = scales
		if checkScales(v) == nil {
			t.Errorf("scales %v accepted", scales)
		}
	}
	wl := Voter{Choice: Choice{Candidate: cands[1]}, Scales: stats.Scales}
	if checkScales(wl) == nil || checkScales(stats) != nil {
		t.Error("scales of a WL subtree voter accepted, or the statistics' refused")
	}
}

// TestVectorCandidateChecks: check refuses vector candidates no constructor makes.
func TestVectorCandidateChecks(t *testing.T) {
	for _, c := range []Candidate{
		{Kind: KindStatistics, Structure: graphs.Adjacency},
		{Kind: KindStatistics, WL: 2},
		{Kind: KindWLSubtree},
		{Kind: KindWLSubtree, WL: graphs.MaxWLIterations + 1},
		{Kind: KindWLSubtree, WL: 2, Attributes: 2},
		{Kind: KindWLSubtree, WL: 2, Part: PartLabels},
		{Kind: "histogram"},
	} {
		if err := c.check(); err == nil {
			t.Errorf("%+v passed check", c)
		}
	}
	for _, c := range []Candidate{
		{Kind: KindStatistics}, {Kind: KindWLSubtree, WL: 1, EdgeLabels: true},
		{Kind: KindWLSubtree, WL: 3, Attributes: 2, Part: PartLabels},
	} {
		if err := c.check(); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
		if !strings.Contains(c.String(), "statistics") && !strings.Contains(c.String(), "subtree") {
			t.Errorf("%+v reads %q", c, c.String())
		}
	}
	if _, err := Candidates(nil, graphs.FeatureEncoding{}, Narrow{Kinds: []Kind{"histogram"}}); err == nil {
		t.Error("an unknown kind accepted")
	}
}

// TestCutVote: voters more than VoteWithin standard errors below the best leave the vote;
// near-equal ones stay; 0 keeps them all; a handicap counts in the rank.
func TestCutVote(t *testing.T) {
	v := Vote{{Validation: 0.98, index: 0}, {Validation: 0.96, index: 1}, {Validation: 0.90, index: 2}, {Validation: 0.97, index: 3}}
	v = ranked(v, len(v))
	// n = 180: p = 0.973, one standard error 0.012; two: down to 0.956.
	if got := cutVote(v, 2, 180); len(got) != 3 || got[2].index != 1 {
		t.Errorf("within 2: %v", got)
	}
	if got := cutVote(v, 0, 180); len(got) != 4 {
		t.Errorf("within 0: %d voters, want all 4", len(got))
	}
	perfect := Vote{{Validation: 1}, {Validation: 0.99}, {Validation: 0.5}}
	if got := cutVote(perfect, 2, 100); len(got) != 2 {
		t.Errorf("a perfect best: %d voters, want 2 (the spread of a perfect score is not 0)", len(got))
	}
	handicapped := Vote{{Validation: 0.9}, {Validation: 0.9, Handicap: 0.2}}
	if got := cutVote(handicapped, 2, 100); len(got) != 1 {
		t.Errorf("a handicapped voter kept: %v", got)
	}
	if err := (Settings{Candidates: []Candidate{{Kind: KindStatistics}}, Grid: smallGrid(), VoteWithin: -1}).Validate(); err == nil {
		t.Error("a negative VoteWithin accepted")
	}
}

// TestVectorCandidatesScreened: where the candidates are screened on a subset (the
// statistics scaled by the training graphs in it), the held-out labels change neither the
// choice nor the predictions, and a cross-validation runs.
func TestVectorCandidatesScreened(t *testing.T) {
	data, labels := threeClasses(t, 8, true)
	cands, err := Candidates(data, graphs.FeatureEncoding{}, Narrow{Kinds: []Kind{KindStatistics, KindWLSubtree}})
	if err != nil {
		t.Fatal(err)
	}
	cands = append(cands, Candidate{Structure: graphs.Adjacency, FeatureWeight: 1})
	s := Settings{Candidates: cands, Grid: smallGrid(), Screen: 15, VoteWithin: DefaultVoteWithin}
	var train, test []int
	for i := range data {
		if i%4 == 0 {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	run := func(y []int) (Vote, []int) {
		mx, err := newMatrices(context.Background(), data, s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		screened, err := mx.plan([][]int{train}, y, 3, s.Grid)
		if err != nil {
			t.Fatal(err)
		}
		v, err := mx.chooseFor(train, y, 3, s.Grid, screened[0])
		if err != nil {
			t.Fatal(err)
		}
		vs, err := mx.fitFor(v, y, train, 3)
		if err != nil {
			t.Fatal(err)
		}
		return v, predictVote(vs, test, train, 3)
	}
	ch1, p1 := run(labels)
	scrambled := slices.Clone(labels)
	for _, i := range test {
		scrambled[i] = (scrambled[i] + 1) % 3
	}
	ch2, p2 := run(scrambled)
	if !slices.Equal(ch1, ch2) || !slices.Equal(p1, p2) {
		t.Fatalf("held-out labels changed the result: %v %v vs %v %v", ch1, p1, ch2, p2)
	}
	res, st, err := CrossValidate(context.Background(), data, labels, 3, 3, 1, s, Options{}, nil)
	if err != nil || st.Screened != 15 || len(res) != 3 {
		t.Fatalf("cross-validation: %d folds, screened on %d (%v)", len(res), st.Screened, err)
	}
}

// TestVectorCandidateJSON: a vector candidate is written without the feature weight it has no
// use for, an FGW candidate with its weight even at 0, and both read back as they were.
func TestVectorCandidateJSON(t *testing.T) {
	for _, c := range []Candidate{
		{Kind: KindStatistics, WithoutFeatures: true},
		{Kind: KindWLSubtree, WL: 2},
		{Structure: graphs.Adjacency, FeatureWeight: 0},
		{Structure: graphs.ShortestPath, FeatureWeight: 0.5, WL: 1},
	} {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var fields map[string]any
		if err := json.Unmarshal(b, &fields); err != nil {
			t.Fatal(err)
		}
		if _, has := fields["feature_weight"]; has == c.vector() {
			t.Errorf("%s: written as %s", c, b)
		}
		var back Candidate
		if err := json.Unmarshal(b, &back); err != nil || back != c {
			t.Errorf("%s: read back as %+v (%v)", c, back, err)
		}
	}
}
