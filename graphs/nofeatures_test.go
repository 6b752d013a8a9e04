package graphs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrNoFeatures: asking for features the data do not have wraps ErrNoFeatures (callers
// then read without); features that are there but unusable do not.
func TestErrNoFeatures(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.json", `{"adjacency": [[0,1],[1,0]]}`)
	write("b.edges", "0 1\n")
	write("c.json", `{"adjacency": [[0,1],[1,0]]}`)
	if _, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes}); !errors.Is(err, ErrNoAttributes) || !errors.Is(err, ErrNoFeatures) {
		t.Errorf("a folder without features: %v, want ErrNoAttributes, an ErrNoFeatures", err)
	}
	// Some graphs with attributes, some without: an error naming one of each whichever comes
	// first, and no ErrNoFeatures (a caller must not read on without them).
	for _, c := range []struct{ with, without, want string }{
		{"c.json", "a.json", "a.json: no numeric node attributes, while c.json has 1"},
		{"a.json", "c.json", "b.edges: no numeric node attributes, while a.json has 1"},
	} {
		write(c.without, `{"adjacency": [[0,1],[1,0]]}`)
		write(c.with, `{"adjacency": [[0,1],[1,0]], "features": [[1],[2]]}`)
		_, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes})
		if err == nil || errors.Is(err, ErrNoFeatures) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s with attributes, %s without: %v, want %q", c.with, c.without, err, c.want)
		}
	}
	for _, f := range []string{"b.edges", "c.json"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	write("b.json", `{"adjacency": [[0,1],[1,0]], "features": [[1],[2]]}`)
	write("a.json", `{"adjacency": [[0,1],[1,0]], "features": [[1,0],[2,0]]}`)
	if _, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes}); err == nil || errors.Is(err, ErrNoFeatures) {
		t.Errorf("features of two widths: %v, want another error", err)
	}
	// TINY without its attribute file.
	tu := filepath.Join(t.TempDir(), "TINY")
	if err := os.Mkdir(tu, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"A", "graph_indicator", "graph_labels", "node_labels"} {
		b, err := os.ReadFile(filepath.Join("testdata", "tu", "TINY", "TINY_"+f+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tu, "TINY_"+f+".txt"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ReadTUPath(tu, TUOptions{Features: FeaturesAttributes}); !errors.Is(err, ErrNoFeatures) {
		t.Errorf("TU data without attributes: %v, want ErrNoFeatures", err)
	}
	if _, err := ReadTUPath(tu, TUOptions{Features: FeaturesLabels}); err != nil {
		t.Errorf("TU data with node labels: %v", err)
	}
}
