package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
)

// TestClassifyBothFeatures: on data with node attributes and node labels (bundled PROTEINS),
// classify uses both by default and chooses among the attributes alone, both, the labels'
// WL labels and the label-free candidates; a saved classifier predicts graphs read with its
// encoding.
func TestClassifyBothFeatures(t *testing.T) {
	// --budget 0: every candidate is counted, however fast the machine (a budget's plan keeps
	// fewer on a loaded one).
	out, _ := mustRun(t, "classify", "--dataset", "PROTEINS", "--subset", "16", "--folds", "2", "--inner-folds", "2", "--structure", "adjacency", "--budget", "0", "-q", "--json")
	var rep crossval.SVMReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Features != "--features both --standardize" {
		t.Errorf("features %q, want both, standardized", rep.Features)
	}
	parts, vector := map[string]int{}, map[string]int{}
	for _, c := range rep.Settings.Candidates {
		if c.Kind != "" {
			vector[fmt.Sprintf("%s/%v/%s", c.Kind, c.WithoutFeatures, c.Part)]++
			continue
		}
		if c.WithoutFeatures {
			parts[fmt.Sprintf("none/%d", c.WL)]++
			continue
		}
		if c.Attributes != 1 {
			t.Fatalf("candidate %+v, want 1 attribute column", c)
		}
		parts[fmt.Sprintf("%s/%d", c.Part, c.WL)]++
	}
	if len(rep.Settings.Candidates) != 40 || vector["statistics/true/"] != 1 || vector["wl-subtree/false/labels"] != 4 || vector["wl-subtree/true/"] != 4 || parts[fgwsvm.PartAttributes+"/0"] != 5 || parts["/0"] != 5 || parts[fgwsvm.PartLabels+"/2"] != 5 || parts[fgwsvm.PartLabels+"/4"] != 5 ||
		parts["none/0"] != 1 || parts["none/2"] != 5 || parts["none/4"] != 5 {
		t.Fatalf("candidates by part and WL iterations %v, want 5 each (the structure alone once); vectors %v", parts, vector)
	}

	model := filepath.Join(t.TempDir(), "svm.classifier")
	mustRun(t, "classify", "--dataset", "PROTEINS", "--subset", "16", "--inner-folds", "2", "--structure", "adjacency", "--wl", "0", "--feature-weight", "1", "--labeled-fraction", "1", "--output", model, "-q")
	out, _ = mustRun(t, "predict", "--model", model, "--dataset", "PROTEINS", "--subset", "8", "--subset-seed", "9")
	if lines := strings.Count(out, "\n"); lines < 8 {
		t.Fatalf("predictions:\n%s", out)
	}
	// Features of another kind than the classifier's are refused.
	if _, stderr, code := runCLI(t, "predict", "--model", model, "--dataset", "PROTEINS", "--subset", "8", "--features", "attributes"); code == 0 || !strings.Contains(stderr, "both") {
		t.Errorf("predict with --features attributes: exit %d, %s", code, stderr)
	}
}
