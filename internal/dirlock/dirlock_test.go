package dirlock

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func hostname(t *testing.T) string {
	t.Helper()
	h, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// plant writes a lock file naming pid on host, as another run would have.
func plant(t *testing.T, dir string, pid int, host string) string {
	t.Helper()
	path := filepath.Join(dir, Name)
	if err := os.WriteFile(path, holder{pid, host}.encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAcquireRelease: the lock file is made (with the folder), names this process and host,
// and goes with Release; releasing twice does nothing, and the folder can be locked again.
func TestAcquireRelease(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "out")
	l, err := Acquire(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, Name))
	if err != nil {
		t.Fatal(err)
	}
	if h, ok := parse(b); !ok || h.pid != os.Getpid() || h.host != hostname(t) {
		t.Fatalf("the lock says %q", b)
	}
	if l.Path() != filepath.Join(dir, Name) {
		t.Errorf("Path() = %s", l.Path())
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(); err != nil {
		t.Fatalf("second release: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, Name)); !os.IsNotExist(err) {
		t.Fatalf("the lock is still there: %v", err)
	}
	l, err = Acquire(dir, nil)
	if err != nil {
		t.Fatalf("locked again: %v", err)
	}
	_ = l.Release()
}

// TestHeldLockRefused: a folder locked by a running process (this test's parent) is refused
// with an error naming the lock file and that process, and the lock is left as it was.
func TestHeldLockRefused(t *testing.T) {
	dir := t.TempDir()
	path := plant(t, dir, os.Getppid(), hostname(t))
	before, _ := os.ReadFile(path)
	l, err := Acquire(dir, func(msg string) { t.Errorf("warned: %s", msg) })
	var le *LockedError
	if l != nil || !errors.Is(err, ErrLocked) || !errors.As(err, &le) || le.PID != os.Getppid() {
		t.Fatalf("Acquire: lock %v, err %v; want a LockedError naming pid %d", l, err, os.Getppid())
	}
	for _, want := range []string{path, fmt.Sprint(os.Getppid()), hostname(t)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not name %s", err, want)
		}
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("the lock was changed to %q", after)
	}
}

// TestStaleLockTakenOver: the lock of a process of this host that has ended (a killed run) is
// taken over with a warning naming it; so is one naming this process's own pid (an earlier
// process with the same pid, as after a container restart).
func TestStaleLockTakenOver(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no portable check of a process")
	}
	child := exec.Command(os.Args[0], "-test.run=^$")
	if err := child.Run(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range []int{child.Process.Pid, os.Getpid()} {
		dir := t.TempDir()
		plant(t, dir, pid, hostname(t))
		var warned string
		l, err := Acquire(dir, func(msg string) { warned = msg })
		if err != nil {
			t.Fatalf("stale lock of pid %d: %v", pid, err)
		}
		if !strings.Contains(warned, fmt.Sprintf("process %d", pid)) {
			t.Errorf("stale lock of pid %d: warned %q", pid, warned)
		}
		b, _ := os.ReadFile(l.Path())
		if h, _ := parse(b); h.pid != os.Getpid() {
			t.Errorf("stale lock of pid %d: the lock now says %q", pid, b)
		}
		_ = l.Release()
	}
}

// TestForeignLocksRefused: a lock of another host is never taken over (its process cannot be
// checked from here), nor one that says nothing readable (being written, or damaged).
func TestForeignLocksRefused(t *testing.T) {
	for _, c := range []struct {
		name, content, says string
	}{
		{"other host", string(holder{1 << 22, "elsewhere.example"}.encode()), "on elsewhere.example"},
		{"empty", "", "another gwf run"},
		{"garbage", "\x00\x01", "another gwf run"},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, Name)
		if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Acquire(dir, nil)
		if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), "remove "+path) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestReleaseKeepsAnotherLock: a lock removed by hand and taken by another run meanwhile is
// not removed by the first run's Release.
func TestReleaseKeepsAnotherLock(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := plant(t, dir, os.Getppid(), hostname(t))
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the other run's lock was removed: %v", err)
	}
}

// TestAcquireAs: locks of other names in one folder (the shards of one run) do not exclude
// each other, one of the same name does, and a name with a path in it is refused.
func TestAcquireAs(t *testing.T) {
	dir := t.TempDir()
	a, err := AcquireAs(dir, ".gwf.shard-0-of-2.lock", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	b, err := AcquireAs(dir, ".gwf.shard-1-of-2.lock", nil)
	if err != nil {
		t.Fatalf("another shard: %v", err)
	}
	defer b.Release()
	plant(t, dir, os.Getppid(), hostname(t))
	if _, err := Acquire(dir, nil); !errors.Is(err, ErrLocked) {
		t.Errorf("the folder's own lock held: %v", err)
	}
	for _, name := range []string{"", "sub/x.lock", "../x.lock"} {
		if _, err := AcquireAs(dir, name, nil); err == nil || errors.Is(err, ErrLocked) {
			t.Errorf("name %q: %v", name, err)
		}
	}
}
