package crossval

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
)

// With the balanced feature weight each fold records the weight its model measured (and a
// rerun on the same folder reads it back from the kept fold); with a stated weight none.
func TestCrossValidateTemplatesRecordsMeasuredWeight(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	dir := t.TempDir()
	for _, balance := range []bool{true, false} {
		cfg := smallTemplates()
		cfg.BalanceWeight = balance
		opt := TemplatesOptions{Folds: 2, Seed: 1, Workers: 2}
		if balance {
			opt.Dir = dir
		}
		for run := 0; run < 2; run++ {
			rep, err := CrossValidateTemplates(context.Background(), ds, labels, 2, cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Folds {
				if (f.FeatureWeight > 0 && f.FeatureWeight != 1) != balance {
					t.Errorf("balance %v, run %d, fold %d: feature weight %v recorded", balance, run, f.Fold, f.FeatureWeight)
				}
			}
		}
	}
}

// With TemplateNodes 0 each fold records the median size of its own training graphs, which
// bounds its templates; with a stated size none.
func TestCrossValidateTemplatesRecordsMedianSize(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	for _, nodes := range []int{0, 5} {
		cfg := smallTemplates()
		cfg.TemplateNodes = nodes
		rep, err := CrossValidateTemplates(context.Background(), ds, labels, 2, cfg, TemplatesOptions{Folds: 2, Seed: 1, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		folds, err := semisup.Folds(labels, 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Folds {
			want := 0
			if nodes == 0 {
				var train []int
				for i, k := range folds {
					if k != f.Fold-1 {
						train = append(train, i)
					}
				}
				want = semisup.MedianNodes(ds.Graphs, train)
			}
			if f.TemplateNodes != want {
				t.Errorf("template nodes %d, fold %d: %d recorded, want %d", nodes, f.Fold, f.TemplateNodes, want)
			}
		}
	}
}

// Each fold records the Weisfeiler-Lehman label columns its model read: some for graphs
// without features (one-hot degrees, categorical), none without WL labels.
func TestCrossValidateTemplatesRecordsWLLabels(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	for _, iterations := range []int{semisup.DefaultWLLabels, 0} {
		cfg := smallTemplates()
		cfg.WLLabels = iterations
		rep, err := CrossValidateTemplates(context.Background(), ds, labels, 2, cfg, TemplatesOptions{Folds: 2, Seed: 1, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Folds {
			if (f.WLLabelColumns > 0) != (iterations > 0) {
				t.Errorf("%d WL iterations, fold %d: %d label columns recorded", iterations, f.Fold, f.WLLabelColumns)
			}
		}
	}
}

// A kept fold is reused whatever build kept it, and a fold kept by another build is named in
// a warning.
func TestCrossValidateTemplatesNamesOtherBuilds(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	dir := t.TempDir()
	cfg := smallTemplates()
	run := func() (*TemplatesReport, []string) {
		var warned []string
		opt := TemplatesOptions{Folds: 2, Seed: 1, Workers: 2, Dir: dir, Observe: func(e training.Event) {
			if e.Warning {
				warned = append(warned, e.Message)
			}
		}}
		rep, err := CrossValidateTemplates(context.Background(), ds, labels, 2, cfg, opt)
		if err != nil {
			t.Fatal(err)
		}
		return rep, warned
	}
	first, _ := run()
	if _, warned := run(); len(warned) != 0 {
		t.Errorf("the same build warned: %q", warned)
	}
	path := templatesFoldPath(dir, 2)
	var rec templatesFoldRecord
	if !readKept(path, &rec) || rec.Version == "" {
		t.Fatalf("fold 2 kept without its build: %+v", rec)
	}
	rec.Version = "v0.0.0-older"
	if err := writeKept(path, rec); err != nil {
		t.Fatal(err)
	}
	again, warned := run()
	if len(warned) != 1 || !strings.Contains(warned[0], "v0.0.0-older") || !strings.Contains(warned[0], "fold 2") {
		t.Errorf("warnings %q, want one naming fold 2's build", warned)
	}
	if again.Folds[1].Accuracy != first.Folds[1].Accuracy || again.Folds[1].Seconds != first.Folds[1].Seconds {
		t.Errorf("fold 2 was not reused: %+v, first %+v", again.Folds[1], first.Folds[1])
	}
}

// A pseudo-label scores only where the graph has one and its hidden label is known.
func TestPseudoAccuracy(t *testing.T) {
	u := semisup.Unlabeled
	pseudo := []int{u, 1, 0, 1, u, 2}
	labels := []int{0, 1, 1, u, 2, 2}
	if got := pseudoAccuracy(pseudo, labels); got != 2.0/3 {
		t.Errorf("%v, want 2/3 (graphs 1 and 5 right, 2 wrong, 3 unknown)", got)
	}
	if got := pseudoAccuracy([]int{u, u}, []int{0, 1}); got != 0 {
		t.Errorf("no pseudo-label: %v, want 0", got)
	}
}

// A Dir that does not exist yet is made before the first fold trains (it once failed only
// when that fold, trained in full, was to be kept), and keeps every fold; a path that
// cannot be a folder fails at once.
func TestCrossValidateTemplatesMakesDir(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	dir := filepath.Join(t.TempDir(), "not", "yet")
	opt := TemplatesOptions{Folds: 2, Seed: 1, Workers: 2, Dir: dir}
	if _, err := CrossValidateTemplates(context.Background(), ds, labels, 2, smallTemplates(), opt); err != nil {
		t.Fatal(err)
	}
	for f := 1; f <= 2; f++ {
		if _, err := os.Stat(templatesFoldPath(dir, f)); err != nil {
			t.Errorf("fold %d not kept: %v", f, err)
		}
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	opt.Dir = filepath.Join(file, "dir")
	start := time.Now()
	if _, err := CrossValidateTemplates(context.Background(), ds, labels, 2, smallTemplates(), opt); err == nil {
		t.Error("a Dir under a file: no error")
	} else if time.Since(start) > 100*time.Millisecond {
		t.Errorf("a Dir under a file failed after %v, not before training", time.Since(start))
	}
}

// After each fold it trains, the line Observe gets says how many folds are left to train (not
// counting those kept in Dir) and their ETA.
func TestCrossValidateTemplatesSaysFoldsLeft(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	dir := t.TempDir()
	run := func() []string {
		var said []string
		opt := TemplatesOptions{Folds: 2, Seed: 1, Workers: 2, Dir: dir, Observe: func(e training.Event) {
			if strings.HasPrefix(e.Message, "fold ") {
				said = append(said, e.Message)
			}
		}}
		if _, err := CrossValidateTemplates(context.Background(), ds, labels, 2, smallTemplates(), opt); err != nil {
			t.Fatal(err)
		}
		return said
	}
	said := run()
	want := []*regexp.Regexp{
		regexp.MustCompile(`^fold 1 of 2: .*; folds left: 1, eta \d+(\.\d+)?m?s\)$`),
		regexp.MustCompile(`^fold 2 of 2: .*; folds left: 0, eta 0s\)$`),
	}
	if len(said) != 2 || !want[0].MatchString(said[0]) || !want[1].MatchString(said[1]) {
		t.Fatalf("lines %q", said)
	}
	if err := os.Remove(templatesFoldPath(dir, 1)); err != nil {
		t.Fatal(err)
	}
	said = run() // fold 1 trains again, fold 2 is kept: none left after fold 1
	if len(said) != 2 || !want[1].MatchString(strings.Replace(said[0], "fold 1 of 2", "fold 2 of 2", 1)) || !strings.Contains(said[1], "kept in") {
		t.Errorf("lines with fold 2 kept: %q", said)
	}
}

// Each fold records its members' validation accuracy (the mean over them of the epoch each
// keeps), and none without a validation split.
func TestCrossValidateTemplatesRecordsValidation(t *testing.T) {
	ds, labels := cyclesAndPaths(t, 6)
	for _, validation := range []float64{0.25, 0} {
		cfg := smallTemplates()
		cfg.Members, cfg.Validation = 2, validation
		rep, err := CrossValidateTemplates(context.Background(), ds, labels, 2, cfg, TemplatesOptions{Folds: 2, Seed: 1, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Folds {
			v := f.ValidationAccuracy
			if (v != nil) != (validation > 0) || (v != nil && !(*v >= 0 && *v <= 1)) {
				t.Errorf("validation %v, fold %d: validation accuracy %v", validation, f.Fold, v)
			}
		}
	}
}
