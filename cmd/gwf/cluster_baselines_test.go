package main

import (
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
)

func TestClusterBaselines(t *testing.T) {
	for _, method := range []string{"fgwk", "gwb-km"} {
		out, _ := mustRun(t, "cluster", "--dataset", "MUTAG", "--subset", "24", "--method", method, "--layers", "10",
			"--runs", "2", "--iterations", "3", "--json", "-q")
		rep := decodeJSON(t, out)
		if rep["method"] != method || rep["graphs"] != 24.0 {
			t.Errorf("%s: report %v", method, rep)
		}
		runs, _ := rep["runs"].([]any)
		if len(runs) != 2 {
			t.Fatalf("%s: %d runs", method, len(runs))
		}
		for _, r := range runs {
			r := r.(map[string]any)
			if acc, _ := r["accuracy"].(float64); acc < 0.5 || acc > 1 {
				t.Errorf("%s: accuracy %v", method, r["accuracy"])
			}
			if g, _ := r["gwds"].(float64); g <= 0 {
				t.Errorf("%s: gwds %v", method, r["gwds"])
			}
		}
	}
	if rep := decodeJSON(t, mustRunOut(t, "cluster", "--dataset", "MUTAG", "--subset", "24", "--method", "fgwk", "--layers", "5", "--json", "-q")); rep["gwds"] != 276.0 {
		t.Errorf("fgwk on 24 graphs: %v GWDs, want 276", rep["gwds"])
	}
	for _, args := range [][]string{{"--method", "nope"}, {"--method", "gwb-km", "--iterations", "0"}} {
		if _, _, code := runCLI(t, append([]string{"cluster", "--dataset", "MUTAG"}, args...)...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, cli.ExitUsage)
		}
	}
}

func mustRunOut(t *testing.T, args ...string) string {
	t.Helper()
	out, _ := mustRun(t, args...)
	return out
}
