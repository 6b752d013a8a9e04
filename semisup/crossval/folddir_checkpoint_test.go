package crossval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
	"github.com/gwf-graphs/gwf/training"
)

// cvRun runs a cross-validation in dir, logging to log and reporting progress to progress.
type cvRun func(dir string, ctx context.Context, log func(bool, string), progress func(training.Progress)) ([]FoldResult, error)

// fold2 is the cross-validation of the checkpoint tests: fold 2 only of three, 24 graphs, 3
// epochs, encoder enc (at its own learning rate), with opt's protocol; cfg is its (first)
// configuration.
func fold2(t *testing.T, enc semisup.EncoderKind, opt CVOptions) (semisup.Config, cvRun) {
	data, labels := semisuptest.TwoStructures(t, 24, 11)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 3
	cfg := semisup.Config{Beta: 0.1, Hidden: []int{4}, Activation: semisup.ReLU, Input: semisup.InputCentered, Encoder: enc}
	if enc != semisup.EncoderNone {
		// an encoder rate of its own, as --select-encoder-lr gives: a resume must keep it
		cfg.EncoderLearningRate = gwf.LearningRate / 5
	}
	opt.Folds, opt.Seed = 3, 1
	opt.Skip = func(f int) bool { return f != 2 }
	return cfg, func(dir string, ctx context.Context, log func(bool, string), progress func(training.Progress)) ([]FoldResult, error) {
		o := opt
		o.Dir, o.Observe = dir, observer(log, progress)
		return CrossValidate(ctx, data, labels, 2, gwf, cfg, o)
	}
}

// checkResumed runs again in dir and checks that the log says wantLog, that fold 2 is the
// uninterrupted run's want, and that the files gone are.
func checkResumed(t *testing.T, name string, run cvRun, dir string, want []FoldResult, wantLog string, gone ...string) {
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
		t.Errorf("%s: fold 2 differs from one uninterrupted run", name)
	}
	for _, p := range gone {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %s is still there (%v)", name, p, err)
		}
	}
}

// TestCrossValidateDirResumesFold: a run killed in the middle of a fold keeps the fold's
// selection as it stood after its last epoch (fold<f>.checkpoint.json and the two models it
// names); run again, it resumes there and ends with the fold of one uninterrupted run, the
// checkpoint removed. Killed in the second candidate and in the refit, with free embeddings
// and with an encoder. A checkpoint that cannot be resumed (a damaged model, another fold's
// record) is said in the log and the fold trains from the start, with the same result.
func TestCrossValidateDirResumesFold(t *testing.T) {
	for _, enc := range []semisup.EncoderKind{semisup.EncoderNone, semisup.EncoderGIN} {
		for _, c := range []struct {
			name string
			at   int // the epoch start (counting every candidate's, then the refit's) that kills
			log  string
		}{
			{"second candidate", 5, "(candidate 2 after epoch 1)"},
			{"refit", 7, "(every candidate trained)"},
		} {
			t.Run(string(enc)+"/"+c.name, func(t *testing.T) { testResumesFold(t, enc, c.at, c.log) })
		}
	}
}

