package fgwsvm

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
)

// A scored outer fold is kept in Options.Dir beside the matrices, so that a stopped or killed
// cross-validation resumes from its last finished fold: on thousands of graphs a fold's grid
// searches take minutes. Its file is named by everything the fold's result depends on (the
// data, labels, folds, seed, settings and solver), so that only a rerun of the same command
// finds it; a fold's result does not depend on the folds before it (the screening plans every
// fold before the first, and the matrices are kept).

// foldKey names a cross-validation's kept folds.
func foldKey(data []*graphs.Graph, labels []int, folds int, seed uint64, s Settings, solver layers.SolverOptions) string {
	key, _ := json.Marshal(struct {
		Data     string     `json:"data"`
		Labels   []int      `json:"labels"`
		Folds    int        `json:"folds"`
		Seed     uint64     `json:"seed"`
		Settings Settings   `json:"settings"`
		Solver   solverFile `json:"solver"`
	}{graphs.Fingerprint(data), labels, folds, seed, s, fileSolver(solver)})
	sum := sha256.Sum256(key)
	return fmt.Sprintf("%x", sum[:8])
}

// foldFile is where dir keeps fold f (1-based) of the cross-validation key names.
func foldFile(dir, key string, f int) string {
	return filepath.Join(dir, fmt.Sprintf("svm-fold%d-%s.json", f, key))
}

// keptFold is the result path holds for fold f, if it holds one.
func keptFold(path string, f int) (FoldResult, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return FoldResult{}, false
	}
	var r FoldResult
	if json.Unmarshal(b, &r) != nil || r.Fold != f || len(r.Graphs) != r.Test || len(r.Predictions) != r.Test {
		return FoldResult{}, false
	}
	return r, true
}

// keepFold writes r to path.
func keepFold(path string, r FoldResult) error {
	if err := keepJSON(path, r); err != nil {
		return fmt.Errorf("fgwsvm: keep fold %d: %w", r.Fold, err)
	}
	return nil
}
