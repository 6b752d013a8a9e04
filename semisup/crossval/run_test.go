package crossval

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/shard"
)

// cyclesAndPaths: class 0 cycles, class 1 paths, 6–9 nodes.
func cyclesAndPaths(t *testing.T, perClass int) (*graphs.Dataset, []int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 7))
	ds := &graphs.Dataset{Name: "cycles-paths"}
	var labels []int
	for i := range 2 * perClass {
		n := 6 + rng.IntN(4)
		c := mat.NewDense(n, n, nil)
		for v := 1; v < n; v++ {
			c.Set(v-1, v, 1)
			c.Set(v, v-1, 1)
		}
		if i%2 == 0 {
			c.Set(0, n-1, 1)
			c.Set(n-1, 0, 1)
		}
		g, err := graphs.New("g", c, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		ds.Graphs, labels = append(ds.Graphs, g), append(labels, i%2)
	}
	return ds, labels
}

func TestCrossValidateSVM(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	cands := []fgwsvm.Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}, {Structure: graphs.ShortestPath, FeatureWeight: 1}}
	grid := fgwsvm.Grid{Gammas: []float64{1}, Cs: []float64{1, 10}, Folds: 2, Seed: 1}
	dir := t.TempDir()
	var folds int
	var said []string
	rep, err := CrossValidateSVM(context.Background(), ds, labels, 2, SVMSpec{
		Folds: 3, Seed: 1, Settings: fgwsvm.Settings{Candidates: cands, Grid: grid, Vote: 2}, ReportDir: dir,
		Options:  fgwsvm.Options{Observe: func(e training.Event) { said = append(said, e.Message) }},
		FoldDone: func(fgwsvm.FoldResult) { folds++ },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(said, func(m string) bool {
		return strings.HasPrefix(m, "fold 3/3: accuracy ") && strings.Contains(m, "; chose ")
	}) {
		t.Errorf("observed %q, want a line for fold 3", said)
	}
	if folds != 3 || len(rep.Folds) != 3 || rep.Settings.Vote != 2 || !strings.Contains(rep.Protocol, "best 2 candidates vote") {
		t.Fatalf("%d folds reported (%d called), vote %d, protocol %q", len(rep.Folds), folds, rep.Settings.Vote, rep.Protocol)
	}
	if rep.Accuracy.Mean < 0.9 {
		t.Fatalf("cycles against paths: accuracy %v", rep.Accuracy.Mean)
	}
	if rep.Features != "--features none" {
		t.Errorf("read with %q, want the data's encoding, --features none", rep.Features)
	}
	back, err := ReadFile(filepath.Join(dir, "report.json"))
	if err != nil || back.SVM == nil || back.SVM.Accuracy != rep.Accuracy {
		t.Fatalf("report.json: %+v, %v", back, err)
	}
}

func TestCrossValidateGWF(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.AtomSize, cfg.Epochs = 2, 4, 1
	dir := t.TempDir()
	spec := GWFSpec{CVOptions: CVOptions{Folds: 3, Seed: 1, Dir: dir}, Shard: shard.Shard{Index: 1, Count: 2}}
	rep, err := CrossValidateGWF(context.Background(), ds, labels, 2, cfg, semisup.DefaultConfig(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Folds) != 1 || rep.Folds[0].Fold != 2 || !strings.Contains(rep.Protocol, "shard 1/2: folds 2 only") {
		t.Fatalf("shard 1/2 of 3 folds: %d folds, protocol %q", len(rep.Folds), rep.Protocol)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.json")); !os.IsNotExist(err) {
		t.Fatalf("a shard wrote the report: %v", err)
	}
	spec.Shard = shard.Whole()
	rep, err = CrossValidateGWF(context.Background(), ds, labels, 2, cfg, semisup.DefaultConfig(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Folds) != 3 || !(rep.Accuracy.Mean >= 0 && rep.Accuracy.Mean <= 1) {
		t.Fatalf("all folds: %d, accuracy %v", len(rep.Folds), rep.Accuracy)
	}
	if _, err := ReadFile(filepath.Join(dir, "report.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := CrossValidateGWF(context.Background(), ds, labels, 2, cfg, semisup.DefaultConfig(), GWFSpec{CVOptions: CVOptions{Folds: 3}, Shard: shard.Shard{Index: 2, Count: 2}}); err == nil {
		t.Fatal("shard 2/2 accepted")
	}
}

func TestHeldOutAccuracy(t *testing.T) {
	u := semisup.Unlabeled
	labels := []int{0, 1, 1, 0, 1}
	train := []int{0, u, 1, u, u}
	pred := []int{0, 1, 0, 1, 1}
	if acc, n := HeldOutAccuracy(labels, train, pred, false); n != 3 || acc != 2.0/3 {
		t.Fatalf("unlabelled graphs: %v of %d, want 2/3 of 3", acc, n)
	}
	if acc, n := HeldOutAccuracy(labels, train, pred, true); n != 5 || acc != 3.0/5 {
		t.Fatalf("all graphs: %v of %d, want 3/5 of 5", acc, n)
	}
	if acc, n := HeldOutAccuracy(labels, labels, pred, false); n != 0 || acc != 0 {
		t.Fatalf("nothing held out: %v of %d", acc, n)
	}
}

// ScorePredictions counts per class, leaves unlabelled graphs out and counts a label the
// classifier never saw as wrong.
func TestScorePredictions(t *testing.T) {
	s := ScorePredictions([]string{"a", "b"}, []string{"a", "a", "", "b", "c"}, []string{"a", "b", "a", "b", "a"})
	if s.Graphs != 4 || s.Correct != 2 || s.Accuracy != 0.5 {
		t.Fatalf("score %+v", s)
	}
	want := []ClassScore{{"a", 2, 1, 2}, {"b", 1, 1, 2}, {"c", 1, 0, 0}}
	if len(s.PerClass) != 3 {
		t.Fatalf("per class %+v", s.PerClass)
	}
	for i, c := range want {
		if s.PerClass[i] != c {
			t.Errorf("class %d: %+v, want %+v", i, s.PerClass[i], c)
		}
	}
	if ScorePredictions(nil, []string{"", ""}, []string{"a", "b"}) != nil {
		t.Fatal("no labelled graph: want nil")
	}
}

func TestSetChosen(t *testing.T) {
	var r SVMReport
	r.SetChosen(fgwsvm.Vote{{C: 1}, {C: 2}})
	if r.Choice == nil || r.Choice.C != 1 || len(r.Voters) != 2 {
		t.Fatalf("two voters: choice %v, voters %v", r.Choice, r.Voters)
	}
	r.SetChosen(fgwsvm.Vote{{C: 3}})
	if r.Choice.C != 3 || r.Voters != nil {
		t.Fatalf("one voter: choice %v, voters %v", r.Choice, r.Voters)
	}
}
