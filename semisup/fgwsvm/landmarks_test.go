package fgwsvm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/sealedfile"
	"github.com/gwf-graphs/gwf/layers/observe"
	"github.com/gwf-graphs/gwf/semisup/svm"
)

// everyFourth splits n graphs into training graphs and every fourth held out.
func everyFourth(n int) (train, test []int) {
	for i := range n {
		if i%4 == 0 {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	return train, test
}

// landmarkRun chooses and fits on train under s (planned for train alone) and predicts test.
func landmarkRun(t *testing.T, data []*graphs.Graph, y, train, test []int, s Settings, opt Options) (*matrices, Vote, []int) {
	t.Helper()
	mx, err := newMatrices(context.Background(), data, s, opt)
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
	return mx, v, predictVote(vs, test, train, 3)
}

// TestLandmarkKernelWithEveryGraph: where every training graph is a landmark (more landmarks
// asked for than there are: all of them), the landmark kernel is the full kernel, its median
// the full path's, and the choices and predictions are the full path's.
func TestLandmarkKernelWithEveryGraph(t *testing.T) {
	data, labels := threeClasses(t, 8, true)
	cands := []Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}, {Structure: graphs.ShortestPath, FeatureWeight: 4}}
	train, test := everyFourth(len(data))
	s := Settings{Candidates: cands, Grid: smallGrid(), Vote: 2, Landmarks: 1000}
	mx, v, got := landmarkRun(t, data, labels, train, test, s, Options{})
	full, err := Distances(context.Background(), data, cands, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for ci := range cands {
		nk, err := mx.nystromFor(ci, train)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(nk.lm, train) {
			t.Fatalf("landmarks %v, want every training graph", nk.lm)
		}
		sub := subSym(full[ci], train)
		med := svm.MedianOffDiagonal(sub)
		if nk.median() != med {
			t.Fatalf("%s: median %v, the full path's %v", cands[ci], nk.median(), med)
		}
		for _, gm := range []float64{0.01, 0.1, 1, 10, 100} {
			lk, err := nk.kernel(gm / med)
			if err != nil {
				t.Fatal(err)
			}
			if want := svm.ExpKernelSym(sub, gm/med); !mat.EqualApprox(lk.k, want, 1e-8) {
				t.Fatalf("%s, γ = %g: the landmark kernel is not the full kernel", cands[ci], gm)
			}
		}
	}
	s.Landmarks = 0
	_, wantV, want := landmarkRun(t, data, labels, train, test, s, Options{})
	for k := range v {
		if v[k].Landmarks != len(train) {
			t.Fatalf("voter %d: %d landmarks, want %d", k, v[k].Landmarks, len(train))
		}
		v[k].Landmarks = 0
	}
	if !slices.Equal(v, wantV) || !slices.Equal(got, want) {
		t.Fatalf("with every graph a landmark: %v %v; the full path %v %v", v, got, wantV, want)
	}
}

// TestLandmarkSelectionIgnoresHeldOutLabels: under landmarks, the choice and the predictions
// of a fold do not change when its held-out labels do, and no held-out graph is a landmark.
func TestLandmarkSelectionIgnoresHeldOutLabels(t *testing.T) {
	data, labels := threeClasses(t, 8, true)
	cands, err := Candidates(data, graphs.FeatureEncoding{}, Narrow{Kinds: []Kind{KindStatistics}})
	if err != nil {
		t.Fatal(err)
	}
	cands = append(cands, Candidate{Structure: graphs.Adjacency, FeatureWeight: 1}, Candidate{Structure: graphs.ShortestPath, FeatureWeight: 1})
	train, test := everyFourth(len(data))
	s := Settings{Candidates: cands, Grid: smallGrid(), Vote: 3, Landmarks: 6}
	mx, ch1, p1 := landmarkRun(t, data, labels, train, test, s, Options{})
	scrambled := slices.Clone(labels)
	for _, i := range test {
		scrambled[i] = (scrambled[i] + 1) % 3
	}
	_, ch2, p2 := landmarkRun(t, data, scrambled, train, test, s, Options{})
	if !slices.Equal(ch1, ch2) || !slices.Equal(p1, p2) {
		t.Fatalf("held-out labels changed the result: %v %v vs %v %v", ch1, p1, ch2, p2)
	}
	for _, l := range mx.lm.of(train) {
		if slices.Contains(test, l) {
			t.Fatalf("held-out graph %d is a landmark", l)
		}
	}
	if got := len(mx.lm.of(train)); got != 6 {
		t.Fatalf("%d landmarks, want 6", got)
	}
	for _, ch := range ch1 {
		if want := map[bool]int{true: 0, false: 6}[ch.Candidate.vector()]; ch.Landmarks != want {
			t.Fatalf("%s: %d landmarks, want %d", ch.Candidate, ch.Landmarks, want)
		}
	}
}

// TestLandmarkPredictUnseen: a classifier trained under landmarks predicts unseen graphs as
// cross-validation scores held-out graphs, comparing them with its landmarks alone, before
// and after a file round trip; damaged landmark data are refused.
func TestLandmarkPredictUnseen(t *testing.T) {
	data, labels := threeClasses(t, 10, true)
	cands := []Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}, {Structure: graphs.ShortestPath, FeatureWeight: 1}, {Kind: KindWLSubtree, WL: 2}}
	s := Settings{Candidates: cands, Grid: smallGrid(), Vote: 3, Landmarks: 7}
	train, test := data[:21], data[21:]
	var counted []observe.Event
	opt := Options{Observe: func(e observe.Event) {
		if e.Message == "" {
			counted = append(counted, e)
		}
	}}
	m, err := Train(context.Background(), train, labels[:21], 3, s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Landmarks) != 7 {
		t.Fatalf("%d landmarks kept, want 7", len(m.Landmarks))
	}
	got, err := m.Predict(context.Background(), test, opt)
	if err != nil {
		t.Fatal(err)
	}
	// The unseen graphs are compared with the landmarks (FGW voters) and the support graphs
	// (the vector voter) alone.
	want := 0
	for _, vt := range m.Voters {
		want += len(test) * len(vt.SVM.Support())
		if vt.Choice.Landmarks > 0 && !slices.Equal(vt.SVM.Support(), m.Landmarks) {
			t.Fatalf("%s weighs %v, not the landmarks %v", vt.Choice.Candidate, vt.SVM.Support(), m.Landmarks)
		}
	}
	if last := counted[len(counted)-1]; last.Done != want || last.Total != want {
		t.Fatalf("prediction counted %d of %d pairs, want %d", last.Done, last.Total, want)
	}
	// Cross-validation's path on all graphs, the first 21 training: the same landmarks (a
	// graph's key is its own), the same voters, the same predictions.
	mx, v, cv := landmarkRun(t, data, labels, seq(21), seq(len(data))[21:], s, Options{})
	for a, l := range mx.lm.of(seq(21)) {
		if train[l] != m.Graphs[m.Landmarks[a]] {
			t.Fatalf("landmark %d: graph %d, the classifier's %q", a, l, m.Graphs[m.Landmarks[a]].Name)
		}
	}
	if !slices.Equal(v, m.Vote()) || !slices.Equal(got, cv) {
		t.Fatalf("unseen graphs: %v %v, the cross-validation path %v %v", m.Vote(), got, v, cv)
	}

	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	j1, _ := json.Marshal(m.Vote())
	j2, _ := json.Marshal(back.Vote())
	if !slices.Equal(back.Landmarks, m.Landmarks) || !bytes.Equal(j1, j2) {
		t.Fatalf("round trip: landmarks %v, voters %v", back.Landmarks, back.Vote())
	}
	again, err := back.Predict(context.Background(), test, Options{})
	if err != nil || !slices.Equal(again, got) {
		t.Fatalf("after a round trip %v (%v), before %v", again, err, got)
	}

	// Damaged landmark data under a valid seal are refused, saying what is wrong.
	for _, tc := range []struct {
		name, want string
		edit       func(p map[string]any)
	}{
		{"unsorted", "distinct ascending", func(p map[string]any) {
			l := p["landmarks"].([]any)
			l[0], l[1] = l[1], l[0]
		}},
		{"out of range", "distinct ascending", func(p map[string]any) { p["landmarks"].([]any)[0] = 1e6 }},
		{"missing", "landmarks, the classifier 0", func(p map[string]any) { delete(p, "landmarks") }},
		{"one fewer", "landmarks, the classifier", func(p map[string]any) {
			l := p["landmarks"].([]any)
			p["landmarks"] = l[:len(l)-1]
		}},
		{"machine", "not the landmarks", func(p map[string]any) {
			vt := p["voters"].([]any)[0].(map[string]any)
			mc := vt["svm"].(map[string]any)["Machines"].([]any)[0].(map[string]any)
			sup := mc["Support"].([]any)
			sup[0] = sup[1]
		}},
		{"vector", "compares vectors", func(p map[string]any) {
			for _, vt := range p["voters"].([]any) {
				ch := vt.(map[string]any)["choice"].(map[string]any)
				if ch["candidate"].(map[string]any)["kind"] != nil {
					ch["landmarks"] = 7
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(bytes.NewReader(resealed(t, buf.Bytes(), tc.edit)))
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%v, want ErrCorrupt saying %q", err, tc.want)
			}
		})
	}
}

