package crossval

import (
	"context"
	"regexp"
	"testing"

	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
	"github.com/gwf-graphs/gwf/training"
)

// TestFoldLinesObserved: every fold trained reaches Observe as its lines, the first with the
// folds left (of those not skipped) and an ETA, before FoldDone.
func TestFoldLinesObserved(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 18, 5)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 1
	cfg := semisup.Config{Beta: 0.1, Hidden: []int{4}, Activation: semisup.ReLU, Input: semisup.InputCentered, Head: semisup.HeadTraining{Steps: 5, LearningRate: 0.05}}
	var lines []string
	opt := CVOptions{Folds: 3, Seed: 1, Skip: func(f int) bool { return f == 2 }}
	opt.Observe = func(e training.Event) {
		if e.Message != "" {
			lines = append(lines, e.Message)
		}
	}
	var done []int
	opt.FoldDone = func(r FoldResult) { done = append(done, len(lines)) }
	if _, err := CrossValidate(context.Background(), data, labels, 2, gwf, cfg, opt); err != nil {
		t.Fatal(err)
	}
	want := []*regexp.Regexp{
		regexp.MustCompile(`^fold 1/3: accuracy .*; folds left: 1, eta \d`),
		regexp.MustCompile(`^fold 3/3: accuracy .*; folds left: 0, eta 0s$`),
	}
	if len(lines) != 2 || len(done) != 2 || done[0] != 1 || done[1] != 2 {
		t.Fatalf("lines %q, FoldDone after %v lines; want one line per fold, each before FoldDone", lines, done)
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d: %q, want %v", i+1, lines[i], re)
		}
	}
}
