package graphs

import (
	"strings"
	"testing"
)

// TestGraphLabelKeys: a graph attribute named like a class label (networkx's "label",
// PyTorch Geometric's "y", "class", "target", "graph_label") is the class label in node-link,
// GraphML and GML files as networkx writes them; "label" comes first where several are given,
// and other graph attributes ("name") are no label.
func TestGraphLabelKeys(t *testing.T) {
	nodeLink := func(graph string) string {
		return `{"directed": false, "graph": ` + graph + `, "nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 1}]}`
	}
	graphML := func(keys, data string) string {
		return `<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">` + keys + `
  <graph edgedefault="undirected">
    <node id="0" /><node id="1" /><edge source="0" target="1" />` + data + `
  </graph>
</graphml>`
	}
	const yKey = `<key id="d0" for="graph" attr.name="y" attr.type="long" />`
	const labelKey = `<key id="d1" for="graph" attr.name="label" attr.type="string" />`
	gml := func(attrs string) string {
		return "graph [\n" + attrs + "\n  node [ id 0 label \"0\" ]\n  node [ id 1 label \"1\" ]\n  edge [ source 0 target 1 ]\n]\n"
	}
	read := map[string]func(string) (*Graph, error){
		"json": func(s string) (*Graph, error) { return ReadNodeLink(strings.NewReader(s), "g.json", NodeLinkOptions{}) },
		"graphml": func(s string) (*Graph, error) {
			return ReadGraphML(strings.NewReader(s), "g.graphml", NodeLinkOptions{})
		},
		"gml": func(s string) (*Graph, error) { return ReadGML(strings.NewReader(s), "g.gml", NodeLinkOptions{}) },
	}
	for _, tc := range []struct {
		format, text string
		label        int    // -1: none
		labelText    string // a text label
	}{
		{"json", nodeLink(`{"y": 2, "name": "p"}`), 2, ""},
		{"json", nodeLink(`{"y": [1]}`), 1, ""}, // PyTorch Geometric's y of one graph
		{"json", nodeLink(`{"target": "ring"}`), -1, "ring"},
		{"json", nodeLink(`{"y": 2, "label": 5}`), 5, ""},
		{"json", nodeLink(`{"name": "p", "size": 3}`), -1, ""},
		{"graphml", graphML(yKey, `<data key="d0">2</data>`), 2, ""},
		{"graphml", graphML(yKey+labelKey, `<data key="d0">2</data><data key="d1">star</data>`), -1, "star"},
		{"graphml", graphML(labelKey+yKey, `<data key="d1">star</data><data key="d0">2</data>`), -1, "star"},
		{"graphml", graphML(`<key id="d0" for="graph" attr.name="class" attr.type="long"><default>7</default></key>`, ``), 7, ""},
		{"gml", gml(`  y 2
  name "p"`), 2, ""},
		{"gml", gml(`  label "4"
  y 2`), 4, ""},
		{"gml", gml(`  graph_label "star"`), -1, "star"},
	} {
		g, err := read[tc.format](tc.text)
		if err != nil {
			t.Errorf("%s %q: %v", tc.format, tc.text, err)
			continue
		}
		if g.HasLabel != (tc.label >= 0) || tc.label >= 0 && g.Label != tc.label || g.labelText != tc.labelText {
			t.Errorf("%s %q: label %d (%v), text %q; want %d, %q", tc.format, tc.text, g.Label, g.HasLabel, g.labelText, tc.label, tc.labelText)
		}
	}
	// A label key of a value that is no label names its key.
	if _, err := read["json"](nodeLink(`{"y": [0, 1]}`)); err == nil || !strings.Contains(err.Error(), `"y" is [0, 1]`) {
		t.Errorf("a list of two labels: %v", err)
	}
	if _, err := read["gml"](gml(`  target [ a 1 ]`)); err == nil || !strings.Contains(err.Error(), `graph "target" is a list`) {
		t.Errorf("a GML list as label: %v", err)
	}
}
