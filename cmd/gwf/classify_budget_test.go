package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup/crossval"
)

// TestClassifyBudget: a generous --budget keeps the settings (the full kernel) and classifies
// as no budget (--budget 0) does; the report keeps the budget, the plan, its estimate and the
// seconds taken, and the log states the plan with an ETA once; without --budget the run gets
// the default budget; bad budgets are usage errors.
func TestClassifyBudget(t *testing.T) {
	dir := t.TempDir()
	class := writeRandomClasses(t, "g", 30, 1, dir)
	rows := []string{"file,label"}
	for name, c := range class {
		rows = append(rows, name+","+c)
	}
	slices.Sort(rows[1:])
	writeFile(t, dir, "labels.csv", strings.Join(rows, "\n")+"\n")
	args := []string{"classify", "--graphs", dir, "--folds", "3", "--json", "--compare", "fgw", "--structure", "adjacency", "--wl", "0", "--inner-folds", "2"}
	report := func(out string) crossval.SVMReport {
		t.Helper()
		var rep crossval.SVMReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return rep
	}

	out, stderr := mustRun(t, append(args, "--budget", "10m")...)
	rep := report(out)
	p := rep.Cost.Budget
	if p == nil || p.Budget < 590 || p.Budget > 600 || p.Changed || p.Landmarks != 0 || !(p.EstimateSeconds > 0) || !(p.Seconds > 0) || p.SolvesPerSecond <= 0 {
		t.Fatalf("report's plan %+v, want the 10 min budget, the settings unchanged, an estimate and the seconds taken", p)
	}
	if n := strings.Count(stderr, "ETA"); n < 1 || !strings.Contains(stderr, "budget 9m5") || !strings.Contains(stderr, "the full kernel") {
		t.Errorf("the log does not state the plan and its ETA (%d ETAs):\n%s", n, stderr)
	}
	plain, _ := mustRun(t, append(args, "--budget", "0")...)
	base := report(plain)
	if base.Cost.Budget != nil || base.Accuracy != rep.Accuracy || !slices.Equal(base.FoldAccuracies(), rep.FoldAccuracies()) {
		t.Errorf("no budget: plan %v, accuracy %v; a generous budget: accuracy %v", base.Cost.Budget, base.FoldAccuracies(), rep.FoldAccuracies())
	}
	if strings.Contains(plain, "budget") {
		t.Errorf("a report without a budget mentions one:\n%s", plain)
	}

	// No --budget: the default for 30 graphs, 5 minutes, said in the log.
	out, stderr = mustRun(t, args...)
	if p := report(out).Cost.Budget; p == nil || p.Budget < 290 || p.Budget > 300 || p.Changed {
		t.Errorf("no --budget: plan %+v, want the default 5 min, the settings unchanged", p)
	}
	if !strings.Contains(stderr, "budget 5m0s, the default for 30 graphs") {
		t.Errorf("the log does not say the default budget:\n%s", stderr)
	}

	for _, b := range []string{"-1m", "1ms", "1s", "soon", "30"} {
		if _, stderr, code := runCLI(t, append(args, "--budget", b)...); code != cli.ExitUsage {
			t.Errorf("--budget %s: exit %d, want %d (usage)\n%s", b, code, cli.ExitUsage, stderr)
		}
	}
}
