//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/training"
)

// TestMain lets a test re-run this binary as the gwf command (GWF_AS_COMMAND=1, arguments in
// GWF_ARGS, one per line), so that a real process can be killed mid-training.
func TestMain(m *testing.M) {
	if os.Getenv("GWF_AS_COMMAND") == "1" {
		os.Exit(run(context.Background(), strings.Split(os.Getenv("GWF_ARGS"), "\n"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// startCommand starts gwf with args in a child process.
func startCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GWF_AS_COMMAND=1", "GWF_ARGS="+strings.Join(args, "\n"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// waitForEpochs polls the checkpoint until it holds at least n epochs.
func waitForEpochs(t *testing.T, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if m, err := training.Load(path); err == nil && len(m.History) >= n {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("%s never reached %d epochs", path, n)
}

func sameModels(t *testing.T, a, b string) bool {
	t.Helper()
	ma, err := training.Load(a)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := training.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(ma.Z, mb.Z) || len(ma.History) != len(mb.History) {
		return false
	}
	for k := range ma.V {
		if !mat.Equal(ma.V[k], mb.V[k]) {
			return false
		}
	}
	return true
}

// TestKilledFitResumesExactly: a training process killed with SIGKILL (no chance to clean up)
// or stopped with SIGTERM, at some moment after its first checkpoint, leaves a readable
// checkpoint; `fit --resume` from it, with another number of workers, ends with exactly the
// model of an uninterrupted run.
func TestKilledFitResumesExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("trains several models in child processes")
	}
	dir := t.TempDir()
	train := []string{"fit", "--dataset", "MUTAG", "--subset", "60", "--atoms", "4", "--layers", "10",
		"--epochs", "5", "--batch", "8", "--seed", "3", "-q"}
	ref := filepath.Join(dir, "ref.model")
	mustRun(t, append(train, "--output", ref, "--workers", "2")...)
	for i, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM, syscall.SIGKILL} {
		out := filepath.Join(dir, sig.String()+string(rune('a'+i))+".model")
		child := startCommand(t, append(train, "--output", out, "--workers", "2")...)
		waitForEpochs(t, out, 1+i)
		time.Sleep(time.Duration(i*7) * time.Millisecond) // land at different moments of an epoch
		if err := child.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		err := child.Wait()
		if sig == syscall.SIGTERM {
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() != cli.ExitInterrupted && ee.ExitCode() != cli.ExitOK {
				t.Errorf("SIGTERM: exit %d, want %d", ee.ExitCode(), cli.ExitInterrupted)
			}
		}
		m, lerr := training.Load(out)
		if lerr != nil {
			t.Fatalf("after %v the checkpoint is unreadable: %v", sig, lerr)
		}
		if m.Partial != nil {
			t.Logf("%v after %d epochs and %d graphs", sig, len(m.History), m.Partial.Done)
		} else {
			t.Logf("%v after %d epochs", sig, len(m.History))
		}
		mustRun(t, append(train, "--output", out, "--resume", "--workers", "1")...)
		if !sameModels(t, out, ref) {
			t.Errorf("stopped by %v and resumed: the model differs from the uninterrupted run", sig)
		}
		entries, _ := filepath.Glob(filepath.Join(dir, "."+filepath.Base(out)+"*"))
		for _, e := range entries {
			os.Remove(e) // a kill during a save may leave a temporary file; it must not matter
		}
	}
}

// TestKilledClassifyResumesAtItsEpoch: a cross-validation with --output-dir killed with SIGKILL
// in the middle of a fold resumes that fold at its checkpoint (fold<f>.checkpoint.json) and
// reports what an uninterrupted run reports.
func TestKilledClassifyResumesAtItsEpoch(t *testing.T) {
	if testing.Short() {
		t.Skip("trains several models in child processes")
	}
	args := []string{"semisup", "--method", "gwf", "--dataset", "MUTAG", "--subset", "40", "--folds", "2", "--atoms", "3", "--layers", "5",
		"--epochs", "6", "--hidden", "4", "--head-steps", "20", "--json", "--seed", "2"}
	want, _ := mustRun(t, append(args, "-q")...)
	dir := filepath.Join(t.TempDir(), "cv")
	args = append(args, "--output-dir", dir)
	child := startCommand(t, append(args, "-q")...)
	deadline := time.Now().Add(2 * time.Minute)
	for _, err := os.Stat(filepath.Join(dir, "fold1.checkpoint.json")); err != nil; _, err = os.Stat(filepath.Join(dir, "fold1.checkpoint.json")) {
		if time.Now().After(deadline) {
			t.Fatal("fold 1 was never checkpointed")
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	_, finished := os.Stat(filepath.Join(dir, "fold1.json"))
	got, stderr := mustRun(t, args...)
	if finished != nil && !strings.Contains(stderr, "fold 1: resuming") {
		t.Errorf("killed in fold 1, the rerun did not resume it:\n%s", stderr)
	}
	a, b := decodeJSON(t, want), decodeJSON(t, got)
	for _, key := range []string{"accuracy", "baselines"} {
		if fmt.Sprint(a[key]) != fmt.Sprint(b[key]) {
			t.Errorf("%s: killed and resumed %v, uninterrupted %v", key, b[key], a[key])
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.checkpoint*")); len(m) != 0 {
		t.Errorf("checkpoints left after the run: %v", m)
	}
}
