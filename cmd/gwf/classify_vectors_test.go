package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
)

// writeRandomClasses writes graphs named prefix00.json… to the folders dirs (each graph to
// every one of them), random graphs (class "uniform") and two-community graphs (class
// "communities") of 10 to 17 nodes, close enough that a classifier errs on some; labels are
// returned, not written.
func writeRandomClasses(t *testing.T, prefix string, n int, seed uint64, dirs ...string) map[string]string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	class := map[string]string{}
	for i := range n {
		size := 10 + rng.IntN(8)
		var g *graphs.Graph
		var err error
		if i%2 == 0 {
			g, err = graphs.StochasticBlockModel([]int{size}, [][]float64{{0.3}}, rng)
			class[fmt.Sprintf("%s%02d.json", prefix, i)] = "uniform"
		} else {
			g, err = graphs.StochasticBlockModel([]int{size / 2, size - size/2}, [][]float64{{0.5, 0.12}, {0.12, 0.5}}, rng)
			class[fmt.Sprintf("%s%02d.json", prefix, i)] = "communities"
		}
		if err != nil {
			t.Fatal(err)
		}
		a := make([][]int, size)
		for u := range a {
			a[u] = make([]int, size)
			for v := range a[u] {
				if g.A.At(u, v) > 0 {
					a[u][v] = 1
				}
			}
		}
		b := strings.ReplaceAll(fmt.Sprint(a), " ", ", ")
		for _, d := range dirs {
			writeFile(t, d, fmt.Sprintf("%s%02d.json", prefix, i), `{"adjacency": `+b+`}`)
		}
	}
	return class
}

// TestClassifyVectorCandidates: --compare chooses the kinds of candidate (a report says which
// each fold chose); a classifier whose voters are graph statistics or WL subtree counts,
// saved and used by 'gwf predict' on new graphs, predicts them as classify predicts the
// unlabelled graphs of a folder that holds both (training on the same labelled graphs);
// --compare refuses unknown kinds.
func TestClassifyVectorCandidates(t *testing.T) {
	train, both, unseen := t.TempDir(), t.TempDir(), t.TempDir()
	class := writeRandomClasses(t, "a", 30, 1, train, both)
	writeRandomClasses(t, "b", 16, 2, both, unseen)
	rows := []string{"file,label"}
	for name, c := range class {
		rows = append(rows, name+","+c)
	}
	slices.Sort(rows[1:])
	for _, d := range []string{train, both} {
		writeFile(t, d, "labels.csv", strings.Join(rows, "\n")+"\n")
	}

	out, _ := mustRun(t, "classify", "--graphs", train, "--compare", "statistics,wl-subtree", "--folds", "3", "--inner-folds", "2", "--budget", "0", "-q", "--json")
	var rep crossval.SVMReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Settings.Candidates) != 5 || rep.Settings.Candidates[0].Kind != fgwsvm.KindStatistics {
		t.Fatalf("--compare statistics,wl-subtree: candidates %v, want the statistics and WL subtree 1 to 4", rep.Settings.Candidates)
	}
	for _, f := range rep.Folds {
		if k := f.Choice.Candidate.Kind; k != fgwsvm.KindStatistics && k != fgwsvm.KindWLSubtree {
			t.Errorf("fold %d chose %v", f.Fold, f.Choice.Candidate)
		}
	}

	for _, kind := range []string{"statistics", "wl-subtree"} {
		t.Run(kind, func(t *testing.T) {
			preds := filepath.Join(t.TempDir(), "p.csv")
			mustRun(t, "classify", "--graphs", both, "--compare", kind, "--inner-folds", "2", "--predictions", preds, "-q")
			want := readPredictions(t, preds)
			model := filepath.Join(t.TempDir(), kind+".classifier")
			mustRun(t, "classify", "--graphs", train, "--compare", kind, "--inner-folds", "2", "--labeled-fraction", "1", "--output", model, "-q")
			p := filepath.Join(t.TempDir(), "new.csv")
			mustRun(t, "predict", "--model", model, "--graphs", unseen, "--output", p, "-q")
			got := readPredictions(t, p)
			if len(got) != 16 {
				t.Fatalf("%d predictions, want 16", len(got))
			}
			right, kinds := 0, map[string]bool{}
			for name, g := range got {
				if g[1] != want[name][1] {
					t.Errorf("%s: predict says %s, classify %s", name, g[1], want[name][1])
				}
				kinds[g[1]] = true
				if name[0] == 'b' && g[1] == map[bool]string{true: "uniform", false: "communities"}[(name[2]-'0')%2 == 0] {
					right++
				}
			}
			if len(kinds) != 2 || (kind == "statistics" && right < 10) { // the WL subtree counts of unlabelled random graphs tell little
				t.Errorf("%d of 16 right, classes predicted %v", right, kinds)
			}
		})
	}

	for _, bad := range [][]string{{"--compare", "statistics,histogram"}, {"--compare", ""}, {"--compare", "wl-subtree", "--wl", "0"}, {"--vote-within", "-1"}} {
		if _, stderr, code := runCLI(t, append([]string{"classify", "--graphs", train}, bad...)...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", bad, code, cli.ExitUsage, stderr)
		}
	}
}
