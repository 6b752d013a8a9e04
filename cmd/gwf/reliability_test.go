//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/training"
)

// TestFitIsByteIdentical: two identical fits write byte-identical model files (no wall-clock
// time in the file).
func TestFitIsByteIdentical(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.model"), filepath.Join(dir, "b.model")
	mustRun(t, fitArgs(a, "--epochs", "2")...)
	mustRun(t, fitArgs(b, "--epochs", "2", "--workers", "3")...)
	ba, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	bb, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ba, bb) {
		t.Error("two identical fits wrote different files")
	}
}

// TestTinyMemoryLimit: --max-memory 1e-10 is a limit (one byte), not the 4 GiB default.
func TestTinyMemoryLimit(t *testing.T) {
	for _, args := range [][]string{
		{"fit", "--dataset", "MUTAG", "--output", filepath.Join(t.TempDir(), "m"), "--max-memory", "1e-10"},
		{"gw", writeFile(t, t.TempDir(), "g.json", `{"adjacency": [[0, 1], [1, 0]]}`), writeFile(t, t.TempDir(), "h.json", `{"adjacency": [[0]]}`), "--max-memory", "1e-10"},
	} {
		_, stderr, code := runCLI(t, args...)
		if code != cli.ExitError || !strings.Contains(stderr, "limit of 1") {
			t.Errorf("%s: exit %d, stderr %q: want the 1-byte limit to refuse the data", args[0], code, stderr)
		}
	}
}

// TestOutputsKeepWhatIsAtThePath: embed and fit follow a symbolic link, write a FIFO and
// /dev/null in place, and refuse a folder; nothing at the path is replaced.
func TestOutputsKeepWhatIsAtThePath(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	mustRun(t, fitArgs(model)...)
	embed := func(out string) (string, int) {
		_, stderr, code := runCLI(t, "embed", "--model", model, "--dataset", "MUTAG", "--output", out, "--format", "csv", "--quiet")
		return stderr, code
	}

	target := filepath.Join(dir, "target.csv")
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink("target.csv", link); err != nil {
		t.Fatal(err)
	}
	if stderr, code := embed(link); code != cli.ExitOK {
		t.Fatalf("embed to a symbolic link: exit %d: %s", code, stderr)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced (%v)", err)
	}
	if b, err := os.ReadFile(target); err != nil || !strings.HasPrefix(string(b), "graph,") {
		t.Errorf("the link's target holds %.40q (%v)", b, err)
	}

	if info, err := os.Lstat(os.DevNull); err == nil && info.Mode()&fs.ModeCharDevice != 0 {
		if stderr, code := embed(os.DevNull); code != cli.ExitOK {
			t.Fatalf("embed to %s: exit %d: %s", os.DevNull, code, stderr)
		}
		_, stderr, code := runCLI(t, fitArgs(os.DevNull, "--force")...)
		if code != cli.ExitOK {
			t.Fatalf("fit to %s: exit %d: %s", os.DevNull, code, stderr)
		}
		if after, err := os.Lstat(os.DevNull); err != nil || after.Mode() != info.Mode() || !os.SameFile(info, after) {
			t.Fatalf("%s was replaced (%v)", os.DevNull, err)
		}
	}

	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	if stderr, code := embed(fifo); code != cli.ExitOK {
		t.Fatalf("embed to a FIFO: exit %d: %s", code, stderr)
	}
	if b := <-got; !strings.HasPrefix(string(b), "graph,") {
		t.Errorf("the FIFO's reader got %.40q", b)
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced (%v)", err)
	}

	if stderr, code := embed(dir); code != cli.ExitError || !strings.Contains(stderr, "is a folder") {
		t.Errorf("embed to a folder: exit %d: %s", code, stderr)
	}
}

// TestResumeRefusesModelWithoutOptimizer: a trained model without its Adam state cannot be
// resumed exactly, and fit says so instead of restarting Adam silently.
func TestResumeRefusesModelWithoutOptimizer(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.model")
	mustRun(t, fitArgs(model)...)
	m, err := training.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	m.Optimizer = nil
	if err := m.Save(model); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, fitArgs(model, "--resume", "--epochs", "2")...)
	if code != cli.ExitError || !strings.Contains(stderr, "no optimizer state") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// TestInterruptStopsInsideBatch: a fit whose one batch takes minutes (188 graphs, 1000 layers),
// started with SIGINT ignored (as a background job of a shell is), stops within seconds of one
// SIGINT with status 130 and a readable checkpoint: the batch in progress is dropped. (The
// second signal's abort is TestWatchSignals'.)
func TestInterruptStopsInsideBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs gwf in a child process")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	out := filepath.Join(t.TempDir(), "slow.model")
	args := []string{"fit", "--dataset", "MUTAG", "--output", out, "--layers", "1000", "--gwb-layers", "1000",
		"--batch", "188", "--workers", "1", "--epochs", "1"}
	cmd := exec.Command(sh, "-c", `trap "" INT; exec "$0" -test.run='^$'`, os.Args[0])
	cmd.Env = append(os.Environ(), "GWF_AS_COMMAND=1", "GWF_ARGS="+strings.Join(args, "\n"))
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(stderr.String(), "training on") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // inside the batch
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != cli.ExitInterrupted {
			t.Errorf("exit: %v, want status %d\n%s", err, cli.ExitInterrupted, stderr.String())
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 20 s after SIGINT\n%s", stderr.String())
	}
	if _, err := training.Load(out); err != nil {
		t.Errorf("the checkpoint is unreadable after the interrupt: %v", err)
	}
}
