package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/internal/cli"
)

func TestCPUProfile(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.json", `{"adjacency": [[0,1,1],[1,0,1],[1,1,0]]}`)
	prof := filepath.Join(dir, "cpu.prof")
	mustRun(t, "gw", a, a, "--cpuprofile", prof)
	if fi, err := os.Stat(prof); err != nil || fi.Size() == 0 {
		t.Fatalf("profile not written: %v", err)
	}
	// A failing command still ends its profile; an unwritable path is a clear error.
	if _, _, code := runCLI(t, "gw", a, filepath.Join(dir, "missing.json"), "--cpuprofile", prof); code != cli.ExitError {
		t.Errorf("exit %d for a missing graph, want %d", code, cli.ExitError)
	}
	if _, stderr, code := runCLI(t, "gw", a, a, "--cpuprofile", filepath.Join(dir, "no", "such", "dir")); code != cli.ExitError || !strings.Contains(stderr, "--cpuprofile") {
		t.Errorf("exit %d for an unwritable profile path, want %d with a message naming the flag:\n%s", code, cli.ExitError, stderr)
	}
}
