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

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
	"github.com/gwf-graphs/gwf/training"
)

// withoutSeconds is a fold's result as JSON, its wall time left out (the one field that
// differs between two computations of the same fold).
func withoutSeconds(t *testing.T, r FoldResult) string {
	t.Helper()
	r.Seconds = 0
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dirFixture is the small cross-validation (with baselines) of the fold-directory tests, and
// its folds as one run without a directory computes them.
func dirFixture(t *testing.T) ([]*graphs.Graph, []int, training.Config, semisup.Config, CVOptions, []FoldResult) {
	t.Helper()
	data, labels := semisuptest.TwoStructures(t, 30, 11)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 2
	cfg := semisup.Config{Beta: 0.1, Hidden: []int{4}, Activation: semisup.ReLU, Input: semisup.InputCentered, Head: semisup.HeadTraining{Steps: 30, LearningRate: 0.05}}
	opt := CVOptions{Folds: 3, Seed: 1, Baselines: true, LogRegGrid: []float64{0.1, 10}}
	whole, err := CrossValidate(context.Background(), data, labels, 2, gwf, cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	return data, labels, gwf, cfg, opt, whole
}

// TestCrossValidateDirResumes: a nested cross-validation with a fold directory saves every
// fold; run again after a kill it reuses the folds it finished and trains the others, with the
// results of one uninterrupted run; other settings, other labels and damaged files are not
// reused.
func TestCrossValidateDirResumes(t *testing.T) {
	data, labels, gwf, cfg, opt, whole := dirFixture(t)

	dir := t.TempDir() + "/folds"
	var logged []string
	opt.Dir = dir
	opt.Observe = observer(savedLog(&logged), nil)
	// A kill after fold 2: the context is cancelled when fold 2 is done.
	ctx, cancel := context.WithCancel(context.Background())
	killed := opt
	killed.FoldDone = func(r FoldResult) {
		if r.Fold == 2 {
			cancel()
		}
	}
	if _, err := CrossValidate(ctx, data, labels, 2, gwf, cfg, killed); err == nil {
		t.Fatal("cancelled after fold 2: no error")
	}
	if _, err := os.Stat(foldPath(dir, 3)); err == nil {
		t.Fatal("fold 3 saved although the run was killed before it")
	}
	// Mark fold 1's file, so that a reuse can be told from a retraining.
	rec := readFoldRecord(t, dir, 1)
	rec.Result.Seconds = 12345
	if err := saveFold(dir, rec, rec.Result); err != nil {
		t.Fatal(err)
	}
	var ran []int
	opt.FoldDone = func(r FoldResult) { ran = append(ran, r.Fold) }
	res, err := CrossValidate(context.Background(), data, labels, 2, gwf, cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || len(ran) != 1 || ran[0] != 3 || res[0].Seconds != 12345 {
		t.Fatalf("resumed: folds trained %v, results %+v; want fold 3 trained and folds 1, 2 reused", ran, res)
	}
	for i := range whole {
		if got, want := withoutSeconds(t, res[i]), withoutSeconds(t, whole[i]); got != want {
			t.Errorf("fold %d resumed:\n%s\nwant (one run):\n%s", i+1, got, want)
		}
	}
	if len(logged) != 3 || !strings.Contains(logged[0], "fold 1: reusing") || !strings.HasPrefix(logged[2], "reusing the model trained without labels") {
		t.Errorf("log %q, want two folds and the unsupervised model reused", logged)
	}

	// Other settings, other labels: nothing reused, and the log says why.
	other := cfg
	other.Beta = 1
	for name, run := range map[string]func() error{
		"β = 1": func() error {
			_, err := CrossValidate(context.Background(), data, labels, 2, gwf, other, opt)
			return err
		},
		"other labels": func() error {
			swapped := append([]int(nil), labels...)
			swapped[0], swapped[len(swapped)-1] = swapped[len(swapped)-1], swapped[0]
			_, err := CrossValidate(context.Background(), data, swapped, 2, gwf, cfg, opt)
			return err
		},
	} {
		logged, ran = nil, nil
		// Restore the saved folds of cfg first (the run before replaced them).
		restore(t, dir, rec, res)
		if err := run(); err != nil {
			t.Fatal(err)
		}
		// The unsupervised model depends on neither β nor the labels: it is reused.
		if len(ran) != 3 || len(logged) != 4 || !strings.Contains(logged[0], "other data or settings") || !strings.HasPrefix(logged[3], "reusing the model trained without labels") {
			t.Errorf("%s: folds trained %v, log %q; want all three trained, no fold reused, the unsupervised model reused", name, ran, logged)
		}
	}

	// A damaged file is trained again, not trusted.
	restore(t, dir, rec, res)
	damage := map[string]func(*foldRecord){
		"fold number":   func(r *foldRecord) { r.Result.Fold = 3 },
		"graphs":        func(r *foldRecord) { r.Result.Graphs[0]++ },
		"accuracy":      func(r *foldRecord) { r.Result.Accuracy = 1.5 },
		"class counts":  func(r *foldRecord) { r.Result.Predicted = r.Result.Predicted[:1] },
		"one baseline":  func(r *foldRecord) { r.Result.LogReg = nil },
		"test graphs":   func(r *foldRecord) { r.Result.Test-- },
		"negative time": func(r *foldRecord) { r.Result.Seconds = -1 },
	}
	for name, spoil := range damage {
		bad := readFoldRecord(t, dir, 2)
		spoil(&bad)
		b, _ := json.Marshal(bad)
		if err := os.WriteFile(foldPath(dir, 2), b, 0o644); err != nil {
			t.Fatal(err)
		}
		logged, ran = nil, nil
		if _, err := CrossValidate(context.Background(), data, labels, 2, gwf, cfg, opt); err != nil {
			t.Fatal(err)
		}
		if len(ran) != 1 || ran[0] != 2 || len(logged) != 4 || !strings.Contains(logged[1], "not reusing") {
			t.Errorf("damaged %s: folds trained %v, log %q; want fold 2 trained again", name, ran, logged)
		}
	}
	if err := os.WriteFile(foldPath(dir, 2), []byte(`{"data": "tr`), 0o644); err != nil {
		t.Fatal(err)
	}
	logged, ran = nil, nil
	if _, err := CrossValidate(context.Background(), data, labels, 2, gwf, cfg, opt); err != nil {
		t.Fatal(err)
	}
	if len(ran) != 1 || ran[0] != 2 {
		t.Errorf("truncated file: folds trained %v, want fold 2", ran)
	}
}

// savedLog is a CVOptions.Log that keeps the messages about what was found saved (reused or
// not, and why) and leaves out those that say what starts training.
// observer passes the messages to log and the training steps to progress (either may be nil).
func observer(log func(warning bool, msg string), progress func(training.Progress)) training.Observer {
	return func(e training.Event) {
		switch {
		case e.Step != nil && progress != nil:
			progress(*e.Step)
		case e.Message != "" && log != nil:
			log(e.Warning, e.Message)
		}
	}
}

// foldLine matches the lines of a fold trained (FoldLines): "fold 2/3: ...".
var foldLine = regexp.MustCompile(`^fold \d+/\d+: `)

func savedLog(logged *[]string) func(bool, string) {
	return func(_ bool, msg string) {
		if !strings.Contains(msg, ": training ") && !strings.HasPrefix(msg, "training ") && !foldLine.MatchString(msg) {
			*logged = append(*logged, msg)
		}
	}
}

func readFoldRecord(t *testing.T, dir string, f int) foldRecord {
	t.Helper()
	b, err := os.ReadFile(foldPath(dir, f))
	if err != nil {
		t.Fatal(err)
	}
	var rec foldRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

// restore saves the folds res with the settings of rec.
func restore(t *testing.T, dir string, rec foldRecord, res []FoldResult) {
	t.Helper()
	for _, r := range res {
		if err := saveFold(dir, rec, r); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFoldRecordEncoderEmbeddings: an encoder's folds saved before every epoch's embeddings were
// its end-of-epoch forward pass are not reused; free z's are.
func TestFoldRecordEncoderEmbeddings(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 10, 3)
	gwf := semisuptest.SmallGWF()
	for _, c := range []struct {
		encoder semisup.EncoderKind
		marked  bool
	}{{semisup.EncoderNone, false}, {semisup.EncoderGIN, true}, {semisup.EncoderGCN, true}} {
		cfg := semisup.Config{Beta: 0.1, Activation: semisup.ReLU, Input: semisup.InputCentered, Encoder: c.encoder}
		want := newFoldRecord(data, labels, 2, gwf, cfg, CVOptions{Folds: 2, Seed: 1, Select: &Selection{Candidates: []semisup.Config{cfg}}})
		if want.EpochEndEmbeddings != c.marked {
			t.Errorf("%s: marked %v, want %v", c.encoder, want.EpochEndEmbeddings, c.marked)
		}
		old := want
		old.EpochEndEmbeddings = false
		if kind, err := old.matches(want); err != nil || (kind == savedWhole) == c.marked {
			t.Errorf("%s: a fold saved before the marker: %v, %v", c.encoder, kind, err)
		}
	}
}

// TestCrossValidateDirKeepsUnsupervised: the model trained without labels is saved in the fold
// directory when it is trained and reused by a run that needs it again (a killed run resumed,
// new folds): the results are those of one run. A damaged file, or one of other settings, is
// trained again and replaced; the log says why.
func TestCrossValidateDirKeepsUnsupervised(t *testing.T) {
	data, labels, gwf, cfg, opt, whole := dirFixture(t)
	dir := t.TempDir() + "/folds"
	opt.Dir = dir
	var logged, all []string
	keep := savedLog(&logged)
	opt.Observe = observer(func(w bool, msg string) { all = append(all, msg); keep(w, msg) }, nil)
	// Only fold 3 is kept from each run, so that every run trains it and needs the model.
	run := func() FoldResult {
		t.Helper()
		logged, all = nil, nil
		for f := 1; f <= 3; f++ {
			os.Remove(foldPath(dir, f))
		}
		one := opt
		one.Skip = func(f int) bool { return f != 3 }
		res, err := CrossValidate(context.Background(), data, labels, 2, gwf, cfg, one)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 1 {
			t.Fatalf("%d folds, want fold 3", len(res))
		}
		return res[0]
	}
	reused := func() bool {
		return len(logged) > 0 && strings.HasPrefix(logged[len(logged)-1], "reusing the model trained without labels")
	}
	check := func(name string, r FoldResult) {
		t.Helper()
		if got, want := withoutSeconds(t, r), withoutSeconds(t, whole[2]); got != want {
			t.Errorf("%s: fold 3\n%s\nwant (one run):\n%s", name, got, want)
		}
	}
	check("first run", run())
	if reused() || len(logged) != 0 {
		t.Fatalf("first run: log %q, want nothing reused", logged)
	}
	if !slices.Contains(all, trainingUnsupervised) || !strings.HasPrefix(all[0], "fold 3/3: training 1 candidate(s) on 30 graphs") {
		t.Errorf("first run: log %q, want what trains said", all)
	}
	saved, err := os.ReadFile(unsupervisedPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	check("run again", run())
	if !reused() || slices.Contains(all, trainingUnsupervised) {
		t.Fatalf("run again: log %q, want the unsupervised model reused, not trained", all)
	}

	// Damage: a flipped embedding byte, a truncated file, other settings, a wrong epoch count.
	var rec unsupervisedRecord
	if err := json.Unmarshal(saved, &rec); err != nil {
		t.Fatal(err)
	}
	reseal := func(r unsupervisedRecord) []byte {
		r.SHA256 = checksum(r.Z)
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	flipped := rec
	flipped.Z = [][]byte{append([]byte(nil), rec.Z[0]...), rec.Z[1]}
	flipped.Z[0][len(flipped.Z[0])-1] ^= 1
	flipped.SHA256 = rec.SHA256
	flippedBytes, _ := json.Marshal(flipped)
	otherSeed := rec
	otherSeed.GWF.Seed++
	oneEpoch := rec
	oneEpoch.Z = rec.Z[:1]
	nan := rec
	nan.Z = [][]byte{append([]byte(nil), rec.Z[0]...), rec.Z[1]}
	copy(nan.Z[0][len(nan.Z[0])-8:], []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f})
	short := rec
	short.Z = [][]byte{rec.Z[0][:len(rec.Z[0])-8], rec.Z[1]}
	for _, c := range []struct {
		name, reason string
		file         []byte
	}{
		{"flipped byte", "checksum", flippedBytes},
		{"truncated", "unexpected end", saved[:len(saved)/2]},
		{"other seed", "other data or settings", reseal(otherSeed)},
		{"one epoch, no checkpoint", "holds 1 of 2 epochs and there is no", reseal(oneEpoch)},
		{"NaN", "non-finite", reseal(nan)},
		{"short matrix", "epoch 1", reseal(short)},
	} {
		if err := os.WriteFile(unsupervisedPath(dir), c.file, 0o644); err != nil {
			t.Fatal(err)
		}
		check(c.name, run())
		if reused() || len(logged) != 1 || !strings.Contains(logged[0], "not reusing the model trained without labels") || !strings.Contains(logged[0], c.reason) {
			t.Errorf("%s: log %q, want the model trained again because of %q", c.name, logged, c.reason)
		}
		if b, err := os.ReadFile(unsupervisedPath(dir)); err != nil || !bytes.Equal(b, saved) {
			t.Errorf("%s: the file was not replaced by the model trained again (%v, %d bytes, want %d)", c.name, err, len(b), len(saved))
		}
	}
}

// TestCrossValidateChecksValidationFirst: a fold whose labelled graphs cannot spare a validation
// split is an error before any fold trains, not after the folds before it.
func TestCrossValidateChecksValidationFirst(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 8, 2)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 1
	cfg := semisup.Config{Beta: 0.1, Hidden: []int{4}, Activation: semisup.ReLU, Input: semisup.InputCentered}
	trained := 0
	opt := CVOptions{Folds: 2, Seed: 1, Baselines: true, Options: semisup.Options{Observe: observer(nil, func(training.Progress) { trained++ })}}
	// Fold 1 holds out two graphs (three of each class left, a validation split), fold 2 the
	// other six (one of each class left: none).
	fold := []int{0, 0, 1, 1, 1, 1, 1, 1}
	_, err := nestedCV(context.Background(), data, labels, fold, 2, gwf, cfg, opt, nil)
	if !errors.Is(err, errNoValidation) || !strings.Contains(err.Error(), "fold 2") || trained != 0 {
		t.Fatalf("error %v after %d progress reports; want fold 2's errNoValidation before training", err, trained)
	}
}
