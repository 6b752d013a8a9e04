package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs/collection/dataflags"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/layers/pairwise"
)

// TestPairwiseShardsMergeToOneRun: three shards of 'gwf pairwise' (one from a Slurm array's
// environment), merged, are byte for byte one run's list (--long), and FGWK clusters from that
// file exactly as it does computing the discrepancies itself.
func TestPairwiseShardsMergeToOneRun(t *testing.T) {
	dir := t.TempDir()
	common := []string{"--dataset", "MUTAG", "--subset", "16", "--layers", "5", "-q"}
	one := filepath.Join(dir, "one.csv")
	mustRun(t, append([]string{"pairwise", "--output", one, "--long"}, common...)...)
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
		if _, _, code := runCLI(t, args...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, cli.ExitUsage)
		}
	}
	// Discrepancies of other data (another subset) are refused, not silently misused.
	if _, stderr, code := runCLI(t, "cluster", "--dataset", "MUTAG", "--subset", "16", "--subset-seed", "2", "--method", "fgwk", "--distances", one, "-q"); code == 0 || !strings.Contains(stderr, "other data") {
		t.Errorf("other subset: exit %d, %s", code, stderr)
	}
}

func equalJSON(a, b any) bool {
	var x, y bytes.Buffer
	cli.WriteJSON(&x, a)
	cli.WriteJSON(&y, b)
	return x.String() == y.String()
}

// TestPairwiseNPY: --output FILE.npy, FILE.npz and FILE.csv write the square matrix of the same
// discrepancies as the list of pairs (--long); cluster reads each; a matrix of other graphs,
// a shard or list of a .npy, and an unknown extension are refused.
func TestPairwiseNPY(t *testing.T) {
	dir := t.TempDir()
	common := []string{"--dataset", "MUTAG", "--subset", "8", "--layers", "5", "-q"}
	csvPath, npyPath := filepath.Join(dir, "pairs.csv"), filepath.Join(dir, "d.npy")
	mustRun(t, append([]string{"pairwise", "--output", csvPath, "--long"}, common...)...)
	mustRun(t, append([]string{"pairwise", "--output", npyPath}, common...)...)
	ds, err := (&dataFlags{Flags: dataflags.Flags{Dataset: "MUTAG", Features: "none", Subset: 8, SubsetSeed: 1, LimitFlags: dataflags.LimitFlags{MaxNodes: 5000, MaxMemory: 4}}}).load(logrus.New())
	if err != nil {
		t.Fatal(err)
	}
	want, err := pairwise.ReadFile(csvPath, ds.Graphs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pairwise.ReadFile(npyPath, ds.Graphs)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(got, want, 1e-12) {
		t.Fatalf("npy matrix %v, CSV %v", mat.Formatted(got), mat.Formatted(want))
	}
	for _, name := range []string{"d.npz", "d.csv"} {
		path := filepath.Join(dir, name)
		mustRun(t, append([]string{"pairwise", "--output", path}, common...)...)
		got, err := pairwise.ReadFile(path, ds.Graphs)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(got, want) {
			t.Errorf("%s: %v, the list of pairs %v", name, mat.Formatted(got), mat.Formatted(want))
		}
	}
	square, _ := os.ReadFile(filepath.Join(dir, "d.csv"))
	if header, _, _ := strings.Cut(string(square), "\n"); !strings.HasPrefix(header, "name,"+ds.Graphs[0].Name+",") || strings.Count(string(square), "\n") != 9 {
		t.Errorf("square CSV: header %q, %d lines", header, strings.Count(string(square), "\n"))
	}
	clusterArgs := []string{"cluster", "--dataset", "MUTAG", "--subset", "8", "--method", "fgwk", "--clusters", "2", "--runs", "1", "--json", "-q"}
	fromCSV, _ := mustRun(t, append(clusterArgs, "--distances", csvPath)...)
	fromNPY, _ := mustRun(t, append(clusterArgs, "--distances", npyPath)...)
	if !equalJSON(decodeJSON(t, fromCSV)["nmi"], decodeJSON(t, fromNPY)["nmi"]) {
		t.Errorf("cluster from the npy: %s, from the CSV: %s", fromNPY, fromCSV)
	}
	bad := []string{"cluster", "--dataset", "MUTAG", "--subset", "9", "--method", "fgwk", "--runs", "1", "-q", "--distances", npyPath}
	if _, stderr, code := runCLI(t, bad...); code == 0 || !strings.Contains(stderr, "for 9 graphs") {
		t.Errorf("an 8×8 matrix for 9 graphs: exit %d, %s", code, stderr)
	}
	for _, extra := range [][]string{{"--output", npyPath, "--shard", "0/2"}, {"--output", npyPath, "--long"}, {"--output", filepath.Join(dir, "d.txt")}} {
		if _, _, code := runCLI(t, append(append([]string{"pairwise"}, extra...), common...)...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d", extra, code, cli.ExitUsage)
		}
	}
}
