//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/internal/dirlock"
	"github.com/gwf-graphs/gwf/training/shard"
)

// TestOutputDirLocked: a command given an --output-dir that a running gwf holds stops at
// once with an error naming the lock and that process, and writes nothing there; a run that
// ends removes its own lock, and the lock of a killed run is taken over with a warning.
func TestOutputDirLocked(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	commands := map[string][]string{
		"classify": {"classify", "--dataset", "PROTEINS", "--subset", "16", "--folds", "2", "--inner-folds", "2",
			"--structure", "adjacency", "--wl", "0", "--feature-weight", "1", "-q", "--output-dir"},
		"cluster": {"cluster", "--dataset", "MUTAG", "--subset", "20", "--atoms", "2", "--layers", "3", "--epochs", "1",
			"-q", "--output-dir"},
	}
	for name, args := range commands {
		dir := t.TempDir()
		lock := filepath.Join(dir, dirlock.Name)
		// A run in progress: this test's parent process, on this host.
		if err := os.WriteFile(lock, fmt.Appendf(nil, "pid %d\nhost %s\n", os.Getppid(), host), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runCLI(t, append(args, dir)...)
		if code != cli.ExitError || !strings.Contains(stderr, lock) || !strings.Contains(stderr, fmt.Sprintf("process %d", os.Getppid())) {
			t.Fatalf("%s on a locked folder: exit %d: %s", name, code, stderr)
		}
		if files, _ := os.ReadDir(dir); len(files) != 1 {
			t.Errorf("%s on a locked folder wrote %d files", name, len(files)-1)
		}
		// The lock of a killed run (a pid that no longer runs: this process's own) is taken over.
		if err := os.WriteFile(lock, fmt.Appendf(nil, "pid %d\nhost %s\n", os.Getpid(), host), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code = runCLI(t, append(args, dir)...)
		if code != cli.ExitOK || !strings.Contains(stderr, "took over the lock") {
			t.Fatalf("%s after a killed run: exit %d: %s", name, code, stderr)
		}
		if _, err := os.Stat(lock); !os.IsNotExist(err) {
			t.Errorf("%s left its lock: %v", name, err)
		}
	}
}

// TestOutputDirLockShards: the shards of one run lock the folder they share under names of
// their own, so they run side by side, beside a lock of the whole folder.
func TestOutputDirLockShards(t *testing.T) {
	dir := t.TempDir()
	log := logrus.New()
	var releases []func()
	for _, sh := range []shard.Shard{{Index: 0, Count: 2}, {Index: 1, Count: 2}, shard.Whole()} {
		release, err := lockOutputDir(dir, sh, log)
		if err != nil {
			t.Fatalf("shard %v: %v", sh, err)
		}
		releases = append(releases, release)
	}
	if _, err := os.Stat(filepath.Join(dir, ".gwf.shard-1-of-2.lock")); err != nil {
		t.Errorf("shard 1/2's lock: %v", err)
	}
	for _, release := range releases {
		release()
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("%d locks left", len(files))
	}
}
