package graphs

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestReadNodeLink(t *testing.T) {
	const in = `{"directed": false, "multigraph": false, "graph": {"label": 3},
		"nodes": [{"id": "x", "a": 1, "v": [2, 3], "s": "text"}, {"id": 1, "a": 4, "v": [5, 6], "s": null}, {"id": "1", "a": 7, "v": [8, 9]}],
		"links": [{"source": "x", "target": 1, "weight": 2.5}, {"source": 1, "target": "1", "key": 0}]}`
	g, err := ReadNodeLink(strings.NewReader(in), "g.json", NodeLinkOptions{Attributes: true})
	if err != nil {
		t.Fatal(err)
	}
	// 1 and "1" are different nodes, as in networkx.
	wantC := mat.NewDense(3, 3, []float64{0, 2.5, 0, 2.5, 0, 1, 0, 1, 0})
	if !mat.Equal(g.Dense(), wantC) {
		t.Errorf("C =\n%v", mat.Formatted(g.Dense()))
	}
	// Features: "a" then "v", by name; the string attribute is left out.
	wantF := mat.NewDense(3, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9})
	if g.F == nil || !mat.Equal(g.F, wantF) {
		t.Errorf("F = %v", g.F)
	}
	if !g.HasLabel || g.Label != 3 || g.Name != "g.json" {
		t.Errorf("label %d (%v), name %q", g.Label, g.HasLabel, g.Name)
	}
	g, err = ReadNodeLink(strings.NewReader(in), "g.json", NodeLinkOptions{})
	if err != nil || g.F != nil {
		t.Errorf("without Attributes: F %v, err %v", g.F, err)
	}
	// Directed multigraph: parallel links add up and keep their direction.
	const multi = `{"directed": true, "multigraph": true, "nodes": [{"id": 0}, {"id": 1}],
		"links": [{"source": 0, "target": 1, "weight": 1}, {"source": 0, "target": 1, "weight": 2}]}`
	g, err = ReadNodeLink(strings.NewReader(multi), "m.json", NodeLinkOptions{Attributes: true})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(g.Dense(), mat.NewDense(2, 2, []float64{0, 3, 0, 0})) || g.F != nil {
		t.Errorf("multigraph: C =\n%v, F %v", mat.Formatted(g.Dense()), g.F)
	}
}

func TestReadNodeLinkErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{``, "empty input"},
		{`{"links": []}`, `no "nodes" array`},
		{`{"nodes": []}`, `"nodes" is empty`},
		{`{"nodes": [{"name": 1}]}`, `node 0 has no "id"`},
		{`{"nodes": [{"id": 1}, {"id": 1}]}`, "nodes 0 and 1 have the same id 1"},
		{`{"nodes": [{"id": 1}], "links": [{"source": 1, "target": 2}]}`, "links[0]: target 2 is not the id of a node"},
		{`{"nodes": [{"id": 1}], "links": [{"target": 1}]}`, `links[0] has no "source"`},
		{`{"nodes": [{"id": 1}], "links": [{"source": 1, "target": 1, "weight": -1}]}`, "weight -1 is not a finite non-negative"},
		{`{"nodes": [{"id": 1}], "links": [{"source": 1, "target": 1, "weight": "heavy"}]}`, "weight"},
		{`{"nodes": [{"id": 12, "a": 1}, {"id": 999}]}`, `node 999 lacks the numeric attribute "a" that node 12 has`}, // by id, not position
		{`{"nodes": [{"id": 1}], "graph": {"label": [1, 2]}}`, `"label" is [1, 2], want an integer or a text`},
		{`{"nodes": [{"id": 1}], "graph": {"label": " "}}`, `"label" is " ", want an integer or a text`},
		{`{"nodes": [{"id": 1}, {"id": 2}, {"id": 3}]}`, "3 nodes exceed the limit of 2"},
		{`[1, 2]`, "top level must be a JSON object"},
	} {
		_, err := ReadNodeLink(strings.NewReader(tc.in), "bad.json", NodeLinkOptions{Attributes: true, Limits: Limits{MaxNodes: 2}})
		if err == nil {
			t.Errorf("%s: accepted", tc.in)
			continue
		}
		want := strings.ReplaceAll(tc.want, "[] ,", "[],")
		if !strings.Contains(err.Error(), "bad.json") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %q, want %q", tc.in, err, want)
		}
	}
}
