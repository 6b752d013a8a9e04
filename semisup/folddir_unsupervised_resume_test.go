package semisup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/training"
)

// TestCrossValidateDirResumesUnsupervised: a run killed while the model without labels trains
// keeps it after its last finished epoch (unsupervised.json with those epochs, and the model
// in unsupervised.checkpoint); run again, it resumes there instead of training from the start,
// and ends with the files and results of one uninterrupted run, the checkpoint removed. A
// checkpoint that does not continue the saved epochs is not resumed: the model trains again.
func TestCrossValidateDirResumesUnsupervised(t *testing.T) {
	for _, enc := range []string{EncoderNone, EncoderGIN} {
		t.Run(enc, func(t *testing.T) { testResumesUnsupervised(t, enc) })
	}
}

func testResumesUnsupervised(t *testing.T, enc string) {
	data, labels := twoStructures(t, 24, 11)
	gwf := smallGWF()
	gwf.Epochs = 3
	cfg := Config{Beta: 0.1, Hidden: []int{4}, Activation: ReLU, Input: InputCentered, Encoder: enc}
	opt := CVOptions{Folds: 3, Seed: 1, Baselines: true, LogRegGrid: []float64{0.1, 10}}
	opt.Skip = func(f int) bool { return f != 2 }
	run := func(dir string, ctx context.Context, log func(bool, string), progress func(training.Progress)) ([]FoldResult, error) {
		o := opt
		o.Dir, o.Log, o.Progress = dir, log, progress
		return CrossValidate(ctx, data, labels, 2, gwf, cfg, o)
	}
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
	if _, err := os.Stat(unsupervisedCheckpointPath(dir)); err != nil || len(rec.Z) != 1 {
		t.Fatalf("killed run left %d epochs and checkpoint %v; want 1 epoch and its checkpoint", len(rec.Z), err)
	}
	checkpoint, err := os.ReadFile(unsupervisedCheckpointPath(dir))
	if err != nil {
		t.Fatal(err)
	}

	resume := func(name, wantLog string) {
		t.Helper()
		var logged []string
		got, err := run(dir, context.Background(), func(_ bool, msg string) { logged = append(logged, msg) }, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.ContainsFunc(logged, func(m string) bool { return strings.HasPrefix(m, wantLog) }) {
			t.Errorf("%s: log %q, want %q", name, logged, wantLog)
		}
		if len(got) != 1 || withoutSeconds(t, got[0]) != withoutSeconds(t, want[0]) {
			t.Errorf("%s: fold 2 differs from one uninterrupted run", name)
		}
		if b, err := os.ReadFile(unsupervisedPath(dir)); err != nil || !bytes.Equal(b, wantFile) {
			t.Errorf("%s: unsupervised.json differs from one uninterrupted run's (%v)", name, err)
		}
		if _, err := os.Stat(unsupervisedCheckpointPath(dir)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the checkpoint is still there (%v)", name, err)
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
	for _, c := range []struct{ name, record, checkpoint []byte }{
		{[]byte("damaged checkpoint"), partial, checkpoint[:len(checkpoint)/2]},
		{[]byte("other embeddings"), moved, checkpoint},
	} {
		os.Remove(foldPath(dir, 2))
		if err := os.WriteFile(unsupervisedPath(dir), c.record, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(unsupervisedCheckpointPath(dir), c.checkpoint, 0o644); err != nil {
			t.Fatal(err)
		}
		resume(string(c.name), trainingUnsupervised)
	}
}
