//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
)

// shardCorpus generates a small SBM corpus and trains a small model on a sample of it, in dir.
func shardCorpus(t *testing.T, dir string) (corpus, model string) {
	t.Helper()
	corpus, model = filepath.Join(dir, "SBM"), filepath.Join(dir, "m.model")
	mustRun(t, "generate", "sbm", "--count", "37", "--classes", "3", "--nodes", "6:12", "--seed", "4", "--output", corpus, "-q")
	mustRun(t, "fit", "--tu", corpus, "--subset", "12", "--atoms", "3", "--layers", "8", "--epochs", "1", "--output", model, "-q")
	return corpus, model
}

// startEmbed starts "gwf embed" in a child process with extra environment variables.
func startEmbed(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GWF_AS_COMMAND=1", "GWF_ARGS="+strings.Join(append([]string{"embed"}, args...), "\n"))
	cmd.Env = append(cmd.Env, env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("stderr of %v:\n%s", args, stderr.String())
		}
	})
	return cmd
}

// TestShardProcessesMergeToOneRun runs four shard processes side by side — two given --shard,
// one a Slurm array task, one a Kubernetes Indexed Job pod — and checks that 'gwf merge' of
// their parts is byte for byte the output of one 'gwf embed' of the whole corpus. A fifth run
// streams the whole corpus in chunks of 5 (--chunk) to the same bytes.
func TestShardProcessesMergeToOneRun(t *testing.T) {
	dir := t.TempDir()
	corpus, model := shardCorpus(t, dir)
	common := []string{"--model", model, "--tu", corpus, "--steps", "2", "--workers", "1", "-q"}
	one := filepath.Join(dir, "one.csv")
	mustRun(t, append([]string{"embed", "--output", one}, common...)...)

	out := filepath.Join(dir, "emb.csv")
	args := func(extra ...string) []string {
		return append(append([]string{"--output", out, "--chunk", "4"}, common...), extra...)
	}
	procs := []*exec.Cmd{
		startEmbed(t, nil, args("--shard", "0/4")...),
		startEmbed(t, nil, args("--shard", "3/4")...),
		startEmbed(t, []string{"SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=4", "SLURM_ARRAY_TASK_COUNT=4"}, args()...),
		startEmbed(t, []string{"JOB_COMPLETION_INDEX=2"}, args("--shards", "4")...),
	}
	for i, p := range procs {
		if err := p.Wait(); err != nil {
			t.Fatalf("shard process %d: %v", i, err)
		}
	}
	merged := filepath.Join(dir, "merged.csv")
	mustRun(t, "merge", "--output", merged, "-q",
		filepath.Join(dir, "emb.shard-3-of-4.csv"), filepath.Join(dir, "emb.shard-1-of-4.csv"),
		filepath.Join(dir, "emb.shard-0-of-4.csv"), filepath.Join(dir, "emb.shard-2-of-4.csv"))
	want, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(merged)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("merged shards differ from one run:\n%s\nwant\n%s", got, want)
	}
	if n := bytes.Count(want, []byte("\n")); n != 38 {
		t.Errorf("one run wrote %d lines, want a header and 37 rows", n)
	}
	// The same parts as .npz and .npy: the bytes of one run writing those formats.
	parts, _ := filepath.Glob(filepath.Join(dir, "emb.shard-*-of-4.csv"))
	for _, ext := range []string{".npz", ".npy"} {
		oneX := filepath.Join(dir, "one"+ext)
		mustRun(t, append([]string{"embed", "--output", oneX}, common...)...)
		mergedX := filepath.Join(dir, "merged"+ext)
		mustRun(t, append([]string{"merge", "--output", mergedX, "-q"}, parts...)...)
		a, _ := os.ReadFile(oneX)
		b, _ := os.ReadFile(mergedX)
		if !bytes.Equal(a, b) || len(a) == 0 {
			t.Errorf("%s: merged shards (%d bytes) differ from one run (%d bytes)", ext, len(b), len(a))
		}
	}
	if _, stderr, code := runCLI(t, append([]string{"merge", "--output", filepath.Join(dir, "x.npz"), one}, writeFile(t, dir, "bad.csv", "graph,label,lambda0,lambda1,lambda2\na,1,0.5,zero,0.5\n"))...); code != cli.ExitError || !strings.Contains(stderr, "bad.csv:2") {
		t.Errorf("merge to .npz of a part with a bad number: exit %d, %s", code, stderr)
	}
	stream := filepath.Join(dir, "stream.csv")
	mustRun(t, append([]string{"embed", "--output", stream, "--chunk", "5"}, common...)...)
	if got, _ := os.ReadFile(stream); !bytes.Equal(got, want) {
		t.Error("--chunk 5 over the whole corpus differs from one run")
	}
}

