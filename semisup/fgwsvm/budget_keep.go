package fgwsvm

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/layers"
)

// A budget's plan depends on the machine's speed, and the matrices Options.Dir keeps are
// named by what they hold (landmarks, screening subset): a rerun that planned anew would
// compute other matrices. So the plan is kept in Options.Dir beside them, and a rerun of the
// same data, settings and folds takes it again, whatever its budget, and continues.

// planFile is where Options.Dir keeps the plan of data, settings s (less the budget) and folds.
func planFile(dir string, data []*graphs.Graph, folds int, s Settings, solver layers.SolverOptions) string {
	s.Budget = 0
	key, _ := json.Marshal(struct {
		Data     string     `json:"data"`
		Folds    int        `json:"folds"`
		Settings Settings   `json:"settings"`
		Solver   solverFile `json:"solver"`
	}{graphs.Fingerprint(data), folds, s, fileSolver(solver)})
	sum := sha256.Sum256(key)
	return filepath.Join(dir, fmt.Sprintf("budget-plan-%x.json", sum[:8]))
}

// keptPlan is the plan planFile holds, if it holds one of s's candidates.
func keptPlan(path string, s Settings) (Plan, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Plan{}, false
	}
	var p Plan
	if json.Unmarshal(b, &p) != nil || len(p.Kept) != p.Candidates || p.Candidates == 0 {
		return Plan{}, false
	}
	for _, i := range p.Kept {
		if i < 0 || i >= len(s.Candidates) {
			return Plan{}, false
		}
	}
	return p, true
}

// keepPlan writes p to path.
func keepPlan(path string, p Plan) error {
	if err := keepJSON(path, p); err != nil {
		return fmt.Errorf("fgwsvm: keep the budget's plan: %w", err)
	}
	return nil
}

// keepJSON writes v to path as indented JSON, atomically.
func keepJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(b, '\n'))
}
