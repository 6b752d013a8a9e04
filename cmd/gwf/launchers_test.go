//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// gwfWrapper writes a shell script that runs this test binary as the gwf command, so the
// launchers can call "$GWF".
func gwfWrapper(t *testing.T, dir string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "gwf")
	script := "#!/bin/sh\nGWF_AS_COMMAND=1 GWF_ARGS=\"$(printf '%s\\n' \"$@\")\" exec " + strconv.Quote(self) + " -test.run='^$'\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSlurmLauncher runs docs/scale/embed-array.slurm as the three tasks of a Slurm array would
// (side by side, with the variables Slurm sets), with a fake sbatch that records the merge job
// the last task submits; running that job gives the CSV of one 'gwf embed'.
func TestSlurmLauncher(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	corpus, model := shardCorpus(t, dir)
	gwf := gwfWrapper(t, dir)
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	submitted := filepath.Join(dir, "sbatch.log")
	fake := "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in --wrap=*) printf '%s\\n' \"${a#--wrap=}\" >> " + strconv.Quote(submitted) + ";; esac; done\n"
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "emb.csv")
	const n = 3
	var tasks []*exec.Cmd
	var logs []*bytes.Buffer
	for i := range n {
		cmd := exec.Command(bash, filepath.Join("..", "..", "docs", "scale", "embed-array.slurm"))
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "GWF="+gwf,
			"MODEL="+model, "CORPUS="+corpus, "OUT="+out, "SLURM_CPUS_PER_TASK=1", "SLURM_ARRAY_JOB_ID=77",
			"SLURM_ARRAY_TASK_ID="+strconv.Itoa(i), "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_MAX="+strconv.Itoa(n-1),
			"SLURM_ARRAY_TASK_COUNT="+strconv.Itoa(n), "SLURM_ARRAY_TASK_STEP=1")
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		tasks, logs = append(tasks, cmd), append(logs, &log)
	}
	for i, c := range tasks {
		if err := c.Wait(); err != nil {
			t.Fatalf("task %d: %v\n%s", i, err, logs[i])
		}
	}
	jobs, err := os.ReadFile(submitted)
	if err != nil || bytes.Count(jobs, []byte("\n")) != 1 {
		t.Fatalf("the tasks submitted %q (%v), want one merge job", jobs, err)
	}
	if b, err := exec.Command(bash, "-c", string(jobs)).CombinedOutput(); err != nil {
		t.Fatalf("merge job %s: %v\n%s", jobs, err, b)
	}
	one := filepath.Join(dir, "one.csv")
	mustRun(t, "embed", "--model", model, "--tu", corpus, "--output", one, "-q")
	want, _ := os.ReadFile(one)
	got, err := os.ReadFile(out)
	if err != nil || !bytes.Equal(got, want) || len(want) == 0 {
		t.Fatalf("the Slurm array's merged output (%v) differs from one run:\n%s\nwant\n%s", err, got, want)
	}
}

// TestIndexedJobManifest runs the command of docs/scale/embed-indexed-job.yaml as the Job's pods
// would (JOB_COMPLETION_INDEX 0..n-1, side by side; /data replaced by a test folder, fewer
// shards) and checks the merge equals one run; and that --shards repeats spec.completions.
func TestIndexedJobManifest(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "scale", "embed-indexed-job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	manifest := string(b)
	m := regexp.MustCompile(`(?s)command: \[(.*?)\]`).FindStringSubmatch(manifest)
	if m == nil {
		t.Fatal("no command: [...] in the manifest")
	}
	var args []string
	for _, q := range regexp.MustCompile(`"[^"]*"`).FindAllString(m[1], -1) {
		args = append(args, strings.Trim(q, `"`))
	}
	if len(args) < 2 || args[0] != "gwf" || args[1] != "embed" {
		t.Fatalf("the manifest runs %v, want gwf embed", args)
	}
	completions := regexp.MustCompile(`completions: (\d+)`).FindStringSubmatch(manifest)
	shards := -1
	for i, a := range args {
		if a == "--shards" && i+1 < len(args) {
			shards, _ = strconv.Atoi(args[i+1])
		}
	}
	if completions == nil || completions[1] != strconv.Itoa(shards) {
		t.Fatalf("spec.completions %v and --shards %d differ", completions, shards)
	}

	dir := t.TempDir()
	corpus, model := shardCorpus(t, dir)
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(model, filepath.Join(data, "corpus.model")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(corpus, filepath.Join(data, "SBM100K")); err != nil {
		t.Fatal(err)
	}
	const n = 3
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "/data", data)
		if i > 0 && args[i-1] == "--shards" {
			args[i] = strconv.Itoa(n)
		}
		if i > 0 && args[i-1] == "--workers" {
			args[i] = "1"
		}
	}
	var pods []*exec.Cmd
	for i := range n {
		pods = append(pods, startEmbed(t, []string{"JOB_COMPLETION_INDEX=" + strconv.Itoa(i)}, append(args[2:], "-q")...))
	}
	for i, p := range pods {
		if err := p.Wait(); err != nil {
			t.Fatalf("pod %d: %v", i, err)
		}
	}
	parts, _ := filepath.Glob(filepath.Join(data, "emb.shard-*-of-3.csv"))
	merged := filepath.Join(dir, "merged.csv")
	mustRun(t, append([]string{"merge", "--output", merged, "-q"}, parts...)...)
	one := filepath.Join(dir, "one.csv")
	mustRun(t, "embed", "--model", filepath.Join(data, "corpus.model"), "--tu", filepath.Join(data, "SBM100K"), "--output", one, "-q")
	want, _ := os.ReadFile(one)
	got, _ := os.ReadFile(merged)
	if len(parts) != n || !bytes.Equal(got, want) || len(want) == 0 {
		t.Fatalf("%d parts; the Job's merged output differs from one run:\n%s\nwant\n%s", len(parts), got, want)
	}
}
