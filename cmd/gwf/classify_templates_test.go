package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/internal/meanstd"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/crossval"
)

// TestClassifyTemplates: --templates weighs the template model against the FGW-SVM in every
// fold, within the budget, and the report's accuracy is the deciding classifier's; it runs
// where its estimate fits in half the budget; the classifier --output saves is the one that
// decides; it is refused for a fraction of the labels.
func TestClassifyTemplates(t *testing.T) {
	args := []string{"classify", "--dataset", "MUTAG", "--subset", "24", "--folds", "2", "--compare", "statistics", "--templates", "--json"}
	// An hour fits the template model's estimate even under the race detector, which slows it
	// tenfold (the default budget of 24 graphs, 5 minutes, may not).
	out, stderr := mustRun(t, append(args, "--budget", "1h")...)
	var rep crossval.SVMReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	m, _ := meanstd.Of(rep.FoldAccuracies())
	if len(rep.Weighed) != 2 || rep.Templates == nil || rep.Accuracy.Mean != m || rep.FoldAccuracies()[1] != rep.Weighed[1].Accuracy {
		t.Fatalf("weighed %+v, templates %v, accuracy %v", rep.Weighed, rep.Templates, rep.Accuracy)
	}
	if !strings.Contains(stderr, "weighing the template model against the FGW-SVM: about") {
		t.Errorf("the log does not say the template model's share of the budget:\n%s", stderr)
	}
	// Under a budget it runs where its estimate fits in half of what is left.
	for _, c := range []struct {
		est, left time.Duration
		fits      bool
	}{{time.Minute, 3 * time.Minute, true}, {time.Minute, 2 * time.Minute, true}, {time.Minute, 119 * time.Second, false}} {
		if templatesFit(c.est, c.left) != c.fits {
			t.Errorf("estimate %s, %s left: fits %v, want %v", c.est, c.left, !c.fits, c.fits)
		}
	}
	// The classifier --output saves is the one that decides, and predict reads either.
	model := filepath.Join(t.TempDir(), "m")
	out, _ = mustRun(t, "classify", "--dataset", "MUTAG", "--subset", "24", "--compare", "statistics", "--templates", "--budget", "0", "--labeled-fraction", "1", "--output", model, "--json")
	rep = crossval.SVMReport{}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Weighed) != 1 {
		t.Fatalf("%v: weighed %+v", err, rep.Weighed)
	}
	head, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if templates := semisup.IsTemplateFile(head); templates != (rep.Weighed[0].Chosen == crossval.MethodTemplates) {
		t.Errorf("%s decides, but the file saved is a template model: %v", rep.Weighed[0].Chosen, templates)
	}
	if out, _ = mustRun(t, "predict", "--model", model, "--dataset", "MUTAG", "--subset", "24"); strings.Count(out, "\n") < 24 {
		t.Errorf("predict:\n%s", out)
	}
	if _, stderr, code := runCLI(t, "classify", "--dataset", "MUTAG", "--subset", "24", "--labeled-fraction", "0.5", "--templates"); code != cli.ExitUsage {
		t.Errorf("--templates with --labeled-fraction: exit %d, want %d (usage)\n%s", code, cli.ExitUsage, stderr)
	}
}
