package graphs

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// formatsDir holds graphs written by networkx as GraphML, GML and edge lists, and
// expected.json, what the readers should make of them (see formats_fixtures.py).
var formatsDir = filepath.Join("testdata", "formats")

type formatFixture struct {
	File      string      `json:"file"`
	Nodes     []string    `json:"nodes"`
	Adjacency [][]float64 `json:"adjacency"`
	Features  [][]float64 `json:"features"`
	Label     *int        `json:"label"`
	Directed  bool        `json:"directed"`
}

// formatFixtures are the fixtures of the files with the given extension.
func formatFixtures(t *testing.T, ext string) []formatFixture {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(formatsDir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all struct{ Graphs []formatFixture }
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	var out []formatFixture
	for _, f := range all.Graphs {
		if filepath.Ext(f.File) == ext {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s fixtures in expected.json", ext)
	}
	return out
}

// rowsDense is the matrix of the rows, nil when there are none.
func rowsDense(rows [][]float64) *mat.Dense {
	if rows == nil {
		return nil
	}
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// checkFixture compares a graph read with attributes against its fixture.
func checkFixture(t *testing.T, g *Graph, want formatFixture, withLabel bool) {
	t.Helper()
	if g.N() != len(want.Nodes) || !mat.Equal(g.Dense(), rowsDense(want.Adjacency)) {
		t.Errorf("%s: C =\n%v\nwant %v", want.File, mat.Formatted(g.Dense()), want.Adjacency)
	}
	switch {
	case want.Features == nil && g.F != nil:
		t.Errorf("%s: F =\n%v, want none", want.File, mat.Formatted(g.F))
	case want.Features != nil && (g.F == nil || !mat.Equal(g.F, rowsDense(want.Features))):
		t.Errorf("%s: F = %v, want %v", want.File, g.F, want.Features)
	}
	if withLabel && (g.HasLabel != (want.Label != nil) || want.Label != nil && g.Label != *want.Label) {
		t.Errorf("%s: label %d (%v), want %v", want.File, g.Label, g.HasLabel, want.Label)
	}
	if err := g.Validate(); err != nil {
		t.Error(err)
	}
}

func TestReadGraphMLFixtures(t *testing.T) {
	for _, want := range formatFixtures(t, ".graphml") {
		path := filepath.Join(formatsDir, want.File)
		g, err := ReadFile(path, FileOptions{Features: FeaturesAttributes})
		if err != nil {
			t.Fatal(err)
		}
		checkFixture(t, g, want, true)
		if g.Name != path {
			t.Errorf("name %q, want %q", g.Name, path)
		}
		g, err = ReadFile(path, FileOptions{})
		if err != nil || g.F != nil {
			t.Errorf("%s without attributes: F %v, err %v", want.File, g.F, err)
		}
	}
}

func TestReadGraphML(t *testing.T) {
	// An edge before its nodes, per-edge direction, key defaults for a feature and the
	// weight, a boolean attribute (no feature), yFiles graphics and a port (ignored), and a
	// second graph (not read).
	const in = `<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:y="http://www.yworks.com/xml/graphml">
  <key id="x" for="node" attr.name="x" attr.type="float"><default>7</default></key>
  <key id="c" for="all" attr.name="charge" attr.type="int"/>
  <key id="flag" for="node" attr.name="flag" attr.type="boolean"/>
  <key id="g" for="node" yfiles.type="nodegraphics"/>
  <key id="w" for="edge" attr.name="weight" attr.type="double"><default>0.5</default></key>
  <graph id="G" edgedefault="directed">
    <desc>test</desc>
    <edge source="b" target="a"><data key="w">3</data></edge>
    <node id="a"><data key="c">1</data><data key="flag">true</data><data key="g"><y:ShapeNode><y:Fill color="#FF0000"/></y:ShapeNode></data></node>
    <node id="b"><port name="p"/><data key="c">2</data><data key="x"> 1.5 </data></node>
    <node id="c"><data key="c">3</data></node>
    <edge source="a" target="c" directed="false"/>
    <edge source="a" target="c"><data key="w">2</data></edge>
  </graph>
  <graph edgedefault="undirected"><node id="z"/></graph>
</graphml>`
	g, err := ReadGraphML(strings.NewReader(in), "g.graphml", NodeLinkOptions{Attributes: true})
	if err != nil {
		t.Fatal(err)
	}
	// a→c: 0.5 undirected + 2 directed; c→a: 0.5; b→a: 3.
	wantC := mat.NewDense(3, 3, []float64{0, 0, 2.5, 3, 0, 0, 0.5, 0, 0})
	if !mat.Equal(g.Dense(), wantC) {
		t.Errorf("C =\n%v", mat.Formatted(g.Dense()))
	}
	wantF := mat.NewDense(3, 2, []float64{1, 7, 2, 1.5, 3, 7}) // charge, x
	if g.F == nil || !mat.Equal(g.F, wantF) {
		t.Errorf("F = %v", g.F)
	}
	if g.HasLabel || g.Name != "g.graphml" {
		t.Errorf("label %v, name %q", g.HasLabel, g.Name)
	}
	// A graph label, from a string key too; self-loops once; no features without attributes.
	const labelled = `<graphml><key id="l" for="graph" attr.name="label" attr.type="string"/>
		<graph edgedefault="undirected"><data key="l"> -3 </data><node id="0"/><edge source="0" target="0"/></graph></graphml>`
	g, err = ReadGraphML(strings.NewReader(labelled), "l.graphml", NodeLinkOptions{Attributes: true})
	if err != nil {
		t.Fatal(err)
	}
	if !g.HasLabel || g.Label != -3 || g.F != nil || g.A.At(0, 0) != 1 {
		t.Errorf("label %d (%v), F %v, C %v", g.Label, g.HasLabel, g.F, g.Dense())
	}
}

func TestReadGraphMLErrors(t *testing.T) {
	const keys = `<key id="w" for="edge" attr.name="weight" attr.type="double"/><key id="x" for="node" attr.name="x" attr.type="double"/>`
	doc := func(body string) string {
		return `<graphml>` + keys + `<graph edgedefault="undirected">` + body + `</graph></graphml>`
	}
	for _, tc := range []struct {
		name, in string
		opt      NodeLinkOptions
		want     string
	}{
		{"empty", ``, NodeLinkOptions{}, "no <graphml> element"},
		{"not xml", `{"nodes": []}`, NodeLinkOptions{}, "no <graphml> element"},
		{"malformed", `<graphml><graph edgedefault="directed"><node id="a"></graph></graphml>`, NodeLinkOptions{}, "x.graphml:1: not well-formed XML"},
		{"unclosed", `<graphml><graph edgedefault="directed"><node id="a"/>`, NodeLinkOptions{}, "not well-formed XML"},
		{"other root", `<html/>`, NodeLinkOptions{}, "the document element is <html>, want <graphml>"},
		{"no graph", `<graphml>` + keys + `</graphml>`, NodeLinkOptions{}, "no <graph>"},
		{"no nodes", doc(``), NodeLinkOptions{}, "no nodes"},
		{"no edgedefault", `<graphml><graph><node id="a"/></graph></graphml>`, NodeLinkOptions{}, "without edgedefault"},
		{"bad edgedefault", `<graphml><graph edgedefault="both"><node id="a"/></graph></graphml>`, NodeLinkOptions{}, `edgedefault="both"`},
		{"unknown target", doc(`<node id="a"/>` + "\n" + `<edge source="a" target="b"/>`), NodeLinkOptions{}, `x.graphml:2: invalid graph: edge target "b" is not the id of a node`},
		{"unknown source", doc(`<edge source="q" target="a"/><node id="a"/>`), NodeLinkOptions{}, `edge source "q" is not the id of a node`},
		{"negative weight", doc(`<node id="a"/><edge source="a" target="a"><data key="w">-1</data></edge>`), NodeLinkOptions{}, "edge 1: invalid graph: weight -1 is not a finite non-negative number"},
		{"NaN weight", doc(`<node id="a"/><edge source="a" target="a"><data key="w">NaN</data></edge>`), NodeLinkOptions{}, "weight NaN is not a finite"},
		{"huge weight", doc(`<node id="a"/><edge source="a" target="a"><data key="w">1e999</data></edge>`), NodeLinkOptions{}, "weight +Inf is not a finite"},
		{"text weight", doc(`<node id="a"/><edge source="a" target="a"><data key="w">heavy</data></edge>`), NodeLinkOptions{}, `edge 1: weight "heavy" is not a number`},
		{"weights add up past MaxValue", doc(`<node id="a"/><edge source="a" target="a"><data key="w">6e99</data></edge><edge source="a" target="a"><data key="w">6e99</data></edge>`), NodeLinkOptions{}, "add up to 1.2e+100, larger in magnitude than 1e+100"},
		{"weight past MaxValue", doc(`<node id="a"/><edge source="a" target="a"><data key="w">1e308</data></edge>`), NodeLinkOptions{}, `the edge from "a" to "a": weight 1e+308, larger in magnitude than 1e+100`},
		{"edge without target", doc(`<node id="a"/><edge source="a"/>`), NodeLinkOptions{}, "edge 1 has no target"},
		{"bad edge direction", doc(`<node id="a"/><edge source="a" target="a" directed="yes"/>`), NodeLinkOptions{}, `directed="yes"`},
		{"node without id", doc(`<node/>`), NodeLinkOptions{}, "<node> without an id"},
		{"duplicate node", doc(`<node id="a"/><node id="a"/>`), NodeLinkOptions{}, `node id "a" appears twice`},
		{"undeclared key", doc(`<node id="a"><data key="zz">1</data></node>`), NodeLinkOptions{}, `no <key> declares "zz"`},
		{"data without key", doc(`<node id="a"><data>1</data></node>`), NodeLinkOptions{}, "<data> without a key"},
		{"duplicate key", `<graphml><key id="k"/><key id="k"/><graph edgedefault="directed"/></graphml>`, NodeLinkOptions{}, `key "k" declared twice`},
		{"hyperedge", doc(`<node id="a"/><hyperedge><endpoint node="a"/></hyperedge>`), NodeLinkOptions{}, "hyperedges are not supported"},
		{"nested graph", doc(`<node id="a"><graph edgedefault="directed"><node id="a::b"/></graph></node>`), NodeLinkOptions{}, "nested graphs are not supported"},
		{"graph in edge", doc(`<node id="a"/><edge source="a" target="a"><graph/></edge>`), NodeLinkOptions{}, "nested graphs are not supported"},
		{"deep nesting", doc(`<node id="a"><desc>` + strings.Repeat("<b>", 100) + strings.Repeat("</b>", 100) + `</desc></node>`), NodeLinkOptions{}, "nested more than 64 deep"},
		{"text attribute", doc(`<node id="a"><data key="x">big</data></node>`), NodeLinkOptions{Attributes: true}, `node "a": numeric attribute "x": "big" is not a number`},
		{"NaN attribute", doc(`<node id="a"><data key="x">nan</data></node>`), NodeLinkOptions{Attributes: true}, `attribute "x" is NaN, not a finite number`},
		{"missing attribute", doc(`<node id="a"><data key="x">1</data></node><node id="b"/>`), NodeLinkOptions{Attributes: true}, `node "b" lacks the numeric attribute "x" that node "a" has`},
		{"bad default", `<graphml><key id="x" for="node" attr.name="x" attr.type="int"><default>many</default></key><graph edgedefault="directed"><node id="a"/></graph></graphml>`, NodeLinkOptions{Attributes: true}, `default of key "x": "many" is not a number`},
		{"empty label", `<graphml><key id="l" for="graph" attr.name="label"/><graph edgedefault="directed"><data key="l"> </data><node id="a"/></graph></graphml>`, NodeLinkOptions{}, `graph attribute "label": an empty class label`},
		{"too many nodes", doc(`<node id="a"/><node id="b"/><node id="c"/>`), NodeLinkOptions{Limits: Limits{MaxNodes: 2}}, `node "c": 3 nodes exceed the limit of 2`},
		{"too many ids in edges", doc(`<node id="a"/><edge source="a" target="b"/><edge source="a" target="c"/>`), NodeLinkOptions{Limits: Limits{MaxNodes: 2}}, `edge 2: node "c": 3 nodes exceed the limit of 2`},
		{"dense bytes", doc(`<node id="a"/><node id="b"/>`), NodeLinkOptions{Limits: Limits{MaxDenseBytes: 16}}, "needs 32 bytes of dense matrices"},
		{"too large", doc(strings.Repeat(`<desc>`+strings.Repeat(" ", 1000)+`</desc>`, 3000)), NodeLinkOptions{Limits: Limits{MaxNodes: 2, MaxDenseBytes: 64}}, "input is larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadGraphML(strings.NewReader(tc.in), "x.graphml", tc.opt)
			if err == nil {
				t.Fatalf("accepted: C =\n%v", mat.Formatted(g.Dense()))
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "x.graphml") {
				t.Errorf("error %q, want x.graphml...%q", err, tc.want)
			}
		})
	}
}

func TestReadGraphMLReadError(t *testing.T) {
	_, err := ReadGraphML(&edgeListFailing{text: `<graphml><graph edgedefault="directed"><node id="a"/>`}, "f.graphml", NodeLinkOptions{})
	if !errors.Is(err, errEdgeListRead) || !strings.Contains(err.Error(), "f.graphml: reading") {
		t.Errorf("error %v, want the read error", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.graphml"), FileOptions{}); err == nil || !strings.Contains(err.Error(), "missing.graphml") {
		t.Errorf("missing file: %v", err)
	}
}

func TestReadFolderGraphMLAndGML(t *testing.T) {
	dir := t.TempDir()
	copyFormats := func(names ...string) {
		for _, name := range names {
			b, err := os.ReadFile(filepath.Join(formatsDir, name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	copyFormats("directed.gml", "directed.graphml", "multigraph.gml", "weighted.graphml", "weighted.gml")
	ds, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range ds.Graphs {
		names = append(names, g.Name)
		if g.Dim() != 2 {
			t.Errorf("%s: %d features, want 2 (charge, size)", g.Name, g.Dim())
		}
	}
	if want := []string{"directed.gml", "directed.graphml", "multigraph.gml", "weighted.gml", "weighted.graphml"}; !slices.Equal(names, want) {
		t.Fatalf("graphs %v, want %v", names, want)
	}
	// File labels 1, 1, 1, 2, 2 map to classes 0, 0, 0, 1, 1.
	if !slices.Equal(ds.Classes, []int{1, 2}) || ds.Graphs[0].Label != 0 || ds.Graphs[4].Label != 1 {
		t.Errorf("classes %v, labels %d %d", ds.Classes, ds.Graphs[0].Label, ds.Graphs[4].Label)
	}
	// A graph without numeric node attributes fails a read that asks for features.
	copyFormats("unweighted.graphml")
	if _, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes}); err == nil || !strings.Contains(err.Error(), "unweighted.graphml: no numeric node attributes") {
		t.Errorf("attributes with a graph that has none: error %v", err)
	}
	if ds, err := ReadFolder(dir, FolderOptions{}); err != nil || len(ds.Graphs) != 6 || ds.Graphs[5].F != nil {
		t.Errorf("structure only: %v", err)
	}
}
