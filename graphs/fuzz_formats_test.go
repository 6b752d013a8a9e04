package graphs

import (
	"bytes"
	"testing"
)

// Fuzz targets of the readers added for graph folders; the invariants are those of
// fuzz_test.go.

func FuzzReadNodeLink(f *testing.F) {
	f.Add([]byte(`{"nodes": [{"id": "a", "x": 1}, {"id": "b", "x": 2}], "links": [{"source": "a", "target": "b", "weight": 2}]}`), true)
	f.Add([]byte(`{"directed": true, "multigraph": true, "graph": {"label": 1}, "nodes": [{"id": 0}, {"id": 1}], "edges": [{"source": 0, "target": 1}, {"source": 0, "target": 1}]}`), false)
	f.Add([]byte(`{"nodes": [{"id": 1, "v": [1, 2]}, {"id": "1", "v": [3]}]}`), true)
	f.Add([]byte(`{"nodes": [{"id": null}], "links": [{"source": 1}]}`), false)
	f.Fuzz(func(t *testing.T, data []byte, attributes bool) {
		g, err := ReadNodeLink(bytes.NewReader(data), "fuzz.json", NodeLinkOptions{Attributes: attributes, Limits: fuzzLimits})
		checkFuzzedGraph(t, g, err, "fuzz.json")
	})
}

func FuzzReadEdgeListIDs(f *testing.F) {
	f.Add([]byte("alice bob\nbob carol 2\n"), uint8(NodeNames), false)
	f.Add([]byte("30 10\n10 20 0.5\n"), uint8(NodeNames), true)
	f.Add([]byte("1 2\n2 3\n"), uint8(OneBased), false)
	f.Add([]byte("1 2\n2 3\n"), uint8(ZeroBased), false)
	f.Fuzz(func(t *testing.T, data []byte, ids uint8, directed bool) {
		opt := EdgeListOptions{IDs: EdgeIDs(ids % 3), Directed: directed, Limits: fuzzLimits}
		g, err := ReadEdgeList(bytes.NewReader(data), "fuzz.txt", opt)
		checkFuzzedGraph(t, g, err, "fuzz.txt")
	})
}
