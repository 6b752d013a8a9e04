package dirlock

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Name is the lock file's name in the folder.
const Name = ".gwf.lock"

// ErrLocked is wrapped by the error of Acquire when another run holds the folder.
var ErrLocked = errors.New("in use by another run")

// LockedError is the error of Acquire when another run holds the folder: the lock file and
// what it says of its holder (PID 0 and Host "" when it says nothing readable: a lock being
// written at that moment, or a damaged one).
type LockedError struct {
	Path string
	PID  int
	Host string
}

func (e *LockedError) Error() string {
	who := "another gwf run"
	if e.PID > 0 {
		who = fmt.Sprintf("gwf process %d on %s", e.PID, e.Host)
	}
	return fmt.Sprintf("%s: the folder is %v (%s holds the lock %s): wait for it to end or give another folder; if no such run is left, remove %s",
		filepath.Dir(e.Path), ErrLocked, who, e.Path, e.Path)
}

func (e *LockedError) Unwrap() error { return ErrLocked }

// Lock is a lock held on a folder.
type Lock struct {
	path string
	mine []byte // the lock file's content, to remove only a lock that is still ours
}

// Path is the lock file.
func (l *Lock) Path() string { return l.path }

// holder is what a lock file says of its process.
type holder struct {
	pid  int
	host string
}

func (h holder) encode() []byte { return fmt.Appendf(nil, "pid %d\nhost %s\n", h.pid, h.host) }

// parse reads a lock file's content; ok is false for anything else than encode's lines.
func parse(b []byte) (h holder, ok bool) {
	for line := range strings.Lines(string(b)) {
		key, val, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch key {
		case "pid":
			h.pid, _ = strconv.Atoi(val)
		case "host":
			h.host = val
		}
	}
	return h, h.pid > 0 && h.host != ""
}

// Acquire locks dir for this process, creating dir if needed. A lock of a process of this
// host that has ended is taken over, and warn (nil: none) is told so; any other lock gives a
// *LockedError.
func Acquire(dir string, warn func(msg string)) (*Lock, error) { return AcquireAs(dir, Name, warn) }

// AcquireAs is Acquire with the lock file called name: runs that share a folder on purpose
// (the shards of one run, each writing its own files) take locks of their own.
func AcquireAs(dir, name string, warn func(msg string)) (*Lock, error) {
	if name == "" || filepath.Base(name) != name {
		return nil, fmt.Errorf("lock %s: %q is not a file name", dir, name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	host, err := os.Hostname()
	if err != nil {
		return nil, fmt.Errorf("lock %s: the host name: %w", dir, err)
	}
	l := &Lock{path: filepath.Join(dir, name), mine: holder{os.Getpid(), host}.encode()}
	// Two rounds: the second after taking over a stale lock, in case another run took it first.
	for range 2 {
		err := l.create()
		if !errors.Is(err, fs.ErrExist) {
			return l, err // nil: locked
		}
		old, rerr := os.ReadFile(l.path)
		if errors.Is(rerr, fs.ErrNotExist) {
			continue // released meanwhile
		}
		if rerr != nil {
			return nil, fmt.Errorf("lock %s: %w", dir, rerr)
		}
		h, ok := parse(old)
		if !ok || h.host != host || alive(h.pid) {
			return nil, &LockedError{Path: l.path, PID: h.pid, Host: h.host}
		}
		// The lock of a process of this host that no longer runs (a killed run; or this
		// process's own pid, reused after a restart). Remove it only if it is still that lock.
		if cur, _ := os.ReadFile(l.path); !bytes.Equal(cur, old) {
			continue
		}
		if err := os.Remove(l.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("lock %s: remove the stale lock: %w", dir, err)
		}
		if warn != nil {
			warn(fmt.Sprintf("%s: took over the lock of gwf process %d on %s, which no longer runs (killed?)", l.path, h.pid, h.host))
		}
	}
	return nil, &LockedError{Path: l.path}
}

// create makes the lock file exclusively, with this process's pid and host.
func (l *Lock) create() error {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(l.mine)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(l.path)
		return fmt.Errorf("lock %s: %w", filepath.Dir(l.path), err)
	}
	return nil
}

// Release removes the lock file, unless it no longer holds this lock (removed by hand and
// taken by another run). Releasing twice, or a nil lock, does nothing.
func (l *Lock) Release() error {
	if l == nil || l.path == "" {
		return nil
	}
	path := l.path
	l.path = ""
	if cur, err := os.ReadFile(path); err != nil || !bytes.Equal(cur, l.mine) {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("unlock %s: %w", filepath.Dir(path), err)
	}
	return nil
}
