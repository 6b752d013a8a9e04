package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/training"
)

// TestStructureFlag: --structure sp trains on shortest-path matrices (in memory and streamed);
// the model keeps it, embed reads new graphs the same way, and contradicting it is refused;
// pairwise compares by it.
func TestStructureFlag(t *testing.T) {
	dir := t.TempDir()
	for _, stream := range []bool{false, true} {
		model := filepath.Join(dir, fmt.Sprintf("sp-%v.model", stream))
		args := []string{"fit", "--dataset", "MUTAG", "--subset", "16", "--structure", "sp", "--output", model,
			"--atoms", "2", "--layers", "5", "--epochs", "1", "--batch", "8", "--quiet"}
		if stream {
			args = append(args, "--stream")
		}
		mustRun(t, args...)
		m, err := training.Load(model)
		if err != nil {
			t.Fatal(err)
		}
		if m.Features == nil || m.Features.Structure != graphs.ShortestPath {
			t.Fatalf("stream %v: the model keeps %+v", stream, m.Features)
		}
		_, stderr := mustRun(t, "embed", "--model", model, "--dataset", "MUTAG", "--subset", "5", "--steps", "2")
		if !strings.Contains(stderr, "--structure shortest-path") {
			t.Errorf("embed did not read the graphs as the model's: %s", stderr)
		}
	}
	adjModel := filepath.Join(dir, "adj.model")
	mustRun(t, "fit", "--dataset", "MUTAG", "--subset", "16", "--output", adjModel, "--atoms", "2", "--layers", "5", "--epochs", "1", "--quiet")
	if _, stderr, code := runCLI(t, "embed", "--model", adjModel, "--dataset", "MUTAG", "--subset", "5", "--structure", "sp"); code != cli.ExitUsage || !strings.Contains(stderr, "--structure adjacency") {
		t.Errorf("embed --structure sp under an adjacency model: exit %d, %s", code, stderr)
	}
	if _, _, code := runCLI(t, "fit", "--dataset", "MUTAG", "--structure", "ring", "--output", adjModel); code != cli.ExitUsage {
		t.Errorf("--structure ring: exit %d", code)
	}
	adj, _ := mustRun(t, "pairwise", "--dataset", "MUTAG", "--subset", "4", "--solver", "cg", "-q")
	sp, _ := mustRun(t, "pairwise", "--dataset", "MUTAG", "--subset", "4", "--solver", "cg", "--structure", "sp", "-q")
	if adj == sp || strings.Count(sp, "\n") != strings.Count(adj, "\n") {
		t.Errorf("pairwise: the same discrepancies under both structures:\n%s", sp)
	}
}
