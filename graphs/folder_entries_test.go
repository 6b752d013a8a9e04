//go:build unix

package graphs

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readFolderWithin runs ReadFolder(dir), failing the test if it has not returned within a few
// seconds (a read blocked on a named pipe), which it then unblocks by opening pipes for
// writing.
func readFolderWithin(t *testing.T, dir string, pipes ...string) (*Dataset, error) {
	t.Helper()
	type result struct {
		ds  *Dataset
		err error
	}
	done := make(chan result, 1)
	go func() {
		ds, err := ReadFolder(dir, FolderOptions{})
		done <- result{ds, err}
	}()
	select {
	case r := <-done:
		return r.ds, r.err
	case <-time.After(10 * time.Second):
		for _, p := range pipes { // a writer that closes at once ends the blocked read
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
		t.Fatalf("ReadFolder(%s) still reading after 10 s: it opened a named pipe", dir)
		return nil, nil
	}
}

// TestReadFolderRefusesNamedPipes: a named pipe in a graph folder, its class folders, as its
// labels.csv or given for the folder is refused by name, without being opened (which would
// block until a writer comes).
func TestReadFolderRefusesNamedPipes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		pipe  string // made a named pipe, slash-separated under the folder
		given string // the path given to ReadFolder under the folder, "" the folder itself
	}{
		{"a graph file", map[string]string{"a.json": `{"adjacency": [[0]]}`}, "f.json", ""},
		{"a graph file of no known format", map[string]string{"a.json": `{"adjacency": [[0]]}`}, "f", ""},
		{"labels.csv", map[string]string{"a.json": `{"adjacency": [[0]]}`}, "labels.csv", ""},
		{"nodes.csv", map[string]string{"a.txt": "0 1\n"}, "nodes.csv", ""},
		{"in a class folder", map[string]string{"ring/a.json": `{"adjacency": [[0]]}`}, "star/f.json", ""},
		{"given for the folder", nil, "f.json", "f.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, tc.files)
			pipe := filepath.Join(dir, filepath.FromSlash(tc.pipe))
			if err := os.MkdirAll(filepath.Dir(pipe), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(pipe, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			_, err := readFolderWithin(t, filepath.Join(dir, tc.given), pipe)
			want := pipe + ": a named pipe (FIFO), not a regular file"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v, want %q", err, want)
			}
		})
	}
}

// TestReadFolderSymlinks: a symbolic link whose target lies outside the folder is refused by
// name, and no line of its target is quoted; a link to a file within the folder, or to one of
// another class folder, is read as that file.
func TestReadFolderSymlinks(t *testing.T) {
	const secret = "root:x:0:0:Manager:/var/list"
	outside := writeFiles(t, map[string]string{"passwd.txt": secret + "\n", "g.json": `{"adjacency": [[0]]}`})
	for _, tc := range []struct {
		name   string
		files  map[string]string
		link   string // slash-separated under the folder
		target string // relative to the link's folder; "OUT/" is the outside folder, "REL/" the same relative to the link
		want   string // error; "" for none
		graphs int
	}{
		{"to a text file outside", map[string]string{"a.json": `{"adjacency": [[0]]}`}, "passwd.txt", "OUT/passwd.txt", "passwd.txt: a symbolic link that leaves the folder", 0},
		{"to a graph outside", map[string]string{"a.json": `{"adjacency": [[0]]}`}, "b.json", "OUT/g.json", "b.json: a symbolic link that leaves the folder", 0},
		{"relative, out of the folder", map[string]string{"a.json": `{"adjacency": [[0]]}`}, "b.json", "REL/g.json", "b.json: a symbolic link that leaves the folder", 0},
		{"labels.csv outside", map[string]string{"a.json": `{"adjacency": [[0]]}`}, "labels.csv", "OUT/passwd.txt", "labels.csv: a symbolic link that leaves the folder", 0},
		{"in a class folder, outside", map[string]string{"ring/a.json": `{"adjacency": [[0]]}`}, "star/b.txt", "OUT/passwd.txt", "b.txt: a symbolic link that leaves the folder", 0},
		{"leading nowhere", map[string]string{"a.json": `{"adjacency": [[0]]}`}, "b.json", "missing.json", "b.json: a symbolic link that cannot be followed", 0},
		{"within the folder", map[string]string{"a.json": `{"adjacency": [[0]]}`}, "b.json", "a.json", "", 2},
		{"within, through a subfolder", map[string]string{"a.json": `{"adjacency": [[0]]}`, "keep/c.json": `{"adjacency": [[0]]}`}, "b.json", "keep/c.json", "", 2},
		{"to another class folder", map[string]string{"ring/a.json": `{"adjacency": [[0]]}`, "star/c.json": `{"adjacency": [[0]]}`}, "star/b.json", "../ring/a.json", "", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, tc.files)
			link := filepath.Join(dir, filepath.FromSlash(tc.link))
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			target := filepath.FromSlash(tc.target)
			if rest, ok := strings.CutPrefix(tc.target, "OUT/"); ok {
				target = filepath.Join(outside, rest)
			}
			if rest, ok := strings.CutPrefix(tc.target, "REL/"); ok {
				rel, err := filepath.Rel(filepath.Dir(link), outside)
				if err != nil {
					t.Fatal(err)
				}
				target = filepath.Join(rel, rest)
			}
			if err := os.Symlink(target, link); err != nil {
				t.Skipf("symlink: %v", err)
			}
			ds, err := readFolderWithin(t, dir)
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want == "" && len(ds.Graphs) != tc.graphs:
				t.Errorf("%d graphs, want %d", len(ds.Graphs), tc.graphs)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want %q", err, tc.want)
			case err != nil && strings.Contains(err.Error(), "Manager"):
				t.Errorf("the error quotes the file outside: %v", err)
			}
		})
	}
}
