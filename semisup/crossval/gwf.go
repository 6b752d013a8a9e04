package crossval

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/internal/buildinfo"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/shard"
)

// GWFSpec is a cross-validation of the semi-supervised GWF classifier: CVOptions
// (folds, seed, fold directory, selection, baselines, callbacks) and, optionally, a shard of
// the folds to run.
type GWFSpec struct {
	CVOptions
	// Shard, if it has more than one part, runs only its folds (fold f where (f−1) mod Count =
	// Index); the shards share CVOptions.Dir, and a run without Shard then gathers them.
	Shard shard.Shard
}

// Validate checks the spec against the model configuration sc it will train: a shard needs a
// Dir for the shards to share, and at most as many shards as folds; the β = 0 candidate
// (Select.Unsupervised) needs a Select; it and the baselines need the GWF term (not sc.NoGWF),
// which trains the model without labels they use.
func (spec GWFSpec) Validate(sc semisup.Config) error {
	sh := spec.Shard
	if sh.Count == 0 {
		sh = shard.Whole()
	}
	if err := sh.Validate(); err != nil {
		return err
	}
	switch {
	case sh.Count > 1 && spec.Dir == "":
		return fmt.Errorf("crossval: shard %s without a folder for the shards to share (Dir)", sh)
	case sh.Count > spec.Folds:
		return fmt.Errorf("crossval: shard %s: more shards than the %d folds", sh, spec.Folds)
	case spec.Select != nil && spec.Select.Unsupervised && sc.NoGWF:
		return fmt.Errorf("crossval: the β = 0 candidate (Selection.Unsupervised) needs the GWF term: without it (NoGWF) nothing trains without labels")
	case spec.Baselines && sc.NoGWF:
		return fmt.Errorf("crossval: the baselines need the GWF term: without it (NoGWF) nothing trains without labels")
	}
	return nil
}

// CrossValidateGWF runs the cross-validation spec of the GWF classifier (cfg, sc; with
// spec.Select, the nested protocol that ignores cfg's place for sc's candidates) on the
// graphs of ds (labels: class indices in [0, classes)) and reports it: the protocol in words,
// every fold, the mean ± std and the baselines' summary. With spec.Dir and no shard, the
// report is also written there as report.json. A spec that Validate refuses is an error.
func CrossValidateGWF(ctx context.Context, ds *graphs.Dataset, labels []int, classes int, cfg training.Config, sc semisup.Config, spec GWFSpec) (*GWFReport, error) {
	if err := spec.Validate(sc); err != nil {
		return nil, err
	}
	if spec.Shard.Count == 0 {
		spec.Shard = shard.Whole()
	}
	rep := &GWFReport{Version: buildinfo.Version(), Dataset: ds.Name, Graphs: len(ds.Graphs), Classes: classes, Semisup: sc, Config: cfg,
		Protocol: fmt.Sprintf("stratified %d-fold cross-validation (fold seed %d); held-out graphs unlabelled in the GWF term", spec.Folds, spec.Seed)}
	if sel := spec.Select; sel != nil {
		rep.Protocol = fmt.Sprintf("nested stratified %d-fold cross-validation (fold seed %d): a stratified %.0f%% of each fold's labelled graphs chooses the epoch and settings (%d candidates%s%s); held-out graphs unlabelled in the GWF term, scored once",
			spec.Folds, spec.Seed, 100*sel.Validation, len(sel.Candidates), map[bool]string{true: " and the β = 0 head", false: ""}[sel.Unsupervised],
			map[bool]string{true: ", chosen settings refitted on all the fold's labels", false: ""}[sel.Refit])
		rep.Selection = sel
	}
	if sh := spec.Shard; sh.Count > 1 {
		spec.Skip = func(fold int) bool { return (fold-1)%sh.Count != sh.Index }
		rep.Protocol += fmt.Sprintf("; shard %s: folds %s only", sh, shardFolds(sh, spec.Folds))
	}
	res, err := CrossValidate(ctx, ds.Graphs, labels, classes, cfg, sc, spec.CVOptions)
	if err != nil {
		return nil, err
	}
	rep.Folds = res
	rep.Confusion = NewConfusion(ds, labels, classes, rep.HeldOut())
	rep.Accuracy = FoldAccuracy(res)
	rep.Baselines = Summarize(res)
	if spec.Dir != "" && spec.Shard.Count == 1 { // a shard's folds are not the report
		if err := atomicfile.Write(filepath.Join(spec.Dir, "report.json"), func(w io.Writer) error { return WriteJSON(w, rep) }); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// shardFolds lists the folds (1-based) of shard sh of folds, comma-separated.
func shardFolds(sh shard.Shard, folds int) string {
	var out []string
	for f := sh.Index + 1; f <= folds; f += sh.Count {
		out = append(out, strconv.Itoa(f))
	}
	return strings.Join(out, ", ")
}

// HeldOutAccuracy scores the labelled-fraction protocol: the share of pred that matches labels
// on the graphs train leaves unlabelled (semisup.Unlabeled), or on every graph with all (a
// classifier trained on all labels scores its training graphs). It also returns how many
// graphs were scored (0: none, accuracy 0).
func HeldOutAccuracy(labels, train, pred []int, all bool) (float64, int) {
	ok, n := 0, 0
	for i, l := range train {
		if l == semisup.Unlabeled || all {
			n++
			if pred[i] == labels[i] {
				ok++
			}
		}
	}
	if n == 0 {
		return 0, 0
	}
	return float64(ok) / float64(n), n
}
