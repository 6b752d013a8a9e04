package crossval

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/internal/jsonread"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
)

// maxFoldRecord bounds what is read of a saved fold: a real one is a few hundred kilobytes at
// most (the held-out predictions and validation curves), so a larger file is not one.
const maxFoldRecord = 64 << 20

// foldRecord is CVOptions.Dir/fold<f>.json: one finished fold with what it was computed from,
// so that the same cross-validation run again (after a kill) reuses the fold instead of
// training it again.
type foldRecord struct {
	Data      string          `json:"data"`   // training.Fingerprint of the graphs
	Labels    string          `json:"labels"` // labelsFingerprint of the class labels
	Classes   int             `json:"classes"`
	Folds     int             `json:"folds"`
	FoldSeed  uint64          `json:"fold_seed"`
	GWF       training.Config `json:"gwf"`
	Semisup   *semisup.Config `json:"semisup,omitempty"`   // the un-nested protocol's settings
	Select    *Selection      `json:"selection,omitempty"` // the nested protocol's candidates
	Baselines bool            `json:"baselines"`
	LogRegC   []float64       `json:"logreg_c,omitempty"`
	// EpochEndEmbeddings marks an encoder's folds computed with every epoch's embeddings made by
	// the weights at the end of that epoch; folds saved before (each graph's embedding from its
	// batch of the epoch) are not reused.
	EpochEndEmbeddings bool       `json:"epoch_end_embeddings,omitempty"`
	Result             FoldResult `json:"result"`
}

func foldPath(dir string, f int) string { return filepath.Join(dir, fmt.Sprintf("fold%d.json", f)) }

// settings is the record without its result: what must match for a saved fold to be reused.
func (rec foldRecord) settings() ([]byte, error) {
	rec.Result = FoldResult{}
	return json.Marshal(rec)
}

// newFoldRecord is the record of the settings of a CrossValidate call (without a result).
func newFoldRecord(data []*graphs.Graph, labels []int, classes int, gwf training.Config, cfg semisup.Config, opt CVOptions) foldRecord {
	rec := foldRecord{Data: training.Fingerprint(data), Labels: labelsFingerprint(labels), Classes: classes,
		Folds: opt.Folds, FoldSeed: opt.Seed, GWF: gwf, Select: opt.Select,
		Baselines: opt.Baselines || opt.Select != nil && opt.Select.Unsupervised}
	if opt.Select == nil {
		c := cfg
		rec.Semisup = &c
	}
	cands := []semisup.Config{cfg}
	if opt.Select != nil {
		cands = opt.Select.Candidates
	}
	for _, c := range cands {
		rec.EpochEndEmbeddings = rec.EpochEndEmbeddings || c.UsesEncoder()
	}
	if rec.Baselines {
		rec.LogRegC = opt.LogRegGrid
		if rec.LogRegC == nil {
			rec.LogRegC = semisup.DefaultCGrid()
		}
	}
	return rec
}

func labelsFingerprint(labels []int) string {
	h := sha256.New()
	var b [8]byte
	for _, l := range labels {
		binary.LittleEndian.PutUint64(b[:], uint64(int64(l)))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// How a saved fold can be used.
type savedKind int

const (
	notSaved   savedKind = iota
	savedWhole           // computed with the same data and settings: reused as it is
	// savedJoint was computed with the same data and settings but without the β = 0 candidate
	// (Selection.Unsupervised): its trained candidates are reused, the β = 0 candidate added.
	savedJoint
)

// savedFold returns fold f (1-based) of dir when it was computed with the settings of want, or
// of want without the β = 0 candidate, and holds the held-out graphs test. A missing file gives
// notSaved and no reason; a file with other settings, or one that cannot be read or is not a
// whole fold, gives a reason (the fold is then trained again and the file replaced).
func savedFold(dir string, f int, want foldRecord, test []int) (r FoldResult, kind savedKind, reason string) {
	p := foldPath(dir, f)
	file, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return FoldResult{}, notSaved, ""
	}
	if err != nil {
		return FoldResult{}, notSaved, err.Error()
	}
	defer file.Close()
	b, err := jsonread.Object(file, maxFoldRecord)
	if errors.Is(err, jsonread.ErrTooLarge) {
		return FoldResult{}, notSaved, fmt.Sprintf("%s: larger than %d MiB, not a saved fold", p, maxFoldRecord>>20)
	}
	if err != nil {
		return FoldResult{}, notSaved, fmt.Sprintf("%s: %v", p, err)
	}
	var got foldRecord
	if err := json.Unmarshal(b, &got); err != nil {
		return FoldResult{}, notSaved, fmt.Sprintf("%s: %v", p, err)
	}
	kind, err = got.matches(want)
	if err != nil {
		return FoldResult{}, notSaved, err.Error()
	}
	if kind == notSaved {
		return FoldResult{}, notSaved, fmt.Sprintf("%s was made with other data or settings", p)
	}
	if err := got.Result.check(f, test, want.Classes); err != nil {
		return FoldResult{}, notSaved, fmt.Sprintf("%s: %v", p, err)
	}
	if kind == savedJoint && got.Result.Choice == nil {
		return FoldResult{}, notSaved, fmt.Sprintf("%s: no choice of the trained candidates", p)
	}
	return got.Result, kind, ""
}

// matches says how a fold saved with the settings of rec serves a run with those of want.
func (rec foldRecord) matches(want foldRecord) (savedKind, error) {
	gs, err1 := rec.settings()
	ws, err2 := want.settings()
	if err := errors.Join(err1, err2); err != nil {
		return notSaved, err
	}
	if bytes.Equal(gs, ws) {
		return savedWhole, nil
	}
	if want.Select == nil || !want.Select.Unsupervised || rec.Select == nil || rec.Select.Unsupervised {
		return notSaved, nil
	}
	// The trained candidates do not depend on the candidate or the baselines (computed again).
	without := *want.Select
	without.Unsupervised = false
	want.Select, want.Baselines, want.LogRegC = &without, rec.Baselines, rec.LogRegC
	if ws, err := want.settings(); err != nil || !bytes.Equal(gs, ws) {
		return notSaved, err
	}
	return savedJoint, nil
}

// check says whether r is a whole result of fold f, whose held-out graphs are test.
func (r FoldResult) check(f int, test []int, classes int) error {
	if r.Fold != f || r.Test != len(test) {
		return fmt.Errorf("holds fold %d of %d graphs, not fold %d of %d", r.Fold, r.Test, f, len(test))
	}
	if r.Graphs != nil && !slices.Equal(r.Graphs, test) {
		return errors.New("its held-out graphs are not this fold's")
	}
	if len(r.Predicted) != classes {
		return fmt.Errorf("%d per-class counts for %d classes", len(r.Predicted), classes)
	}
	for _, a := range []float64{r.Accuracy, r.TrainAccuracy} {
		if !(a >= 0 && a <= 1) {
			return fmt.Errorf("accuracy %v is not in [0, 1]", a)
		}
	}
	if r.Beta0 != nil && r.LogReg == nil || r.Beta0 == nil && r.LogReg != nil {
		return errors.New("one baseline without the other")
	}
	if r.Seconds < 0 || math.IsNaN(r.Seconds) {
		return fmt.Errorf("%v seconds", r.Seconds)
	}
	return nil
}

// saveFold writes fold r's record into dir, atomically: a record on disk is a finished fold.
func saveFold(dir string, rec foldRecord, r FoldResult) error {
	rec.Result = r
	return atomicfile.Write(foldPath(dir, r.Fold), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rec)
	})
}