// resealed is the classifier file with its payload edited under a valid seal.
func resealed(t *testing.T, file []byte, edit func(p map[string]any)) []byte {
	t.Helper()
	var env struct{ Payload json.RawMessage }
	if err := json.Unmarshal(file, &env); err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(env.Payload, &p); err != nil {
		t.Fatal(err)
	}
	edit(p)
	payload, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	out, err := sealedfile.Seal(FormatName, FormatVersion, payload)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLandmarkCrossValidate: nested cross-validation under landmarks computes the discrepancies
// to the union of the folds' landmarks once (far fewer than all pairs), counts its progress to
// the total, composes with screening, keeps its matrices in Options.Dir for a rerun (or takes
// them from a full matrix kept there) and stops when cancelled.
func TestLandmarkCrossValidate(t *testing.T) {
	data, labels := threeClasses(t, 10, true)
	cands := []Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}, {Structure: graphs.ShortestPath, FeatureWeight: 1}, {Kind: KindStatistics}}
	s := Settings{Candidates: cands, Grid: smallGrid(), Landmarks: 8, Screen: 20}
	dir := t.TempDir()
	var last observe.Event
	opt := Options{Dir: dir, Observe: func(e observe.Event) {
		if e.Message == "" {
			last = e
		}
	}}
	res, st, err := CrossValidate(context.Background(), data, labels, 3, 3, 1, s, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for _, r := range res {
		right += int(r.Accuracy*float64(r.Test) + 0.5)
	}
	if right < len(data)*7/10 {
		t.Fatalf("%d of %d held-out graphs right", right, len(data))
	}
	var land []MatrixCost
	for _, c := range st.Matrices {
		if c.Landmarks > 0 {
			land = append(land, c)
		}
	}
	if len(land) == 0 || st.Screened != 20 {
		t.Fatalf("matrices %+v, screened on %d", st.Matrices, st.Screened)
	}
	for _, c := range land {
		if c.Landmarks < 8 || c.Landmarks > 14 || c.Graphs != len(data) {
			t.Fatalf("%d landmarks for 3 folds of 8 each, of %d graphs", c.Landmarks, c.Graphs)
		}
		if want := c.Landmarks*(c.Landmarks-1)/2 + (len(data)-c.Landmarks)*c.Landmarks; c.GWDs != want {
			t.Fatalf("%d discrepancies, want %d", c.GWDs, want)
		}
	}
	if last.Done != last.Total || last.Total == 0 {
		t.Fatalf("the last count %d of %d", last.Done, last.Total)
	}
	for _, r := range res {
		for _, ch := range r.Chosen() {
			if !ch.Candidate.vector() && ch.Landmarks != 8 {
				t.Fatalf("fold %d: %s with %d landmarks", r.Fold, ch.Candidate, ch.Landmarks)
			}
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.partial.npy")); len(files) != 0 {
		t.Fatalf("partial files left: %v", files)
	}
	// A rerun reuses what was kept, and scores alike.
	again, st2, err := CrossValidate(context.Background(), data, labels, 3, 3, 1, s, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range st2.Matrices {
		if c.Landmarks > 0 && (!c.Reused || c.GWDs != 0) {
			t.Fatalf("rerun computed %+v", c)
		}
	}
	for f := range res {
		if !slices.Equal(res[f].Predictions, again[f].Predictions) {
			t.Fatalf("fold %d: rerun predicted %v, first %v", f+1, again[f].Predictions, res[f].Predictions)
		}
	}
	// A full matrix kept by a run without landmarks serves too.
	full := t.TempDir()
	if _, err := Distances(context.Background(), data, cands[:2], Options{Dir: full}); err != nil {
		t.Fatal(err)
	}
	_, st3, err := CrossValidate(context.Background(), data, labels, 3, 3, 1, Settings{Candidates: cands[:2], Grid: smallGrid(), Landmarks: 8}, Options{Dir: full}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range st3.Matrices {
		if !c.Reused || c.GWDs != 0 {
			t.Fatalf("with the full matrices kept: %+v", c)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(full, "*landmarks*")); len(files) != 0 {
		t.Fatalf("wrote %v beside the full matrices", files)
	}

	// Cancelled while the discrepancies to the landmarks are computed: the context's error.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := Options{Observe: func(e observe.Event) {
		if e.Message == "" && e.Done > 10 {
			cancel()
		}
	}}
	if _, _, err := CrossValidate(ctx, data, labels, 3, 3, 1, Settings{Candidates: cands[:1], Grid: smallGrid(), Landmarks: 8}, stop, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestLandmarkSettings: bad numbers of landmarks are refused with an error, not a panic.
func TestLandmarkSettings(t *testing.T) {
	data, labels := threeClasses(t, 4, false)
	cands := []Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}}
	for _, m := range []int{-1, 1} {
		s := Settings{Candidates: cands, Grid: smallGrid(), Landmarks: m}
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "landmarks") {
			t.Fatalf("%d landmarks: %v", m, err)
		}
		if _, _, err := CrossValidate(context.Background(), data, labels, 3, 2, 1, s, Options{}, nil); err == nil {
			t.Fatalf("%d landmarks accepted", m)
		}
		if _, err := Train(context.Background(), data, labels, 3, s, Options{}); err == nil {
			t.Fatalf("%d landmarks accepted by Train", m)
		}
	}
	if err := (Settings{Candidates: cands, Grid: smallGrid(), Landmarks: 2}).Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestPseudoInverse: the cut eigenvalues and an indefinite matrix.
func TestPseudoInverse(t *testing.T) {
	// Eigenvalues 3, −1 (indefinite): the exact inverse.
	k := mat.NewSymDense(2, []float64{1, 2, 2, 1})
	p, err := pseudoInverse(k)
	if err != nil {
		t.Fatal(err)
	}
	var inv mat.Dense
	if err := inv.Inverse(k); err != nil {
		t.Fatal(err)
	}
	for j := range 2 {
		u := []float64{0, 0}
		u[j] = 1
		if got := p.apply(u); !floatsNear(got, mat.Col(nil, j, &inv), 1e-12) {
			t.Fatalf("column %d: %v, want %v", j, got, mat.Col(nil, j, &inv))
		}
	}
	// Rank one: the zero eigenvalue is cut, k·k⁺·k = k.
	one := mat.NewSymDense(2, []float64{1, 1, 1, 1})
	p, err = pseudoInverse(one)
	if err != nil || len(p.inv) != 1 {
		t.Fatalf("%d eigenvalues kept (%v), want 1", len(p.inv), err)
	}
	if got := p.apply([]float64{1, 1}); !floatsNear(got, []float64{0.5, 0.5}, 1e-12) {
		t.Fatalf("k⁺·(1, 1) = %v, want (0.5, 0.5)", got)
	}
	if _, err := pseudoInverse(mat.NewSymDense(2, nil)); err == nil {
		t.Fatal("a zero kernel was inverted")
	}
}

func floatsNear(a, b []float64, tol float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x-y <= tol && y-x <= tol })
}

