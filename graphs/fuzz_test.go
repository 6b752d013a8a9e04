package graphs

import (
	"bytes"
	"compress/gzip"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// The fuzz targets feed arbitrary bytes to every reader. Invariants: no panic and no hang;
// nothing allocated beyond the (small) limits given; an error names the file; a graph that is
// returned is valid. CI runs each for a bounded time (.ci/run); the seed corpus is the f.Add
// calls plus testdata/fuzz/<target>/.

// fuzzLimits keep a fuzzed reader's allocations small: 64 nodes, 1 MiB of dense matrices.
var fuzzLimits = Limits{MaxNodes: 64, MaxDenseBytes: 1 << 20}

func checkFuzzedGraph(t *testing.T, g *Graph, err error, file string) {
	t.Helper()
	if err != nil {
		if !strings.Contains(err.Error(), file) {
			t.Fatalf("error does not name %s: %v", file, err)
		}
		return
	}
	if g.N() > fuzzLimits.MaxNodes {
		t.Fatalf("%d nodes, above the limit %d", g.N(), fuzzLimits.MaxNodes)
	}
	if err := g.Validate(); err != nil {
		t.Fatalf("reader returned an invalid graph: %v", err)
	}
}

func FuzzReadJSON(f *testing.F) {
	f.Add([]byte(`{"adjacency": [[0,1],[1,0]]}`))
	f.Add([]byte(`{"adjacency": [[0,2.5,0],[1,0,0],[0,0,0]], "mu": [0.2,0.3,0.5], "features": [[1],[2],[3]]}`))
	f.Add([]byte(`{"adjacency": [[0,1],[1]]}`))
	f.Add([]byte(`{"adjacency": [[0,-1],[1,0]], "mu": [1, 0]}`))
	f.Add([]byte(`{"adjacency": [[0,1],[1,0]], "edge_labels": [[0,3],[2,0]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ReadJSON(bytes.NewReader(data), "fuzz.json", fuzzLimits)
		checkFuzzedGraph(t, g, err, "fuzz.json")
	})
}

func FuzzReadEdgeList(f *testing.F) {
	f.Add([]byte("0 1\n1 2 0.5\n# comment\n"), false, 0)
	f.Add([]byte("0 1\n1 0 2\n"), true, 4)
	f.Add([]byte("0 99999999\n"), false, 0)
	f.Add([]byte("a b c d\n"), false, 0)
	f.Fuzz(func(t *testing.T, data []byte, directed bool, nodes int) {
		g, err := ReadEdgeList(bytes.NewReader(data), "fuzz.txt", EdgeListOptions{Directed: directed, Nodes: nodes, Limits: fuzzLimits})
		checkFuzzedGraph(t, g, err, "fuzz.txt")
	})
}

func gzipped(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// tuErrorPlace is how TU errors name the file and the 1-based line ("D/D_A.txt:3: ..."); the
// only others are whole-dataset size refusals, which say which limit to raise.
var tuErrorPlace = regexp.MustCompile(`D/D_[A-Za-z_]+\.txt(\.gz)?:[0-9]+: |raise Limits\.`)

func FuzzReadTU(f *testing.F) {
	f.Add([]byte("1, 2\n2, 1\n2, 3\n3, 2\n4, 5\n5, 4\n"), []byte("1\n1\n1\n2\n2\n"), []byte("1\n-1\n"), []byte("0\n1\n0\n1\n1\n"), []byte("0.5, 1\n1, 2\n0, 0\n3, 1\n2, 2\n"))
	f.Add([]byte("1, 2\n"), []byte("1\n1\n"), []byte("7\n"), []byte(""), []byte(""))
	f.Add(gzipped("1, 2\n2, 1\n"), []byte("1\n1\n"), []byte("0\n"), []byte(""), []byte(""))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0}, []byte("1\n1\n"), []byte("0\n"), []byte(""), []byte(""))
	f.Add([]byte("1, 9\n"), []byte("2\n1\n"), []byte("1\n1\n"), []byte("x\n"), []byte("1,\n"))
	f.Fuzz(func(t *testing.T, a, indicator, labels, nodeLabels, attrs []byte) {
		aName := "D/D_A.txt"
		if bytes.HasPrefix(a, []byte{0x1f, 0x8b}) { // gzip magic: exercise the .gz path
			aName += ".gz"
		}
		fsys := fstest.MapFS{
			aName:                     {Data: a},
			"D/D_graph_indicator.txt": {Data: indicator},
			"D/D_graph_labels.txt":    {Data: labels},
			"D/D_node_labels.txt":     {Data: nodeLabels},
			"D/D_node_attributes.txt": {Data: attrs},
		}
		// The node labels serve as edge labels too (one line per adjacency line, or not).
		fsys["D/D_edge_labels.txt"] = &fstest.MapFile{Data: nodeLabels}
		for _, kind := range []FeatureKind{FeaturesNone, FeaturesLabels, FeaturesAttributes, FeaturesDegrees} {
			ds, err := ReadTU(fsys, "D", "D", TUOptions{Features: kind, Limits: fuzzLimits, EdgeLabels: kind == FeaturesNone})
			if err != nil {
				if !tuErrorPlace.MatchString(err.Error()) {
					t.Fatalf("error does not name the file and line: %v", err)
				}
				continue
			}
			for _, g := range ds.Graphs {
				checkFuzzedGraph(t, g, nil, "")
				if g.HasLabel && (g.Label < 0 || g.Label >= len(ds.Classes)) {
					t.Fatalf("graph %s: label %d outside the %d classes", g.Name, g.Label, len(ds.Classes))
				}
			}
		}
	})
}
