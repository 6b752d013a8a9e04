package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/training/cluster"
)

// TestPool: the reports of two seeds pool into the mean ± std of all their folds, with the
// baselines' counts summed; reports of other settings, and files that are not reports, are
// refused.
func TestPool(t *testing.T) {
	dir := t.TempDir()
	classify := func(name string, extra ...string) string {
		t.Helper()
		args := append([]string{"semisup", "--method", "gwf", "--dataset", "MUTAG", "--subset", "30", "--folds", "3", "--atoms", "3", "--layers", "5",
			"--epochs", "2", "--hidden", "4", "--head-steps", "20", "--json", "-q"}, extra...)
		out, _ := mustRun(t, args...)
		return writeFile(t, dir, name, out)
	}
	s1 := classify("s1.json", "--seed", "1", "--fold-seed", "1")
	s2 := classify("s2.json", "--seed", "2", "--fold-seed", "2")

	out, _ := mustRun(t, "pool", "--json", "-q", s1, s2)
	var got crossval.Pooled
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var accs []float64
	wins := 0
	for _, f := range []string{s1, s2} {
		rep, err := crossval.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.GWF.Folds {
			accs = append(accs, r.Accuracy)
			if r.Accuracy > r.Beta0.Accuracy {
				wins++
			}
		}
	}
	mean, std := cluster.MeanStd(accs)
	p := got.Pooled
	if len(got.Reports) != 2 || got.Reports[1].Seed != 2 || p.Folds != 6 || math.Abs(p.Accuracy.Mean-mean) > 1e-12 || math.Abs(p.Accuracy.Std-std) > 1e-12 {
		t.Errorf("pooled %+v, want 6 folds with accuracy %v ± %v", got, mean, std)
	}
	if p.Baselines == nil || p.Baselines.Folds != 6 || p.Baselines.WinsBeta0 != wins || p.Baselines.WinsBeta0 != got.Reports[0].Baselines.WinsBeta0+got.Reports[1].Baselines.WinsBeta0 {
		t.Errorf("pooled baselines %+v, want 6 folds and %d wins over the β = 0 head", p.Baselines, wins)
	}
	text, _ := mustRun(t, "pool", "-q", s1, s2)
	for _, want := range []string{"2 reports of 3 folds", "all pooled", "mean ± std over 6 folds of 2 reports", "beats the β = 0 head"} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q:\n%s", want, text)
		}
	}

	other := classify("other.json", "--seed", "3", "--fold-seed", "3", "--beta", "1")
	notReport := writeFile(t, dir, "x.json", `{"dataset": "MUTAG"}`)
	binary := writeFile(t, dir, "b.json", "\x00\x01")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{s1, other}, cli.ExitUsage, "differ in head and encoder (semisup)"},
		{[]string{s1, notReport}, 1, "no folds"},
		{[]string{s1, binary}, 1, "not a JSON object"},
		{[]string{s1, filepath.Join(dir, "none.json")}, 1, "no such file"},
		{nil, cli.ExitUsage, "give the reports"},
	} {
		_, stderr, code := runCLI(t, append([]string{"pool"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("pool %v: exit %d, %q; want exit %d saying %q", c.args, code, stderr, c.code, c.want)
		}
	}
}
