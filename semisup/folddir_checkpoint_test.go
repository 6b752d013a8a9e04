package semisup

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/training"
)

// TestCrossValidateDirResumesFold: a run killed in the middle of a fold keeps the fold's
// selection as it stood after its last epoch (fold<f>.checkpoint.json and the two models it
// names); run again, it resumes there and ends with the fold of one uninterrupted run, the
// checkpoint removed. Killed in the second candidate and in the refit, with free embeddings
// and with an encoder. A checkpoint that cannot be resumed (a damaged model, other settings)
// is said in the log and the fold trains from the start, with the same result.
func TestCrossValidateDirResumesFold(t *testing.T) {
	for _, enc := range []string{EncoderNone, EncoderGIN} {
		for _, c := range []struct {
			name string
			at   int // the epoch start (counting every candidate's, then the refit's) that kills
			log  string
		}{
			{"second candidate", 5, "(candidate 2 after epoch 1)"},
			{"refit", 7, "(every candidate trained)"},
		} {
			t.Run(enc+"/"+c.name, func(t *testing.T) { testResumesFold(t, enc, c.at, c.log) })
		}
	}
}

func testResumesFold(t *testing.T, enc string, at int, where string) {
	data, labels := twoStructures(t, 24, 11)
	gwf := smallGWF()
	gwf.Epochs = 3
	a := Config{Beta: 0.1, Hidden: []int{4}, Activation: ReLU, Input: InputCentered, Encoder: enc}
	b := a
	b.Beta = 0.5
	sel := &Selection{Candidates: []Config{a, b}, Refit: true, Seed: 1}
	run := func(dir string, ctx context.Context, log func(bool, string), progress func(training.Progress)) ([]FoldResult, error) {
		o := CVOptions{Folds: 3, Seed: 1, Select: sel, Dir: dir, Log: log}
		o.Skip = func(f int) bool { return f != 2 }
		o.Progress = progress
		return CrossValidate(ctx, data, labels, 2, gwf, a, o)
	}
	want, err := run(t.TempDir(), context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	starts, last := 0, 0
	_, err = run(dir, ctx, nil, func(p training.Progress) {
		if p.Epoch != last {
			if last, starts = p.Epoch, starts+1; starts == at {
				cancel()
			}
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("killed run: %v, want context.Canceled", err)
	}
	saved := map[string][]byte{}
	for _, p := range []string{foldCheckpointPath(dir, 2), foldModelPath(dir, 2, "model"), foldModelPath(dir, 2, "best")} {
		if b, err := os.ReadFile(p); err == nil {
			saved[p] = b
		}
	}
	if len(saved) < 2 {
		t.Fatalf("the killed run left %d checkpoint files, want the record and its models", len(saved))
	}

	resume := func(name, wantLog string) {
		t.Helper()
		var logged []string
		got, err := run(dir, context.Background(), func(_ bool, msg string) { logged = append(logged, msg) }, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.ContainsFunc(logged, func(m string) bool { return strings.Contains(m, wantLog) }) {
			t.Errorf("%s: log %q, want %q", name, logged, wantLog)
		}
		if len(got) != 1 || withoutSeconds(t, got[0]) != withoutSeconds(t, want[0]) {
			t.Errorf("%s: fold 2 differs from one uninterrupted run:\n%s\nwant\n%s", name, withoutSeconds(t, got[0]), withoutSeconds(t, want[0]))
		}
		for p := range saved {
			if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s: %s is still there (%v)", name, p, err)
			}
		}
	}
	restore := func(damage func(p string, b []byte) []byte) {
		t.Helper()
		os.Remove(foldPath(dir, 2))
		for p, b := range saved {
			if err := os.WriteFile(p, damage(p, b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	resume("resumed", "fold 2: resuming "+foldCheckpointPath(dir, 2)+" "+where)

	restore(func(p string, b []byte) []byte {
		if p == foldModelPath(dir, 2, "best") {
			return b[:len(b)-10]
		}
		return b
	})
	resume("damaged best model", "fold 2: not resuming the checkpoint")

	restore(func(p string, b []byte) []byte {
		if p == foldCheckpointPath(dir, 2) {
			return []byte(strings.Replace(string(b), `"fold":2`, `"fold":3`, 1))
		}
		return b
	})
	resume("another fold's record", "other data or settings")
}
