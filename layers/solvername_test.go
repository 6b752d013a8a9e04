package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestSolverName: every listed name parses to itself and builds a solver of that name; any
// other string is refused with ErrInput and the list of names, wherever a name is taken.
func TestSolverName(t *testing.T) {
	for _, name := range SolverNames() {
		got, err := ParseSolverName(string(name))
		if err != nil || got != name || !name.Valid() {
			t.Errorf("%s: parsed as %q, %v (valid: %v)", name, got, err, name.Valid())
		}
		o, err := DefaultSolverOptions(name)
		if err != nil || o.Name != name {
			t.Fatalf("%s: defaults named %q, %v", name, o.Name, err)
		}
		if s, err := NewSolver(o); err != nil || s.Name() != string(name) {
			t.Errorf("%s: built %v, %v", name, s, err)
		}
	}
	for _, bad := range []string{"", "PPA", "sinkhorn", "cg "} {
		n, err := ParseSolverName(bad)
		if !errors.Is(err, ErrInput) || n != "" || SolverName(bad).Valid() {
			t.Errorf("%q: parsed as %q, %v", bad, n, err)
		} else if !strings.Contains(err.Error(), "want ppa, badmm, cg") {
			t.Errorf("%q: the error does not list the solvers: %v", bad, err)
		}
		if _, err := DefaultSolverOptions(SolverName(bad)); !errors.Is(err, ErrInput) {
			t.Errorf("%q: defaults, err %v", bad, err)
		}
		if _, err := NewSolver(SolverOptions{Name: SolverName(bad)}); !errors.Is(err, ErrInput) {
			t.Errorf("%q: built, err %v", bad, err)
		}
	}
}

// TestReportJSONUnchanged: a report written before the solver's name had a type of its own
// reads back to that name and is written again byte for byte.
func TestReportJSONUnchanged(t *testing.T) {
	old := []byte(`{"objective":0.125,"transport":[[0.25,0.25]],"marginal_error":0,"solver":"cg",` +
		`"gamma":null,"layers":10000,"iterations":3,"inner":null,"anchors":2,"start":"the product coupling",` +
		`"tol":0,"sweep_cap_hits":0,"rounded":false,"feature_weight":1,"seconds":0.5,"rows":"nodes of A",` +
		`"cols":"nodes of B","nodes_a":1,"nodes_b":2,"feature_dim":0}`)
	var rep Report
	if err := json.Unmarshal(old, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Solver != SolverCG {
		t.Errorf("solver read as %q", rep.Solver)
	}
	again, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, old) {
		t.Errorf("written again as\n%s\nwant\n%s", again, old)
	}
}

// TestSolverOptionsPerSolver: each solver reads back the plain options of its typed settings
// (non-default values included), ignores the settings of the others that a configuration
// carries when it switches solvers, and refuses the starts of another solver.
func TestSolverOptionsPerSolver(t *testing.T) {
	ppa := PPA{Gamma: 0.05, Layers: 7, Inner: 3, Weight: 2, Tol: 1e-6, MaxSweeps: 50, Round: true, Jitter: 0.1}
	badmm := BADMM{Gamma: 2, Layers: 9, Weight: 0.5, Tol: 1e-5, MaxSweeps: 70, Round: true, Jitter: 0.2}
	cg := DefaultCG()
	cg.MaxIter, cg.Weight, cg.TolRel, cg.OrderStart, cg.Anchors = 30, 3, 1e-6, true, 4
	for _, s := range []interface {
		Solver
		options() SolverOptions
	}{ppa, badmm, cg, DefaultPPA(), DefaultBADMM(), DefaultCG()} {
		got, err := NewSolver(s.options())
		if err != nil || got != Solver(s) {
			t.Errorf("%s: %+v is read back as %+v, %v", s.Name(), s, got, err)
		}
	}
	// The fields a configuration keeps for other solvers are ignored.
	o := cg.options()
	o.Gamma, o.Inner, o.MaxSweeps, o.Round = 0.01, 5, 10, true
	if got, err := NewSolver(o); err != nil || got != Solver(cg) {
		t.Errorf("cg with ppa's settings: %+v, %v", got, err)
	}
	o = badmm.options()
	o.Inner = 5
	if got, err := NewSolver(o); err != nil || got != Solver(badmm) {
		t.Errorf("badmm with ppa's sweeps: %+v, %v", got, err)
	}
	// Another solver's starts are refused.
	for _, name := range []SolverName{SolverPPA, SolverBADMM} {
		for _, edit := range []func(*SolverOptions){
			func(o *SolverOptions) { o.OrderStart = true },
			func(o *SolverOptions) { o.Anchors = 2 },
		} {
			o, _ := DefaultSolverOptions(name)
			edit(&o)
			if _, err := NewSolver(o); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "setting of cg") {
				t.Errorf("%s with %+v: %v, want ErrInput naming cg", name, o, err)
			}
		}
	}
}
