package main

import (
	"strings"
	"testing"
)

// TestClassifyFeaturesNone: --features none compares the structure alone, as its help says:
// no candidates of node degrees or Weisfeiler-Lehman labels made from the structure (unless
// --wl asks for them), and the log and the report say so. Left to the data, graphs without
// features also get those, and the log names them. An explicit --features is named as such,
// not as the data flags.
func TestClassifyFeaturesNone(t *testing.T) {
	classify := func(extra ...string) (report map[string]any, logs string) {
		args := append([]string{"classify", "--dataset", "MUTAG", "--subset", "16", "--folds", "2", "--inner-folds", "2",
			"--structure", "adjacency", "--json"}, extra...)
		out, logs := mustRun(t, args...)
		return decodeJSON(t, out), logs
	}
	rep, logs := classify("--features", "none")
	if !strings.Contains(logs, "node features: --features none: the structure alone; 1 candidates: adjacency, weight 1") ||
		strings.Contains(logs, "degrees") || strings.Contains(logs, "WL-") {
		t.Errorf("--features none: the log says\n%s", logs)
	}
	if f, _ := rep["features"].(string); !strings.HasPrefix(f, "--features none") {
		t.Errorf("--features none: the report's features are %q", rep["features"])
	}
	if _, logs = classify("--features", "none", "--wl", "2"); !strings.Contains(logs, "from the structure: Weisfeiler-Lehman labels from one label for all nodes;") || strings.Contains(logs, "degrees") {
		t.Errorf("--features none --wl 2: the log says\n%s", logs)
	}
	// Node labels read by the flag: named as --features labels, with what the structure adds.
	rep, logs = classify("--features", "labels")
	if !strings.Contains(logs, "node features: --features labels --edge-labels; from the structure: Weisfeiler-Lehman labels from one label for all nodes, the structure alone, graph statistics;") ||
		strings.Contains(logs, "node features: --dataset") || rep["features"] != "--features labels --edge-labels" {
		t.Errorf("--features labels: report %q, the log says\n%s", rep["features"], logs)
	}
}

// TestClassifyFeaturesHelp: the help does not claim --features defaults to none, which would be
// the structure alone: without the flag classify uses what the data have.
func TestClassifyFeaturesHelp(t *testing.T) {
	out, _ := mustRun(t, "classify", "--help")
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "--features ") {
			if strings.Contains(l, `(default "none")`) || !strings.Contains(l, "default: what the data have") {
				t.Errorf("--features help: %q", l)
			}
			return
		}
	}
	t.Fatal("no --features in classify's help")
}