// crossValidateDir is CrossValidate with opt.Dir: the folds saved there with the same data and
// settings are reused, the others trained and saved as each finishes.
func crossValidateDir(ctx context.Context, data []*graphs.Graph, labels, fold []int, classes int, gwf training.Config, cfg semisup.Config, opt CVOptions) ([]FoldResult, error) {
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("crossval: fold directory: %w", err)
	}
	want := newFoldRecord(data, labels, classes, gwf, cfg, opt)
	var out []FoldResult
	saved, joint := map[int]bool{}, map[int]FoldResult{}
	for f := 1; f <= opt.Folds; f++ {
		if opt.Skip != nil && opt.Skip(f) {
			continue
		}
		r, kind, reason := savedFold(opt.Dir, f, want, heldOut(fold, f-1))
		switch {
		case kind == savedWhole:
			saved[f] = true
			out = append(out, r)
			opt.log(false, fmt.Sprintf("fold %d: reusing %s (accuracy %.2f%%)", f, foldPath(opt.Dir, f), 100*r.Accuracy))
		case kind == savedJoint:
			joint[f] = r
			opt.log(false, fmt.Sprintf("fold %d: reusing the trained candidates of %s (accuracy %.2f%%), adding the β = 0 candidate", f, foldPath(opt.Dir, f), 100*r.Accuracy))
		case reason != "":
			opt.log(true, fmt.Sprintf("fold %d: not reusing the saved fold: %s", f, reason))
		}
	}
	inner := opt
	inner.Dir = ""
	inner.Skip = func(f int) bool { return saved[f] || opt.Skip != nil && opt.Skip(f) }
	hooks := &dirHooks{joint: joint}
	hooks.fitUnsupervised = func(ctx context.Context, cfg semisup.Config) (*Unsupervised, error) {
		return unsupervisedInDir(ctx, opt.Dir, data, want.Data, classes, gwf, cfg, opt)
	}
	hooks.foldResume = func(f int, sel Selection, validation int) (*selectResume, error) {
		return foldResume(opt.Dir, f, want, sel, validation, len(data), opt.log)
	}
	hooks.save = func(r FoldResult) error {
		if err := saveFold(opt.Dir, want, r); err != nil {
			return fmt.Errorf("crossval: fold %d: %w", r.Fold, err)
		}
		if err := removeFoldCheckpoint(opt.Dir, r.Fold); err != nil {
			opt.log(true, fmt.Sprintf("fold %d is saved, its checkpoint not removed: %v", r.Fold, err))
		}
		return nil
	}
	ran, err := crossValidate(ctx, data, labels, fold, classes, gwf, cfg, inner, hooks)
	if err != nil {
		return nil, err
	}
	out = append(out, ran...)
	slices.SortFunc(out, func(a, b FoldResult) int { return a.Fold - b.Fold })
	return out, nil
}

// heldOut is the graphs of fold f (0-based) of the split fold.
func heldOut(fold []int, f int) []int {
	var test []int
	for i, g := range fold {
		if g == f {
			test = append(test, i)
		}
	}
	return test
}

// done records a finished fold: in the fold directory (dir, if set), to Observe (its lines,
// timed by clock), then FoldDone.
func (o CVOptions) done(r FoldResult, dir *dirHooks, clock *foldClock) error {
	if dir != nil {
		if err := dir.save(r); err != nil {
			return err
		}
	}
	for _, l := range clock.lines(r) {
		o.log(false, l)
	}
	if o.FoldDone != nil {
		o.FoldDone(r)
	}
	return nil
}

// log tells Observe a message for every fold reused from Dir (whole, or its trained candidates
// when the saved fold lacks the β = 0 candidate of Select.Unsupervised), a warning for every
// fold found there but not reusable (saying why), and what the protocol trains.
func (o CVOptions) log(warning bool, msg string) {
	o.Observe.Say(warning, "%s", msg)
}
