package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// onlyFiles fails when dir holds anything but the names given (a temporary file left behind).
func onlyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}

func TestNewAndReplacedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteFile(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
		t.Errorf("new file has mode %v, want 0644", info.Mode().Perm())
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, path); got != "two" {
		t.Errorf("file holds %q", got)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("replaced file has mode %v, want its old 0600", info.Mode().Perm())
	}
	onlyFiles(t, dir, "out.txt")
}

func TestFailedWriteKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteFile(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half of the new")
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Errorf("error %v: want boom, naming the path", err)
	}
	if got := readString(t, path); got != "old" {
		t.Errorf("file holds %q after a failed write", got)
	}
	onlyFiles(t, dir, "out.txt")
}

// TestSymlinkIsFollowed: the link stays a link; its target (through a chain of two links, one
// relative) gets the new contents; a dangling link creates its target.
func TestSymlinkIsFollowed(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "sub", "target.txt")
	if err := os.Mkdir(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	mid := filepath.Join(dir, "mid")
	link := filepath.Join(dir, "link")
	if err := os.Symlink("sub/target.txt", mid); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(mid, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{link, mid} {
		if info, err := os.Lstat(p); err != nil || info.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link (%v)", p, err)
		}
	}
	if got := readString(t, target); got != "new" {
		t.Errorf("target holds %q", got)
	}
	onlyFiles(t, filepath.Dir(target), "target.txt")

	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("created.txt", dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dangling, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(dir, "created.txt")); got != "x" {
		t.Errorf("dangling link's target holds %q", got)
	}
	if info, err := os.Lstat(dangling); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the dangling link was replaced (%v)", err)
	}
}

func TestSymlinkLoopIsRefused(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.Symlink(b, a); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(a, b); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(a, []byte("x")); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("a loop of links: %v", err)
	}
}

func TestFolderIsRefused(t *testing.T) {
	dir := t.TempDir()
	err := WriteFile(dir, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("writing to a folder: %v", err)
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		t.Errorf("the folder is gone (%v)", err)
	}
}

// TestDeviceIsWrittenInPlace: /dev/null stays the character device it is.
func TestDeviceIsWrittenInPlace(t *testing.T) {
	const null = "/dev/null"
	before, err := os.Lstat(null)
	if err != nil || before.Mode()&fs.ModeCharDevice == 0 {
		t.Skip("no /dev/null character device here")
	}
	// Through a symbolic link too, as "-o link-to-null" would.
	link := filepath.Join(t.TempDir(), "null")
	if err := os.Symlink(null, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{null, link} {
		if err := WriteFile(p, []byte("discarded")); err != nil {
			t.Fatal(err)
		}
	}
	after, err := os.Lstat(null)
	if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
		t.Fatalf("/dev/null changed: %v → %v (%v)", before.Mode(), after.Mode(), err)
	}
}