// TestEmbedShardFromEnv: the job-array variables choose the shard and name the part, in-process.
func TestEmbedShardFromEnv(t *testing.T) {
	dir := t.TempDir()
	corpus, model := shardCorpus(t, dir)
	out := filepath.Join(dir, "e.csv")
	common := []string{"embed", "--model", model, "--tu", corpus, "--steps", "1", "--output", out, "-q"}

	t.Setenv("JOB_COMPLETION_INDEX", "1")
	if _, stderr, code := runCLI(t, common...); code != cli.ExitUsage || !strings.Contains(stderr, "number of shards") {
		t.Errorf("JOB_COMPLETION_INDEX without --shards: exit %d, %s", code, stderr)
	}
	mustRun(t, append(common, "--shards", "2")...)
	part := filepath.Join(dir, "e.shard-1-of-2.csv")
	b, err := os.ReadFile(part)
	if err != nil {
		t.Fatal(err)
	}
	// Shard 1 of 2 of 37 graphs holds graphs 18..36, the TU graphs SBM#19..SBM#37.
	if n := bytes.Count(b, []byte("\n")); n != 20 || !bytes.Contains(b, []byte("\nSBM#19,")) || bytes.Contains(b, []byte("\nSBM#18,")) {
		t.Errorf("shard 1/2 wrote %d lines:\n%s", n, b)
	}
	if _, stderr, code := runCLI(t, append(common, "--shard", "0/1")...); code != cli.ExitOK {
		t.Errorf("--shard 0/1 should override the environment: exit %d, %s", code, stderr)
	} else if _, err := os.Stat(out); err != nil {
		t.Errorf("--shard 0/1 writes the output itself: %v", err)
	}

	t.Setenv("SLURM_ARRAY_TASK_ID", "0")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "3")
	mustRun(t, common...) // Slurm wins over JOB_COMPLETION_INDEX
	if _, err := os.Stat(filepath.Join(dir, "e.shard-0-of-3.csv")); err != nil {
		t.Errorf("Slurm task 0 of 3: %v", err)
	}
	t.Setenv("SLURM_ARRAY_TASK_STEP", "2")
	if _, stderr, code := runCLI(t, common...); code != cli.ExitUsage || !strings.Contains(stderr, "contiguous") {
		t.Errorf("a Slurm array with a step: exit %d, %s", code, stderr)
	}
}

func TestShardUsageErrors(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	part := writeFile(t, dir, "e.shard-0-of-2.csv", "graph,label,z0\na,1,0.5\n")
	other := writeFile(t, dir, "f.csv", "graph,label,z1\n")
	cases := map[string][]string{
		"shard out of range":    {"embed", "--model", model, "--dataset", "MUTAG", "--shard", "2/2", "--output", "e.csv"},
		"shard to stdout":       {"embed", "--model", model, "--dataset", "MUTAG", "--shard", "0/2"},
		"shard as npy":          {"embed", "--model", model, "--dataset", "MUTAG", "--shard", "0/2", "--output", "e.npy"},
		"shards disagree":       {"embed", "--model", model, "--dataset", "MUTAG", "--shard", "0/2", "--shards", "3", "--output", "e.csv"},
		"shards alone":          {"embed", "--model", model, "--dataset", "MUTAG", "--shards", "3", "--output", "e.csv"},
		"negative chunk":        {"embed", "--model", model, "--dataset", "MUTAG", "--chunk", "-1"},
		"merge a missing part":  {"merge", "--output", filepath.Join(dir, "m.csv"), part},
		"merge no parts":        {"merge", "--output", filepath.Join(dir, "m.csv")},
		"merge bad format":      {"merge", "--output", filepath.Join(dir, "m.csv"), "--format", "xls", other},
		"generate no output":    {"generate", "sbm", "--count", "3"},
		"generate bad model":    {"generate", "er", "--count", "3", "--output", filepath.Join(dir, "x")},
		"generate bad nodes":    {"generate", "ba", "--nodes", "9-3", "--output", filepath.Join(dir, "x")},
		"generate BA too small": {"generate", "ba", "--nodes", "2:5", "--classes", "2", "--output", filepath.Join(dir, "x")},
	}
	for name, args := range cases {
		if _, stderr, code := runCLI(t, args...); code != cli.ExitUsage {
			t.Errorf("%s: exit %d, want %d\n%s", name, code, cli.ExitUsage, stderr)
		}
	}
	// Runtime errors: parts of different runs, an existing generate output.
	if _, stderr, code := runCLI(t, "merge", "--output", filepath.Join(dir, "m.csv"), writeFile(t, dir, "a.csv", "graph,label,z0\n"), other); code != cli.ExitError || !strings.Contains(stderr, "header") {
		t.Errorf("merge of different headers: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "m.csv")); err == nil {
		t.Error("a failed merge left its output")
	}
	if _, stderr, code := runCLI(t, "generate", "sbm", "--count", "3", "--output", dir); code != cli.ExitError || !strings.Contains(stderr, "already exists") {
		t.Errorf("generate into an existing folder: exit %d, %s", code, stderr)
	}
}

// TestShardGraphFolder: shards of a graph folder with text class labels (labels.csv) merge to
// one run's output too.
func TestShardGraphFolder(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join("..", "..", "graphs", "testdata", "mixed")
	model := filepath.Join(dir, "m.gwf")
	mustRun(t, "fit", "--graphs", data, "--atoms", "2", "--atom-size", "3", "--layers", "8", "--epochs", "1", "--output", model, "-q")
	one := filepath.Join(dir, "one.csv")
	mustRun(t, "embed", "--model", model, "--graphs", data, "--transform", "--steps", "2", "--output", one, "-q")
	out := filepath.Join(dir, "e.csv")
	for i := range 4 {
		mustRun(t, "embed", "--model", model, "--graphs", data, "--steps", "2", "--shard", strconv.Itoa(i)+"/4", "--chunk", "1", "--output", out, "-q")
	}
	parts, _ := filepath.Glob(filepath.Join(dir, "e.shard-*-of-4.csv"))
	merged := filepath.Join(dir, "merged.csv")
	mustRun(t, append([]string{"merge", "--output", merged, "-q"}, parts...)...)
	want, _ := os.ReadFile(one)
	got, _ := os.ReadFile(merged)
	if !bytes.Equal(got, want) || !bytes.Contains(want, []byte(",cycle,")) {
		t.Fatalf("merged shards of a graph folder differ from one run:\n%s\nwant\n%s", got, want)
	}
}
