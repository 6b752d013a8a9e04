package fgwsvm

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/training"
)

// TestSolverFileAsConfig: the solver is written as the training.Config it once was, byte for
// byte, so that classifier files and the names of kept matrices and plans do not change, and
// is read back to the same settings; checkSolver accepts what Config.Validate accepted. (The
// test imports the trainer; the package does not.)
func TestSolverFileAsConfig(t *testing.T) {
	old := training.DefaultConfig().WithSolverDefaults("cg")
	old.Layers, old.Anchors, old.Tol = DefaultIterations, 0, DefaultTolerance
	want, _ := json.Marshal(old)
	got, _ := json.Marshal(fileSolver(DefaultSolver()))
	if !bytes.Equal(got, want) {
		t.Fatalf("DefaultSolver is written\n%s\nwant\n%s", got, want)
	}
	var cfgs []training.Config
	for _, name := range []layers.SolverName{layers.SolverPPA, layers.SolverBADMM, layers.SolverCG, "sinkhorn"} {
		c := training.DefaultConfig().WithSolverDefaults(name)
		cfgs = append(cfgs, c)
		c.Tol, c.FeatureWeight = 1e-6, 2.5
		cfgs = append(cfgs, c)
		c.StartJitter, c.OrderStart, c.Anchors = 0.01, true, 3
		cfgs = append(cfgs, c)
		c.FeatureWeight = 2 * training.MaxFeatureWeight
		cfgs = append(cfgs, c)
	}
	for _, c := range cfgs {
		want, _ := json.Marshal(c)
		got, _ := json.Marshal(fileSolver(c.SolverOptions()))
		if !bytes.Equal(got, want) {
			t.Errorf("%+v is written\n%s\nwant\n%s", c, got, want)
		}
		var f solverFile
		if err := json.Unmarshal(want, &f); err != nil || f.options() != c.SolverOptions() {
			t.Errorf("%s is read as %+v (%v), want %+v", want, f.options(), err, c.SolverOptions())
		}
		if errOld, errNew := c.Validate(), checkSolver(c.SolverOptions()); (errOld == nil) != (errNew == nil) {
			t.Errorf("%+v: Config.Validate %v, checkSolver %v", c, errOld, errNew)
		}
	}
}
