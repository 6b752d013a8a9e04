package graphs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzTUScanner feeds arbitrary adjacency, indicator, graph-label and attribute files to
// TUScanner and to ReadTUPath. Invariants: no panic or hang; errors name a file of the dataset;
// when the scanner reads every graph, ReadTUPath succeeds too (the scanner accepts less, never
// more) and gives the same graphs.
func FuzzTUScanner(f *testing.F) {
	f.Add("1, 2\n2, 1\n3, 4\n", "1\n1\n2\n2\n", "0\n1\n", "1.5\n2\n3\n-4\n")
	f.Add("3, 4\n1, 2\n", "1\n1\n2\n2\n", "", "")
	f.Add("1, 3\n", "1\n1\n2\n", "5\n", "1\n\n2\n")
	f.Add("1,1\n", "1\n", "7\n", "1, 2\n")
	f.Add("1, 2\n", "1\n1\n", "0\n", "1\n2\n\n3\n")
	f.Add("1, 2\n", "1\n1\n", "0\n", "1\n2\n3\n")
	f.Fuzz(func(t *testing.T, a, ind, labels, attrs string) {
		dir := filepath.Join(t.TempDir(), "F")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{"F_A.txt": a, "F_graph_indicator.txt": ind, "F_graph_labels.txt": labels, "F_node_attributes.txt": attrs}
		for name, text := range files {
			if text == "" && (name == "F_graph_labels.txt" || name == "F_node_attributes.txt") {
				continue
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		opt := TUOptions{Limits: fuzzLimits}
		if attrs != "" {
			opt.Features = FeaturesAttributes
		}
		var got []*Graph
		s, err := NewTUScanner(dir, opt)
		if err == nil {
			for {
				var g *Graph
				g, err = s.Next()
				if err != nil {
					break
				}
				got = append(got, g)
			}
			s.Close()
			if errors.Is(err, io.EOF) {
				err = nil
			}
		}
		if err != nil {
			if !strings.Contains(err.Error(), "F_") {
				t.Fatalf("error names no file of the dataset: %v", err)
			}
			return
		}
		want, err := ReadTUPath(dir, opt)
		if err != nil {
			// The scanner checks limits graph by graph, ReadTU on the whole.
			if strings.Contains(err.Error(), "limit") {
				return
			}
			t.Fatalf("the scanner read %d graphs, ReadTUPath failed: %v", len(got), err)
		}
		sameGraphs(t, "fuzzed", got, want.Graphs)
	})
}
