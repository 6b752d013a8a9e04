package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPairwiseShardsMergeToOneRun: three shards of 'gwf pairwise' (one from a Slurm array's
// environment), merged, are byte for byte one run's output, and FGWK clusters from that file
// exactly as it does computing the discrepancies itself.
func TestPairwiseShardsMergeToOneRun(t *testing.T) {
	dir := t.TempDir()
	common := []string{"--dataset", "MUTAG", "--subset", "16", "--layers", "5", "-q"}
	one := filepath.Join(dir, "one.csv")
	mustRun(t, append([]string{"pairwise", "--output", one}, common...)...)
	out := filepath.Join(dir, "d.csv")
	mustRun(t, append([]string{"pairwise", "--output", out, "--shard", "0/3"}, common...)...)
	mustRun(t, append([]string{"pairwise", "--output", out, "--shard", "2/3"}, common...)...)
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "3")
	mustRun(t, append([]string{"pairwise", "--output", out}, common...)...)
	os.Unsetenv("SLURM_ARRAY_TASK_ID")
	merged := filepath.Join(dir, "merged.csv")
	mustRun(t, "merge", "--output", merged, "-q", filepath.Join(dir, "d.shard-2-of-3.csv"), filepath.Join(dir, "d.shard-0-of-3.csv"), filepath.Join(dir, "d.shard-1-of-3.csv"))
	a, _ := os.ReadFile(one)
	b, _ := os.ReadFile(merged)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("merged shards differ from one run:\n%s\nvs\n%s", b, a)
	}
	if n := strings.Count(string(a), "\n"); n != 1+16*15/2 {
		t.Errorf("%d lines, want a header and 120 pairs", n)
	}
	clusterArgs := []string{"cluster", "--dataset", "MUTAG", "--subset", "16", "--layers", "5", "--method", "fgwk", "--runs", "2", "--json", "-q"}
	computed, _ := mustRun(t, clusterArgs...)
	read, _ := mustRun(t, append(clusterArgs, "--distances", one)...)
	for _, key := range []string{"accuracy", "nmi"} {
		if c, r := decodeJSON(t, computed)[key], decodeJSON(t, read)[key]; c == nil || !equalJSON(c, r) {
			t.Errorf("%s: computed %v, from --distances %v", key, c, r)
		}
	}
	if g, ok := decodeJSON(t, read)["gwds"]; ok && g != 0.0 { // omitted when 0
		t.Errorf("with --distances FGWK computed %v GWDs, want 0", g)
	}
	for _, args := range [][]string{
		{"cluster", "--dataset", "MUTAG", "--subset", "16", "--distances", one}, // not fgwk
		{"pairwise", "--dataset", "MUTAG", "--shard", "1/2"},                    // a part needs a file name
		{"pairwise", "--dataset", "MUTAG", "--shard", "2/2", "--output", out},   // no such shard
	} {
		if _, _, code := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	// Discrepancies of other data (another subset) are refused, not silently misused.
	if _, stderr, code := runCLI(t, "cluster", "--dataset", "MUTAG", "--subset", "16", "--subset-seed", "2", "--method", "fgwk", "--distances", one, "-q"); code == 0 || !strings.Contains(stderr, "other data") {
		t.Errorf("other subset: exit %d, %s", code, stderr)
	}
}

func equalJSON(a, b any) bool {
	var x, y bytes.Buffer
	writeJSON(&x, a)
	writeJSON(&y, b)
	return x.String() == y.String()
}
