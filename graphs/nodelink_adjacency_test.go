package graphs

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestReadNodeLinkAdjacency: networkx's adjacency JSON (adjacency_data) gives the graph its
// node-link JSON gives — weights, features, the label, multigraphs, directions — as written
// by networkx 2.8 for the same graphs.
func TestReadNodeLinkAdjacency(t *testing.T) {
	for _, tc := range []struct{ name, adjacency, nodeLink string }{
		{"weighted, features, label",
			`{"directed": false, "multigraph": false, "graph": [["label", 1]], "nodes": [{"charge": 1.0, "id": "a"}, {"charge": 2.0, "id": "b"}, {"charge": 3.0, "id": "c"}, {"charge": 0.5, "id": "d"}], "adjacency": [[{"weight": 2.0, "id": "b"}], [{"weight": 2.0, "id": "a"}, {"id": "c"}], [{"id": "b"}], []]}`,
			`{"directed": false, "multigraph": false, "graph": {"label": 1}, "nodes": [{"charge": 1.0, "id": "a"}, {"charge": 2.0, "id": "b"}, {"charge": 3.0, "id": "c"}, {"charge": 0.5, "id": "d"}], "links": [{"weight": 2.0, "source": "a", "target": "b"}, {"source": "b", "target": "c"}]}`},
		{"multigraph with a self-loop",
			`{"directed": false, "multigraph": true, "graph": [], "nodes": [{"id": 0}, {"id": 1}], "adjacency": [[{"id": 1, "key": 0}, {"weight": 2.5, "id": 1, "key": 1}], [{"id": 0, "key": 0}, {"weight": 2.5, "id": 0, "key": 1}, {"id": 1, "key": 0}]]}`,
			`{"directed": false, "multigraph": true, "graph": {}, "nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 1, "key": 0}, {"weight": 2.5, "source": 0, "target": 1, "key": 1}, {"source": 1, "target": 1, "key": 0}]}`},
		{"directed",
			`{"directed": true, "multigraph": false, "graph": [], "nodes": [{"id": 0}, {"id": 1}, {"id": 2}], "adjacency": [[{"weight": 3, "id": 1}], [], [{"id": 1}]]}`,
			`{"directed": true, "multigraph": false, "graph": {}, "nodes": [{"id": 0}, {"id": 1}, {"id": 2}], "links": [{"weight": 3, "source": 0, "target": 1}, {"source": 2, "target": 1}]}`},
	} {
		opt := NodeLinkOptions{Attributes: true}
		a, err := ReadNodeLink(strings.NewReader(tc.adjacency), "a.json", opt)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b, err := ReadNodeLink(strings.NewReader(tc.nodeLink), "b.json", opt)
		if err != nil {
			t.Fatalf("%s (node-link): %v", tc.name, err)
		}
		if !mat.Equal(a.Dense(), b.Dense()) || (a.F == nil) != (b.F == nil) || a.F != nil && !mat.Equal(a.F, b.F) || a.HasLabel != b.HasLabel || a.Label != b.Label {
			t.Errorf("%s: adjacency form\n%v F %v label %d %v\nnode-link form\n%v F %v label %d %v", tc.name,
				mat.Formatted(a.Dense()), a.F, a.Label, a.HasLabel, mat.Formatted(b.Dense()), b.F, b.Label, b.HasLabel)
		}
	}
	for _, bad := range []struct{ in, want string }{
		{`{"nodes": [{"id": 0}, {"id": 1}], "adjacency": [[{"id": 1}]]}`, `"adjacency" has 1 lists for 2 nodes`},
		{`{"nodes": [{"id": 0}, {"id": 1}], "adjacency": [[{"id": 2}], []]}`, "adjacency[0][0]: 2 is not the id of a node"},
		{`{"nodes": [{"id": 0}, {"id": 1}], "adjacency": [[{"id": 1, "weight": -1}], []]}`, "not a finite non-negative number"},
		{`{"nodes": [{"id": 0}], "adjacency": [{"id": 0}]}`, "want a list of neighbours"},
		{`{"nodes": [{"id": 0}], "adjacency": [[]], "graph": [["label"]]}`, "not a [key, value] pair"},
		{`{"nodes": [{"id": 0}], "adjacency": [[]], "graph": 3}`, "neither an object nor a list"},
	} {
		if _, err := ReadNodeLink(strings.NewReader(bad.in), "x.json", NodeLinkOptions{}); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want %q", bad.in, err, bad.want)
		}
	}
}