// TestLandmarkKernelNotFinite: a kernel that overflows (a negative discrepancy at a large
// scale) is an error, not a panic or an SVM on infinities.
func TestLandmarkKernelNotFinite(t *testing.T) {
	nk := &nystrom{rows: []int{0, 1, 2}, lm: []int{0, 1},
		dtl: mat.NewDense(3, 2, []float64{0, 1, 1, 0, 2, -1000}), dll: mat.NewSymDense(2, []float64{0, 1, 1, 0})}
	if _, err := nk.kernel(1); err == nil || !strings.Contains(err.Error(), "+Inf") {
		t.Fatalf("an overflowing kernel: %v", err)
	}
	nk.dtl.Set(2, 1, 0)
	nk.dll.SetSym(0, 1, -1000)
	if _, err := nk.kernel(1); err == nil || !strings.Contains(err.Error(), "landmarks' kernel") {
		t.Fatalf("an overflowing landmarks' kernel: %v", err)
	}
}

// TestLandmarkCrossResumes: the discrepancies of the graphs to the landmarks, kept row by row
// as they finish, are resumed by a rerun after a cancel into what an uninterrupted run
// computes, counted from where they stopped.
func TestLandmarkCrossResumes(t *testing.T) {
	data, _ := threeClasses(t, 6, false)
	a, b := data[:14], data[14:]
	c := Candidate{Structure: graphs.Adjacency, FeatureWeight: 1}
	want, err := crossDistances(context.Background(), a, b, c, nil, Options{}, 0, 56)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cross.npy")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := Options{CheckpointEvery: time.Nanosecond, Observe: func(e observe.Event) {
		if e.Message == "" && e.Done >= 20 {
			cancel()
		}
	}}
	if _, err := stop.crossKept(ctx, a, b, c, path, 0, 56, 4); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	kept := loadPartial(partialFile(path), 56)
	if len(kept) < 20 || len(kept)%4 != 0 || len(kept) == 56 {
		t.Fatalf("kept %d discrepancies, want whole rows, at least 5 of 14", len(kept))
	}
	var logged []string
	first := -1
	again := Options{Observe: func(e observe.Event) {
		if e.Message != "" {
			logged = append(logged, e.Message)
		} else if first < 0 {
			first = e.Done
		}
	}}
	got, err := again.crossKept(context.Background(), a, b, c, path, 0, 56, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, want) {
		t.Fatal("the resumed discrepancies differ from an uninterrupted run's")
	}
	if len(logged) != 1 || !strings.HasPrefix(logged[0], "resuming") || first <= len(kept) {
		t.Fatalf("the rerun logged %v and counted from %d, after %d kept", logged, first, len(kept))
	}
}