func testResumesFold(t *testing.T, enc semisup.EncoderKind, at int, where string) {
	sel := &Selection{Refit: true, Seed: 1}
	a, run := fold2(t, enc, CVOptions{Select: sel})
	b := a
	b.Beta = 0.5
	sel.Candidates = []semisup.Config{a, b}
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
	files := []string{foldCheckpointPath(dir, 2), foldModelPath(dir, 2, "model"), foldModelPath(dir, 2, "best")}
	saved := map[string][]byte{}
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			saved[p] = b
		}
	}
	if len(saved) < 2 {
		t.Fatalf("the killed run left %d checkpoint files, want the record and its models", len(saved))
	}
	checkResumed(t, "resumed", run, dir, want, "fold 2: resuming "+foldCheckpointPath(dir, 2)+" "+where, files...)

	for _, c := range []struct {
		name, log, file string
		damage          func([]byte) []byte
	}{
		{"damaged best model", "fold 2: not resuming the checkpoint", foldModelPath(dir, 2, "best"),
			func(b []byte) []byte { return b[:len(b)-10] }},
		{"another fold's record", "other data or settings", foldCheckpointPath(dir, 2),
			func(b []byte) []byte { return bytes.Replace(b, []byte(`"fold":2`), []byte(`"fold":3`), 1) }},
		{"a chosen epoch past the last", "does not fit the run's 2 candidates, 3 epochs", foldCheckpointPath(dir, 2),
			func(b []byte) []byte {
				return regexp.MustCompile(`"epoch":\d+,"validation_graphs"`).ReplaceAll(b, []byte(`"epoch":1000000000,"validation_graphs"`))
			}},
	} {
		os.Remove(foldPath(dir, 2))
		for p, b := range saved {
			if p == c.file {
				b = c.damage(b)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		checkResumed(t, c.name, run, dir, want, c.log, files...)
	}
}

// TestCrossValidateDirResumesUnsupervised: a run killed while the model without labels trains
// keeps it after its last finished epoch (unsupervised.json with those epochs, and the model
// in unsupervised.checkpoint); run again, it resumes there instead of training from the start,
// and ends with the files and results of one uninterrupted run, the checkpoint removed. A
// checkpoint that does not continue the saved epochs is not resumed: the model trains again.
func TestCrossValidateDirResumesUnsupervised(t *testing.T) {
	for _, enc := range []semisup.EncoderKind{semisup.EncoderNone, semisup.EncoderGIN} {
		t.Run(string(enc), func(t *testing.T) { testResumesUnsupervised(t, enc) })
	}
}

func testResumesUnsupervised(t *testing.T, enc semisup.EncoderKind) {
	_, run := fold2(t, enc, CVOptions{Baselines: true, LogRegGrid: []float64{0.1, 10}})
	whole := t.TempDir()
	want, err := run(whole, context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantFile, err := os.ReadFile(unsupervisedPath(whole))
	if err != nil {
		t.Fatal(err)
	}

	// Killed in the second epoch of the model without labels.
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	unsupervised := false
	_, err = run(dir, ctx, func(_ bool, msg string) { unsupervised = unsupervised || msg == trainingUnsupervised },
		func(p training.Progress) {
			if unsupervised && p.Epoch == 2 {
				cancel()
			}
		})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("killed run: %v, want context.Canceled", err)
	}
	partial, err := os.ReadFile(unsupervisedPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	var rec unsupervisedRecord
	if err := json.Unmarshal(partial, &rec); err != nil {
		t.Fatal(err)
	}
	checkpoint, err := os.ReadFile(unsupervisedCheckpointPath(dir))
	if err != nil || len(rec.Z) != 1 {
		t.Fatalf("killed run left %d epochs and checkpoint %v; want 1 epoch and its checkpoint", len(rec.Z), err)
	}
	resume := func(name, wantLog string) {
		t.Helper()
		checkResumed(t, name, run, dir, want, wantLog, unsupervisedCheckpointPath(dir))
		if b, err := os.ReadFile(unsupervisedPath(dir)); err != nil || !bytes.Equal(b, wantFile) {
			t.Errorf("%s: unsupervised.json differs from one uninterrupted run's (%v)", name, err)
		}
	}
	resume("resumed", "resuming the model trained without labels")

	// The same kill with a damaged checkpoint, or one that does not continue the saved epochs
	// (their embeddings changed): trained again from the start.
	rec.Z[0] = bytes.Clone(rec.Z[0])
	rec.Z[0][len(rec.Z[0])-1] ^= 1
	rec.SHA256 = checksum(rec.Z)
	moved, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name               string
		record, checkpoint []byte
	}{
		{"damaged checkpoint", partial, checkpoint[:len(checkpoint)/2]},
		{"other embeddings", moved, checkpoint},
	} {
		os.Remove(foldPath(dir, 2))
		if err := os.WriteFile(unsupervisedPath(dir), c.record, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(unsupervisedCheckpointPath(dir), c.checkpoint, 0o644); err != nil {
			t.Fatal(err)
		}
		resume(c.name, trainingUnsupervised)
	}
}
