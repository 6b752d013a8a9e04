package trainflags

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/training"
)

func parsed(t *testing.T, args ...string) (*Flags, *pflag.FlagSet) {
	t.Helper()
	var f Flags
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f.Register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return &f, fs
}

// TestConfig: no flag gives the paper's settings; --solver alone takes that solver's
// defaults; a flag given is applied; --inner with another solver warns.
func TestConfig(t *testing.T) {
	f, fs := parsed(t)
	cfg, warnings, err := f.Config(fs)
	if err != nil || len(warnings) > 0 || !reflect.DeepEqual(cfg, training.DefaultConfig()) {
		t.Errorf("no flags: %+v, %v, %v; want the defaults", cfg, warnings, err)
	}
	f, fs = parsed(t, "--solver", "badmm", "--atoms", "7", "--atom-size", "12", "--inner", "3")
	cfg, warnings, err = f.Config(fs)
	want := training.DefaultConfig().WithSolverDefaults("badmm")
	want.Atoms, want.AtomSize, want.Inner = 7, 12, 3
	if err != nil || !reflect.DeepEqual(cfg, want) || len(warnings) != 1 || !strings.Contains(warnings[0], "--inner has no effect") {
		t.Errorf("badmm: %+v, %v, %v; want %+v and a warning", cfg, warnings, err, want)
	}
	f, fs = parsed(t, "--start-jitter", "0.01")
	cfg, _, err = f.Config(fs)
	if err != nil || cfg.StartJitter != 0.01 || !strings.Contains(cfg.Describe(), "start jitter 0.01") {
		t.Errorf("--start-jitter 0.01: %+v, %v (%s)", cfg, err, cfg.Describe())
	}
	if s, _ := cfg.GWDSolver(); s.(layers.PPA).Jitter != 0.01 {
		t.Errorf("--start-jitter 0.01: solver %+v", s)
	}
	for _, bad := range [][]string{{"--epochs", "0"}, {"--workers", "-1"}, {"--atom-size", "big"}, {"--solver", "nope"}, {"--lr", "-1"},
		{"--start-jitter", "0.9"}, {"--solver", "cg", "--start-jitter", "0.01"}} {
		f, fs := parsed(t, bad...)
		if _, _, err := f.Config(fs); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// TestResumeConfig: the checkpoint's settings win, but --epochs; a flag that asks for another
// value is named in a warning.
func TestResumeConfig(t *testing.T) {
	file := training.DefaultConfig()
	file.Atoms, file.Epochs = 5, 3
	f, fs := parsed(t, "--epochs", "8", "--atoms", "6", "--seed", "1", "--atom-size", "warm")
	cfg, warnings, err := f.ResumeConfig(fs, file)
	want := file
	want.Epochs = 8
	if err != nil || !reflect.DeepEqual(cfg, want) {
		t.Fatalf("resume: %+v, %v; want %+v", cfg, err, want)
	}
	if len(warnings) != 1 || warnings[0] != "--atoms=6 ignored: the checkpoint was trained with atoms = 5" {
		t.Errorf("warnings %q", warnings)
	}
}

// TestFeatureWeight: a number or "auto"; auto balances the two costs on the data.
func TestFeatureWeight(t *testing.T) {
	f, fs := parsed(t, "--feature-weight", "AUTO")
	if !f.FeatureWeight.Auto || f.FeatureWeight.String() != "auto" {
		t.Errorf("auto: %+v", f.FeatureWeight)
	}
	if err := fs.Set("feature-weight", "x"); err == nil {
		t.Error("--feature-weight x: no error")
	}
	g := func(x float64) *graphs.Graph {
		gr, err := graphs.New("g", mat.NewDense(2, 2, []float64{0, 1, 1, 0}), nil, mat.NewDense(2, 1, []float64{0, x}))
		if err != nil {
			t.Fatal(err)
		}
		return gr
	}
	w, note, err := f.FeatureWeight.Resolve(graphs.Slice([]*graphs.Graph{g(1), g(3)}))
	b, berr := training.BalanceFeatures(graphs.Slice([]*graphs.Graph{g(1), g(3)}))
	if err != nil || berr != nil || w != b.Weight || !strings.HasPrefix(note, "--feature-weight auto: ") {
		t.Errorf("Resolve: %v %q %v, want %v", w, note, err, b.Weight)
	}
	f, _ = parsed(t, "--feature-weight", "0.5")
	if w, note, err := f.FeatureWeight.Resolve(nil); w != 0.5 || note != "" || err != nil {
		t.Errorf("a number: %v %q %v", w, note, err)
	}
}

// TestSolverOptions: a named solver's defaults, the flags given over them, and a warning for
// each flag the solver has no use for.
func TestSolverOptions(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		want     func(o *layers.SolverOptions)
		warnings int
	}{
		{[]string{"--solver", "badmm"}, func(o *layers.SolverOptions) {}, 0},
		{[]string{"--solver", "ppa", "--gamma", "0.05", "--inner", "3", "--tol", "1e-6"}, func(o *layers.SolverOptions) { o.Gamma, o.Inner, o.Tol = 0.05, 3, 1e-6 }, 0},
		{[]string{"--solver", "cg", "--gamma", "0.05", "--inner", "3", "--layers", "7"}, func(o *layers.SolverOptions) { o.Gamma, o.Inner, o.Layers = 0.05, 3, 7 }, 2},
	} {
		var s Solver
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		s.Register(fs, "")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		got, warnings, err := s.Options(fs)
		want, _ := layers.DefaultSolverOptions(s.solver())
		tc.want(&want)
		if err != nil || got != want || len(warnings) != tc.warnings {
			t.Errorf("%v: %+v, %q, %v; want %+v and %d warnings", tc.args, got, warnings, err, want, tc.warnings)
		}
	}
	s := Solver{Name: "sinkhorn"}
	if _, _, err := s.Options(pflag.NewFlagSet("test", pflag.ContinueOnError)); err == nil {
		t.Error("an unknown solver: no error")
	}
}
