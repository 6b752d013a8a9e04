package fgwsvm

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/layers/observe"
)

// TestCrossValidateKeepsFolds: with Options.Dir each scored fold is kept, a run stopped after
// its second fold resumes from the third (the kept folds are not scored again) and ends with
// the results of a run never stopped; another fold seed finds none of them.
func TestCrossValidateKeepsFolds(t *testing.T) {
	data, labels := threeClasses(t, 6, true)
	cands, err := DefaultCandidates(data)
	if err != nil {
		t.Fatal(err)
	}
	s := Settings{Candidates: cands[:4], Grid: smallGrid()}
	plain, _, err := CrossValidate(context.Background(), data, labels, 3, 3, 1, s, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	ctx, stop := context.WithCancel(context.Background())
	done := 0
	_, _, err = CrossValidate(ctx, data, labels, 3, 3, 1, s, Options{Dir: dir}, func(FoldResult) {
		if done++; done == 2 {
			stop()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped after two folds: %v, want context.Canceled", err)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, "svm-fold*.json"))
	if len(kept) != 2 {
		t.Fatalf("%d folds kept after two, want 2: %v", len(kept), kept)
	}
	var logged []string
	resumed, _, err := CrossValidate(context.Background(), data, labels, 3, 3, 1, s, Options{Dir: dir, Observe: sayings(&logged)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := countContaining(logged, "kept in"); n != 2 {
		t.Errorf("the resumed run took %d kept folds, want 2: %q", n, logged)
	}
	for f := range plain {
		a, _ := json.Marshal(withoutSeconds(plain[f]))
		b, _ := json.Marshal(withoutSeconds(resumed[f]))
		if string(a) != string(b) {
			t.Errorf("fold %d resumed %s, never stopped %s", f+1, b, a)
		}
	}

	before, _ := filepath.Glob(filepath.Join(dir, "svm-fold*.json"))
	logged = nil
	if _, _, err := CrossValidate(context.Background(), data, labels, 3, 3, 2, s, Options{Dir: dir, Observe: sayings(&logged)}, nil); err != nil {
		t.Fatal(err)
	}
	after, _ := filepath.Glob(filepath.Join(dir, "svm-fold*.json"))
	if n := countContaining(logged, "kept in"); n != 0 || len(after) != len(before)+3 {
		t.Errorf("fold seed 2: %d kept folds taken, %d files before and %d after", n, len(before), len(after))
	}

	// A damaged kept fold is scored again, not trusted.
	if err := os.WriteFile(kept[0], []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	again, _, err := CrossValidate(context.Background(), data, labels, 3, 3, 1, s, Options{Dir: dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(withoutSeconds(plain[0]))
	b, _ := json.Marshal(withoutSeconds(again[0]))
	if string(a) != string(b) {
		t.Errorf("after a damaged kept fold: %s, want %s", b, a)
	}
}

func withoutSeconds(r FoldResult) FoldResult { r.Seconds = 0; return r }

// sayings is an observer that appends every message to logged.
func sayings(logged *[]string) observe.Observer {
	return func(e observe.Event) {
		if e.Message != "" {
			*logged = append(*logged, e.Message)
		}
	}
}

// countContaining is how many of lines contain s.
func countContaining(lines []string, s string) int {
	n := 0
	for _, l := range lines {
		if strings.Contains(l, s) {
			n++
		}
	}
	return n
}
