package fgwsvm

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/classlabel"
	"github.com/gwf-graphs/gwf/internal/sealedfile"
	"github.com/gwf-graphs/gwf/layers/observe"
)

// threeClasses: stochastic block models of 2, 3 and 4 equal blocks, 12–20 nodes, the shape
// of a user's folder of networkx graphs; some graphs carry a one-dimensional node feature
// (the block's parity) when features is true.
func threeClasses(t *testing.T, perClass int, features bool) ([]*graphs.Graph, []int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	var data []*graphs.Graph
	var labels []int
	for i := range 3 * perClass {
		c := i % 3
		blocks := c + 2
		n := 12 + rng.IntN(9)
		sizes := make([]int, blocks)
		for b := range n {
			sizes[b%blocks]++
		}
		p := make([][]float64, blocks)
		for a := range p {
			p[a] = make([]float64, blocks)
			for b := range p[a] {
				p[a][b] = 0.05
			}
			p[a][a] = 0.85
		}
		g, err := graphs.StochasticBlockModel(sizes, p, rng)
		if err != nil {
			t.Fatal(err)
		}
		if features {
			f := mat.NewDense(g.N(), 1, nil)
			for v := range g.N() {
				f.Set(v, 0, float64(v%2))
			}
			g.F = f
		}
		data = append(data, g)
		labels = append(labels, c)
	}
	return data, labels
}

func smallGrid() Grid {
	return Grid{Gammas: []float64{0.1, 1, 10}, Cs: []float64{1, 100}, Folds: 3, Seed: 1}
}

func TestCrossValidateSeparatesBlockModels(t *testing.T) {
	data, labels := threeClasses(t, 9, false)
	cands, err := DefaultCandidates(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 32 || cands[0].Degree || !cands[1].Degree || cands[6].WL != 2 || cands[11].WL != 4 || cands[16].Degree || cands[16].Structure != graphs.ShortestPath {
		t.Fatalf("candidates %v for graphs without features, want per structure the structure alone and five weights of degrees, of WL-2 and of WL-4 labels", cands)
	}
	cands = []Candidate{cands[0], cands[1], cands[16], cands[6]} // adjacency alone and with degrees, shortest paths, adjacency with WL-2
	ds, err := Distances(context.Background(), data, cands, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		for i := range len(data) {
			if d.At(i, i) != 0 {
				t.Fatalf("diagonal %v", d.At(i, i))
			}
		}
	}
	for _, screen := range []int{0, 14} {
		s := Settings{Candidates: cands, Grid: smallGrid(), Screen: screen}
		var said []string
		var counts [][2]int
		observe := func(e observe.Event) {
			if e.Message != "" {
				said = append(said, e.Message)
			} else if e.Total > 0 {
				counts = append(counts, [2]int{e.Done, e.Total})
			}
		}
		res, st, err := CrossValidate(context.Background(), data, labels, 3, 4, 1, s, Options{Observe: observe}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if screen > 0 {
			// The plan says up front how many matrices of all graphs the folds need, and their
			// progress is one count over all of them, ending at its total.
			pairs := len(data) * (len(data) - 1) / 2
			full := len(st.Full())
			plan := fmt.Sprintf("the screenings of the 4 folds chose %d candidates: %d matrices of all %d graphs to compute (%d discrepancies)", full, full, len(data), full*pairs)
			if !slices.ContainsFunc(said, func(m string) bool { return strings.Contains(m, plan) }) {
				t.Errorf("screen %d: no %q among %q", screen, plan, said)
			}
			if last := counts[len(counts)-1]; last != [2]int{full * pairs, full * pairs} {
				t.Errorf("screen %d: the last count %v, want %d of %d", screen, last, full*pairs, full*pairs)
			}
		}
		var acc float64
		for _, r := range res {
			acc += r.Accuracy / float64(len(res))
			if r.Choice.Validation < 0 || r.Choice.Validation > 1 || r.Choice.C == 0 {
				t.Fatalf("fold %d: choice %+v", r.Fold, r.Choice)
			}
			if (screen > 0) != (r.Choice.Screening > 0) {
				t.Fatalf("screen %d: fold %d's screening accuracy %v", screen, r.Fold, r.Choice.Screening)
			}
			// The default vote: the best third of 4 candidates (2), or the best 3 screened.
			if want := map[bool]int{false: 2, true: DefaultScreenedVote}[screen > 0]; len(r.Voters) != want {
				t.Fatalf("screen %d: fold %d has %d voters, want %d", screen, r.Fold, len(r.Voters), want)
			}
		}
		if acc < 0.9 {
			t.Fatalf("screen %d: accuracy %.3f on block models of 2, 3 and 4 blocks, want ≥ 0.9", screen, acc)
		}
		pairs := len(data) * (len(data) - 1) / 2
		want := len(cands) * pairs
		if screen > 0 {
			want = len(cands)*screen*(screen-1)/2 + len(st.Full())*pairs
		}
		if st.GWDs != want || st.Screened != screen || len(st.Full()) == 0 {
			t.Fatalf("screen %d: stats %+v, want %d GWDs", screen, st, want)
		}
	}
}

func TestFeatureCandidatesAroundBalancedWeight(t *testing.T) {
	data, _ := threeClasses(t, 3, true)
	cands, err := StructureCandidates(data, graphs.ShortestPath, graphs.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// Categorical features (0/1): the features, then their WL labels after 2 and 4 iterations.
	if len(cands) != 15 {
		t.Fatalf("candidates %v, want 3 × 5", cands)
	}
	for k, wl := range []int{0, 2, 4} {
		group := cands[5*k : 5*k+5]
		if !slices.IsSortedFunc(group, func(a, b Candidate) int { return cmp.Compare(a.FeatureWeight, b.FeatureWeight) }) {
			t.Fatalf("candidates %v, want five increasing weights", group)
		}
		for _, c := range group {
			if c.WL != wl {
				t.Fatalf("candidate %v, want %d WL iterations", c, wl)
			}
		}
	}
	// Features that are not 0/1 get no WL candidates.
	for _, g := range data {
		g.F.Set(0, 0, 0.5)
	}
	if cands, err := StructureCandidates(data, graphs.ShortestPath, graphs.Limits{}); err != nil || len(cands) != 5 {
		t.Fatalf("continuous features: %v, %v; want five candidates", cands, err)
	}
	if _, err := (Candidate{Structure: graphs.Adjacency, WL: 2}).apply(data, graphs.Limits{}); err == nil {
		t.Fatal("WL labels of continuous features accepted")
	}
}

// The choice and the predictions of the held-out graphs must not depend on their labels.
func TestSelectionIgnoresHeldOutLabels(t *testing.T) {
	data, labels := threeClasses(t, 8, false)
	cands, _ := DefaultCandidates(data)
	cands = cands[:2]
	ds, err := Distances(context.Background(), data, cands, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var train, test []int
	for i := range data {
		if i%4 == 0 {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	run := func(y []int) (Vote, []int) {
		v, err := choose(context.Background(), ds, cands, y, train, 3, smallGrid(), 2)
		if err != nil {
			t.Fatal(err)
		}
		vs, err := fitVote(v, []*mat.SymDense{ds[v[0].index], ds[v[1].index]}, y, train, 3)
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
}

// A saved classifier predicts unseen graphs by the computation cross-validation scored
// held-out graphs with: the same predictions as the rows of the full matrix.
// Unseen graphs get the row of the matrix that cross-validation uses, for features compared
// as they are and as Weisfeiler-Lehman labels.
func TestPredictUnseenOnTheSameFooting(t *testing.T) {
	data, labels := threeClasses(t, 10, true)
	train, _ := data[:21], data[21:]
	cands, err := DefaultCandidates(train)
	if err != nil {
		t.Fatal(err)
	}
	// A weight of each structure: features as they are (0–4: adjacency, 15–19: shortest
	// paths), then WL labels (10–14: 4 iterations, adjacency; 20–24: 2, shortest paths).
	for _, pick := range [][]int{{1, 16}, {11, 21}} {
		t.Run(cands[pick[0]].String(), func(t *testing.T) {
			samePredictions(t, data, labels, []Candidate{cands[pick[0]], cands[pick[1]]})
		})
	}
}

func samePredictions(t *testing.T, data []*graphs.Graph, labels []int, cands []Candidate) {
	train, test := data[:21], data[21:]
	m, err := Train(context.Background(), train, labels[:21], 3, Settings{Candidates: cands, Grid: smallGrid(), Vote: 2}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Voters) != 2 {
		t.Fatalf("%d voters, want 2", len(m.Voters))
	}
	got, err := m.Predict(context.Background(), test, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The same voters applied through the matrices of all graphs.
	var vs []voter
	for _, vt := range m.Voters {
		ds, err := Distances(context.Background(), data, []Candidate{vt.Choice.Candidate}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		full, err := fit(ds[0], vt.Choice, labels, seq(21), 3)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, voter{choice: vt.Choice, d: ds[0], svm: full})
	}
	want := predictVote(vs, seq(len(data))[21:], seq(21), 3)
	if !slices.Equal(got, want) {
		t.Fatalf("unseen graphs predicted %v, the cross-validation path %v", got, want)
	}
	ok := 0
	for i, p := range got {
		if p == labels[21+i] {
			ok++
		}
	}
	if ok < len(test)*8/10 {
		t.Fatalf("%d of %d unseen graphs right", ok, len(test))
	}

	// The file round trip keeps the predictions; a corrupted file is refused.
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	again, err := back.Predict(context.Background(), test, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again, got) {
		t.Fatalf("after a round trip %v, before %v", again, got)
	}
	if !IsClassifierFile(buf.Bytes()[:min(200, buf.Len())]) {
		t.Fatal("IsClassifierFile does not recognise the file")
	}
	bad := bytes.Replace(buf.Bytes(), []byte(`"c":`), []byte(`"c":-`), 1)
	if _, err := Decode(bytes.NewReader(bad)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("tampered file: %v, want ErrCorrupt", err)
	}
	if _, err := m.Predict(context.Background(), []*graphs.Graph{noFeatures(t)}, Options{}); err == nil {
		t.Fatal("a graph without the classifier's features was accepted")
	}
}

func noFeatures(t *testing.T) *graphs.Graph {
	g, err := graphs.New("bare", mat.NewDense(2, 2, []float64{0, 1, 1, 0}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestErrors(t *testing.T) {
	data, labels := threeClasses(t, 3, false)
	cands, _ := DefaultCandidates(data)
	s := Settings{Candidates: cands, Grid: smallGrid()}
	ctx := context.Background()
	one := make([]int, len(labels))
	bad := slices.Clone(labels)
	bad[0] = 7
	cv := func(data []*graphs.Graph, labels []int, s Settings) error {
		_, _, err := CrossValidate(ctx, data, labels, 3, 3, 1, s, Options{}, nil)
		return err
	}
	cases := map[string]func() error{
		"one class":          func() error { return cv(data, one, s) },
		"label out of range": func() error { return cv(data, bad, s) },
		"labels and graphs":  func() error { return cv(data, labels[:5], s) },
		"no candidates":      func() error { return cv(data, labels, Settings{Grid: smallGrid()}) },
		"empty grid":         func() error { return cv(data, labels, Settings{Candidates: cands, Grid: Grid{Folds: 3}}) },
		"vote of more than the candidates": func() error {
			return cv(data, labels, Settings{Candidates: cands, Grid: smallGrid(), Vote: len(cands) + 1})
		},
		"negative screen": func() error {
			return cv(data, labels, Settings{Candidates: cands, Grid: smallGrid(), Screen: -1})
		},
		"negative repeats": func() error {
			g := smallGrid()
			g.Repeats = -1
			return cv(data, labels, Settings{Candidates: cands, Grid: g})
		},
		"one labelled class": func() error {
			y := slices.Repeat([]int{classlabel.Unlabeled}, len(labels))
			y[0], y[3] = 0, 0
			_, _, _, err := TrainPredict(ctx, data, y, 3, s, Options{})
			return err
		},
		"train one graph": func() error {
			_, err := Train(ctx, data[:1], labels[:1], 3, s, Options{})
			return err
		},
	}
	for name, f := range cases {
		if err := f(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestWithDegrees(t *testing.T) {
	g, err := graphs.New("star", mat.NewDense(3, 3, []float64{0, 1, 2, 1, 0, 0, 2, 0, 0}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := withDegrees([]*graphs.Graph{g})[0]
	if g.F != nil || d.F == nil || !mat.Equal(d.F, mat.NewDense(3, 1, []float64{3, 1, 2})) || d.A != g.A {
		t.Fatalf("degree features %v of %v (the input must keep none)", mat.Formatted(d.F), g.F)
	}
	featured, _ := threeClasses(t, 1, true)
	if withDegrees(featured)[0] != featured[0] {
		t.Fatal("a graph with features was given degrees")
	}
}

// hammingSpread is the chance that two nodes drawn independently differ, summed over columns.
func TestHammingSpread(t *testing.T) {
	mk := func(codes ...float64) *graphs.Graph {
		n := len(codes) / 2
		g, err := graphs.New("g", mat.NewDense(n, n, nil), nil, mat.NewDense(n, 2, codes))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	// Column 0: code 1 in one graph, 2 in the other (differ half the time); column 1: all 5.
	got := hammingSpread([]*graphs.Graph{mk(1, 5, 1, 5), mk(2, 5, 2, 5, 2, 5)})
	if math.Abs(got-0.5) > 1e-12 {
		t.Fatalf("spread %v, want 0.5", got)
	}
}

// The majority of the voters decides; a tie goes to the best voter's class among the tied.
func TestMajority(t *testing.T) {
	preds := [][]int{
		{0, 1, 2, 2},
		{1, 1, 0, 0},
		{1, 0, 1, 0},
	}
	if got, want := majority(preds, 3), []int{1, 1, 2, 0}; !slices.Equal(got, want) {
		t.Fatalf("majority %v, want %v", got, want)
	}
	if got := majority(preds[:1], 3); !slices.Equal(got, preds[0]) {
		t.Fatalf("a vote of one %v, want %v", got, preds[0])
	}
}

// ranked orders by validation accuracy, keeps ties in order and cuts to n (at least one).
func TestRanked(t *testing.T) {
	cs := []Choice{{Validation: 0.5, index: 0}, {Validation: 0.9, index: 1}, {Validation: 0.5, index: 2}, {Validation: 0.7, index: 3}}
	idx := func(v Vote) []int {
		var out []int
		for _, c := range v {
			out = append(out, c.index)
		}
		return out
	}
	for n, want := range map[int][]int{0: {1}, 1: {1}, 3: {1, 3, 0}, 9: {1, 3, 0, 2}} {
		if got := idx(ranked(cs, n)); !slices.Equal(got, want) {
			t.Errorf("ranked(%d) = %v, want %v", n, got, want)
		}
	}
}

// A classifier file of version 1 (one choice and its SVM, before voters) is still read.
func TestDecodeVersion1(t *testing.T) {
	data, labels := threeClasses(t, 4, false)
	cands, _ := DefaultCandidates(data)
	m, err := Train(context.Background(), data, labels, 3, Settings{Candidates: cands[:1], Grid: smallGrid()}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	var env struct{ Payload map[string]json.RawMessage }
	if err := json.Unmarshal(buf.Bytes(), &env); err != nil {
		t.Fatal(err)
	}
	p := env.Payload
	var voters []json.RawMessage
	if err := json.Unmarshal(p["voters"], &voters); err != nil || len(voters) != 1 {
		t.Fatalf("voters %s: %v", p["voters"], err)
	}
	var one map[string]json.RawMessage
	if err := json.Unmarshal(voters[0], &one); err != nil {
		t.Fatal(err)
	}
	delete(p, "voters")
	p["choice"], p["svm"] = one["choice"], one["svm"]
	payload, _ := json.Marshal(p)
	file, err := sealedfile.Seal(FormatName, 1, payload)
	if err != nil {
		t.Fatal(err)
	}
	old, err := Decode(bytes.NewReader(file))
	if err != nil {
		t.Fatalf("version 1: %v", err)
	}
	want, _ := m.Predict(context.Background(), data, Options{})
	got, err := old.Predict(context.Background(), data, Options{})
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("version 1 predicts %v (%v), version 2 %v", got, err, want)
	}
	future := []byte(fmt.Sprintf(`"version":%d`, FormatVersion+1))
	if _, err := Decode(bytes.NewReader(bytes.Replace(file, []byte(`"version":1`), future, 1))); !errors.Is(err, sealedfile.ErrVersion) {
		t.Fatalf("version %d: %v, want ErrVersion", FormatVersion+1, err)
	}
}

// VoteFor: the best third of the candidates (at most DefaultVote) without screening, three
// with it, and Vote where it is set.
func TestVoteFor(t *testing.T) {
	cands := func(n int) []Candidate { return make([]Candidate, n) }
	for _, c := range []struct {
		s      Settings
		graphs int
		want   int
	}{
		{Settings{Candidates: cands(30)}, 188, 10},
		{Settings{Candidates: cands(32)}, 150, 10},
		{Settings{Candidates: cands(10)}, 100, 4},
		{Settings{Candidates: cands(5)}, 100, 2},
		{Settings{Candidates: cands(1)}, 100, 1},
		{Settings{Candidates: cands(30), Screen: 300}, 301, 3},
		{Settings{Candidates: cands(2), Screen: 300}, 301, 2},
		{Settings{Candidates: cands(30), Screen: 300}, 300, 10},
		{Settings{Candidates: cands(30), Screen: 300, Vote: 3}, 600, 3},
	} {
		if got := c.s.VoteFor(c.graphs); got != c.want {
			t.Errorf("%d candidates, screen %d, vote %d, %d graphs: %d voters, want %d", len(c.s.Candidates), c.s.Screen, c.s.Vote, c.graphs, got, c.want)
		}
	}
}

// Inner folds whose training part would hold one class are refused with a message that says
// why, before any SVM is trained; a class of one graph beside two larger ones is fine.
func TestInnerFoldsNeedTwoClasses(t *testing.T) {
	if _, err := innerFolds([]int{0, 1, 1}, 3, 1); err == nil || !strings.Contains(err.Error(), "two classes") {
		t.Fatalf("one graph of class 0 beside two of class 1: %v", err)
	}
	for _, y := range [][]int{{0, 0, 1, 1, 1}, {0, 1, 1, 2, 2}, {0, 1, 2, 2, 2}} {
		fold, err := innerFolds(y, 3, 1)
		if err != nil || len(fold) != len(y) {
			t.Fatalf("%v: %v, %v", y, fold, err)
		}
	}
}

// rankedPreferring puts a computed candidate ahead of an uncomputed one that screens at most
// ScreenTolerance higher, and keeps the plain order otherwise; its first is the single-voter
// rule (the computed candidate within ScreenTolerance of the best).
func TestRankedPreferring(t *testing.T) {
	cs := []Choice{{Validation: 0.80, index: 0}, {Validation: 0.795, index: 1}, {Validation: 0.70, index: 2}, {Validation: 0.78, index: 3}}
	done := func(ci int) bool { return ci == 1 || ci == 2 }
	var got []int
	for _, c := range rankedPreferring(cs, 4, done) {
		got = append(got, c.index)
	}
	if want := []int{1, 0, 3, 2}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	if v := rankedPreferring(cs, 1, func(ci int) bool { return ci == 2 }); v[0].index != 0 {
		t.Fatalf("a computed candidate 0.1 under the best was kept: %v", v[0])
	}
}

// TestHandicaps: a candidate without the node features ranks one standard error of the best
// accuracy with features lower: behind a candidate with features that it beats by less, ahead
// of one it beats by more; without any candidate with features nothing is handicapped.
func TestHandicaps(t *testing.T) {
	free := Candidate{Structure: graphs.Adjacency, FeatureWeight: 1, WithoutFeatures: true}
	feat := Candidate{Structure: graphs.Adjacency, FeatureWeight: 1}
	cs := []Choice{
		{Candidate: feat, Validation: 0.80, index: 0},
		{Candidate: free, Validation: 0.82, index: 1}, // within √(0.8·0.2/100) = 0.04
		{Candidate: free, Validation: 0.90, index: 2}, // beyond it
		{Candidate: feat, Validation: 0.60, index: 3},
	}
	setHandicaps(cs, 100)
	if h := cs[1].Handicap; math.Abs(h-0.04) > 1e-12 || cs[0].Handicap != 0 {
		t.Fatalf("handicaps %v, %v; want 0.04 and 0", h, cs[0].Handicap)
	}
	var got []int
	for _, c := range ranked(cs, 4) {
		got = append(got, c.index)
	}
	if want := []int{2, 0, 1, 3}; !slices.Equal(got, want) {
		t.Errorf("ranked %v, want %v", got, want)
	}
	only := []Choice{{Candidate: free, Validation: 0.7}, {Candidate: free, Validation: 0.8}}
	if setHandicaps(only, 100); only[0].Handicap != 0 || only[1].Handicap != 0 {
		t.Errorf("label-free candidates alone: handicaps %v, %v", only[0].Handicap, only[1].Handicap)
	}
}
