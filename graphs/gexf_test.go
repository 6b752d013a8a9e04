package graphs

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The same graphs as networkx 2.8.8 writes them with write_gexf and write_graphml.

// gexfWeighted and graphmlWeighted: an undirected weighted graph with a float and a string
// node attribute.
const gexfWeighted = `<?xml version='1.0' encoding='utf-8'?>
<gexf xmlns="http://www.gexf.net/1.2draft" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.gexf.net/1.2draft http://www.gexf.net/1.2draft/gexf.xsd" version="1.2">
  <meta lastmodifieddate="2026-11-29">
    <creator>NetworkX 2.8.8</creator>
  </meta>
  <graph defaultedgetype="undirected" mode="static" name="">
    <attributes mode="static" class="node">
      <attribute id="0" title="charge" type="double" />
      <attribute id="1" title="kind" type="string" />
    </attributes>
    <nodes>
      <node id="a" label="a">
        <attvalues>
          <attvalue for="0" value="0.5" />
          <attvalue for="1" value="C" />
        </attvalues>
      </node>
      <node id="b" label="b">
        <attvalues>
          <attvalue for="0" value="-1.25" />
          <attvalue for="1" value="O" />
        </attvalues>
      </node>
      <node id="c" label="c">
        <attvalues>
          <attvalue for="0" value="2.0" />
          <attvalue for="1" value="C" />
        </attvalues>
      </node>
    </nodes>
    <edges>
      <edge source="a" target="b" id="0" weight="2.5" />
      <edge source="a" target="c" id="1" weight="0.25" />
      <edge source="b" target="c" id="2" weight="1.0" />
    </edges>
  </graph>
</gexf>
`

const graphmlWeighted = `<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd"><key id="d2" for="edge" attr.name="weight" attr.type="double"/>
<key id="d1" for="node" attr.name="kind" attr.type="string"/>
<key id="d0" for="node" attr.name="charge" attr.type="double"/>
<graph edgedefault="undirected"><node id="a">
  <data key="d0">0.5</data>
  <data key="d1">C</data>
</node>
<node id="b">
  <data key="d0">-1.25</data>
  <data key="d1">O</data>
</node>
<node id="c">
  <data key="d0">2.0</data>
  <data key="d1">C</data>
</node>
<edge source="a" target="b">
  <data key="d2">2.5</data>
</edge>
<edge source="a" target="c">
  <data key="d2">0.25</data>
</edge>
<edge source="b" target="c">
  <data key="d2">1.0</data>
</edge>
</graph></graphml>
`

// gexfDirected and graphmlDirected: a directed graph.
const gexfDirected = `<?xml version='1.0' encoding='utf-8'?>
<gexf xmlns="http://www.gexf.net/1.2draft" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.gexf.net/1.2draft http://www.gexf.net/1.2draft/gexf.xsd" version="1.2">
  <meta lastmodifieddate="2026-11-29">
    <creator>NetworkX 2.8.8</creator>
  </meta>
  <graph defaultedgetype="directed" mode="static" name="">
    <nodes>
      <node id="0" label="0" />
      <node id="1" label="1" />
      <node id="2" label="2" />
    </nodes>
    <edges>
      <edge source="0" target="1" id="0" />
      <edge source="0" target="2" id="1" />
      <edge source="1" target="2" id="2" />
      <edge source="2" target="0" id="3" />
    </edges>
  </graph>
</gexf>
`

const graphmlDirected = `<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd"><graph edgedefault="directed"><node id="0"/>
<node id="1"/>
<node id="2"/>
<edge source="0" target="1"/>
<edge source="0" target="2"/>
<edge source="1" target="2"/>
<edge source="2" target="0"/>
</graph></graphml>
`

// gexfIsolated and graphmlIsolated: node 3 is in no edge.
const gexfIsolated = `<?xml version='1.0' encoding='utf-8'?>
<gexf xmlns="http://www.gexf.net/1.2draft" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.gexf.net/1.2draft http://www.gexf.net/1.2draft/gexf.xsd" version="1.2">
  <meta lastmodifieddate="2026-11-29">
    <creator>NetworkX 2.8.8</creator>
  </meta>
  <graph defaultedgetype="undirected" mode="static" name="">
    <nodes>
      <node id="1" label="1" />
      <node id="2" label="2" />
      <node id="3" label="3" />
    </nodes>
    <edges>
      <edge source="1" target="2" id="0" />
    </edges>
  </graph>
</gexf>
`

const graphmlIsolated = `<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd"><graph edgedefault="undirected"><node id="1"/>
<node id="2"/>
<node id="3"/>
<edge source="1" target="2"/>
</graph></graphml>
`

func TestReadGEXFLikeGraphML(t *testing.T) {
	for _, tc := range []struct {
		name, gexf, graphml string
		wantC               []float64 // row-major
		wantF               []float64 // one feature per node, nil for none
	}{
		{"weighted", gexfWeighted, graphmlWeighted, []float64{0, 2.5, 0.25, 2.5, 0, 1, 0.25, 1, 0}, []float64{0.5, -1.25, 2}},
		{"directed", gexfDirected, graphmlDirected, []float64{0, 1, 1, 0, 0, 1, 1, 0, 0}, nil},
		{"isolated", gexfIsolated, graphmlIsolated, []float64{0, 1, 0, 1, 0, 0, 0, 0, 0}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := NodeLinkOptions{Attributes: true, Categories: true}
			g, err := ReadGEXF(strings.NewReader(tc.gexf), tc.name+".gexf", opt)
			if err != nil {
				t.Fatal(err)
			}
			ml, err := ReadGraphML(strings.NewReader(tc.graphml), tc.name+".graphml", opt)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Validate(); err != nil {
				t.Error(err)
			}
			if g.Name != tc.name+".gexf" || g.HasLabel {
				t.Errorf("name %q, label %v", g.Name, g.HasLabel)
			}
			if !mat.Equal(g.Dense(), ml.Dense()) || !mat.Equal(g.Dense(), mat.NewDense(3, 3, tc.wantC)) {
				t.Errorf("C =\n%v\nGraphML's\n%v", mat.Formatted(g.Dense()), mat.Formatted(ml.Dense()))
			}
			switch {
			case tc.wantF == nil && (g.F != nil || ml.F != nil):
				t.Errorf("F = %v, GraphML's %v, want none", g.F, ml.F)
			case tc.wantF != nil && (g.F == nil || ml.F == nil || !mat.Equal(g.F, ml.F) || !mat.Equal(g.F, mat.NewDense(3, 1, tc.wantF))):
				t.Errorf("F = %v, GraphML's %v, want %v", g.F, ml.F, tc.wantF)
			}
			if !reflect.DeepEqual(g.categories, ml.categories) {
				t.Errorf("categories %v, GraphML's %v", g.categories, ml.categories)
			}
			g, err = ReadGEXF(strings.NewReader(tc.gexf), "", NodeLinkOptions{})
			if err != nil || g.F != nil || g.categories != nil {
				t.Errorf("without attributes: F %v, categories %v, err %v", g.F, g.categories, err)
			}
		})
	}
	g, _ := ReadGEXF(strings.NewReader(gexfWeighted), "w.gexf", NodeLinkOptions{Categories: true})
	if want := (nodeCategories{"kind": {"C", "O", "C"}}); !reflect.DeepEqual(g.categories, want) {
		t.Errorf("categories %v, want %v", g.categories, want)
	}
}

func TestReadGEXF(t *testing.T) {
	// GEXF 1.3 as Gephi writes it: mutual edges by default, per-edge types, parallel edges,
	// attribute defaults, a boolean attribute (no feature), edge attributes, viz and spells
	// (ignored), and an attribute given twice (the last counts).
	const in = `<?xml version="1.0" encoding="UTF-8"?>
<gexf xmlns="http://gexf.net/1.3" xmlns:viz="http://gexf.net/1.3/viz" version="1.3">
  <meta><creator>Gephi</creator><description>test</description></meta>
  <graph defaultedgetype="mutual" mode="dynamic">
    <attributes class="node" mode="static">
      <attribute id="x" title="size" type="float"><default>7</default></attribute>
      <attribute id="n" title="charge" type="integer"/>
      <attribute id="f" title="flag" type="boolean"/>
      <attribute id="k" title="kind" type="string"><default>H</default><options>H|C</options></attribute>
    </attributes>
    <attributes class="edge">
      <attribute id="n" title="note" type="string"/>
    </attributes>
    <nodes count="3">
      <node id="a" label="A">
        <attvalues><attvalue for="n" value="1"/><attvalue for="f" value="true"/><attvalue for="k" value="C"/></attvalues>
        <viz:color r="255" g="0" b="0"/><viz:position x="1" y="2" z="0"/>
      </node>
      <node id="b"><spells><spell start="1" end="2"/></spells>
        <attvalues><attvalue for="n" value="5" start="0" end="1"/><attvalue for="n" value="2" start="1"/><attvalue for="x" value=" 1.5 "/></attvalues>
      </node>
      <node id="c"><attvalues><attvalue for="n" value="3"/></attvalues></node>
    </nodes>
    <edges count="4">
      <edge id="0" source="b" target="a" type="directed" weight="3"><attvalues><attvalue for="n" value="x"/></attvalues><viz:thickness value="2"/></edge>
      <edge id="1" source="a" target="c" weight="0.5"/>
      <edge id="2" source="a" target="c" type="directed" weight="2"/>
      <edge id="3" source="c" target="c" type="undirected"/>
    </edges>
  </graph>
</gexf>`
	g, err := ReadGEXF(strings.NewReader(in), "g.gexf", NodeLinkOptions{Attributes: true, Categories: true})
	if err != nil {
		t.Fatal(err)
	}
	// a→c: 0.5 mutual + 2 directed; c→a: 0.5; b→a: 3; c→c: 1 once.
	wantC := mat.NewDense(3, 3, []float64{0, 0, 2.5, 3, 0, 0, 0.5, 0, 1})
	if !mat.Equal(g.Dense(), wantC) {
		t.Errorf("C =\n%v", mat.Formatted(g.Dense()))
	}
	wantF := mat.NewDense(3, 2, []float64{1, 7, 2, 1.5, 3, 7}) // charge, size
	if g.F == nil || !mat.Equal(g.F, wantF) {
		t.Errorf("F = %v", g.F)
	}
	// a's label "A" is not its id: a node label (b and c have none).
	if want := (nodeCategories{"kind": {"C", "H", "H"}, "label": {"A", "", ""}}); !reflect.DeepEqual(g.categories, want) {
		t.Errorf("categories %v, want %v", g.categories, want)
	}
	// Without defaultedgetype a graph is undirected; GEXF 1.1 without a namespace.
	const plain = `<gexf version="1.1"><graph><nodes><node id="0"/><node id="1"/></nodes><edges><edge source="0" target="1"/></edges></graph></gexf>`
	g, err = ReadGEXF(strings.NewReader(plain), "p.gexf", NodeLinkOptions{Attributes: true})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(g.Dense(), mat.NewDense(2, 2, []float64{0, 1, 1, 0})) || g.F != nil {
		t.Errorf("C =\n%v, F %v", mat.Formatted(g.Dense()), g.F)
	}
}

func TestReadGEXFErrors(t *testing.T) {
	const attrs = `<attributes class="node"><attribute id="0" title="x" type="double"/></attributes>`
	doc := func(nodes, edges string) string {
		return `<gexf><graph defaultedgetype="undirected">` + attrs + `<nodes>` + nodes + `</nodes><edges>` + edges + `</edges></graph></gexf>`
	}
	const a = `<node id="a"/>`
	for _, tc := range []struct {
		name, in string
		opt      NodeLinkOptions
		want     string
	}{
		{"empty", ``, NodeLinkOptions{}, "no <gexf> element: not a GEXF file"},
		{"not xml", `{"nodes": []}`, NodeLinkOptions{}, "no <gexf> element"},
		{"malformed", `<gexf><graph><nodes><node id="a"></nodes></graph></gexf>`, NodeLinkOptions{}, "x.gexf:1: not well-formed XML"},
		{"unclosed", `<gexf><graph><nodes><node id="a"/>`, NodeLinkOptions{}, "not well-formed XML"},
		{"graphml root", graphmlIsolated, NodeLinkOptions{}, "x.gexf:2: invalid graph: the document element is <graphml>, want <gexf>"},
		{"no graph", `<gexf><meta/></gexf>`, NodeLinkOptions{}, "no <graph> in the <gexf> element"},
		{"no nodes", doc(``, ``), NodeLinkOptions{}, "no nodes"},
		{"bad defaultedgetype", `<gexf><graph defaultedgetype="both"/></gexf>`, NodeLinkOptions{}, `defaultedgetype="both"`},
		{"unknown target", doc(a, "\n"+`<edge source="a" target="b"/>`), NodeLinkOptions{}, `x.gexf:2: invalid graph: edge target "b" is not the id of a node`},
		{"unknown source", doc(a, `<edge source="q" target="a"/>`), NodeLinkOptions{}, `edge source "q" is not the id of a node`},
		{"negative weight", doc(a, `<edge source="a" target="a" weight="-1"/>`), NodeLinkOptions{}, "edge 1: invalid graph: weight -1 is not a finite non-negative number"},
		{"NaN weight", doc(a, `<edge source="a" target="a" weight="NaN"/>`), NodeLinkOptions{}, "weight NaN is not a finite"},
		{"huge weight", doc(a, `<edge source="a" target="a" weight="1e999"/>`), NodeLinkOptions{}, "weight +Inf is not a finite"},
		{"text weight", doc(a, `<edge source="a" target="a" weight="heavy"/>`), NodeLinkOptions{}, `edge 1: weight "heavy" is not a number`},
		{"weights add up past MaxValue", doc(a, `<edge source="a" target="a" weight="6e99"/><edge source="a" target="a" weight="6e99"/>`), NodeLinkOptions{}, "add up to 1.2e+100, larger in magnitude than 1e+100"},
		{"weight past MaxValue", doc(a, `<edge source="a" target="a" weight="1e308"/>`), NodeLinkOptions{}, `edge 1: invalid graph: the edge from "a" to "a": weight 1e+308, larger in magnitude than 1e+100`},
		{"edge without target", doc(a, `<edge source="a"/>`), NodeLinkOptions{}, "edge 1 has no target"},
		{"bad edge type", doc(a, `<edge source="a" target="a" type="yes"/>`), NodeLinkOptions{}, `edge 1: type="yes"`},
		{"node without id", doc(`<node/>`, ``), NodeLinkOptions{}, "<node> without an id"},
		{"duplicate node", doc(a+a, ``), NodeLinkOptions{}, `node id "a" appears twice`},
		{"hierarchy", doc(`<node id="a"><nodes><node id="b"/></nodes></node>`, ``), NodeLinkOptions{}, "hierarchical graphs are not supported"},
		{"undeclared attribute", doc(`<node id="a"><attvalues><attvalue for="9" value="1"/></attvalues></node>`, ``), NodeLinkOptions{}, `node "a": <attvalue for="9">: no <attributes class="node"> declares "9"`},
		{"attvalue without for", doc(`<node id="a"><attvalues><attvalue value="1"/></attvalues></node>`, ``), NodeLinkOptions{}, "<attvalue> without for"},
		{"attvalue without value", doc(`<node id="a"><attvalues><attvalue for="0"/></attvalues></node>`, ``), NodeLinkOptions{}, "without a value"},
		{"attribute without id", `<gexf><graph><attributes class="node"><attribute title="x"/></attributes></graph></gexf>`, NodeLinkOptions{}, "<attribute> without an id"},
		{"duplicate attribute", `<gexf><graph><attributes class="node"><attribute id="0"/><attribute id="0"/></attributes></graph></gexf>`, NodeLinkOptions{}, `node attribute "0" declared twice`},
		{"deep nesting", doc(`<node id="a"><viz:x>`+strings.Repeat("<b>", 100)+strings.Repeat("</b>", 100)+`</viz:x></node>`, ``), NodeLinkOptions{}, "nested more than 64 deep"},
		{"text attribute", doc(`<node id="a"><attvalues><attvalue for="0" value="big"/></attvalues></node>`, ``), NodeLinkOptions{Attributes: true}, `node "a": numeric attribute "x": "big" is not a number`},
		{"NaN attribute", doc(`<node id="a"><attvalues><attvalue for="0" value="nan"/></attvalues></node>`, ``), NodeLinkOptions{Attributes: true}, `attribute "x" is NaN, not a finite number`},
		{"missing attribute", doc(`<node id="a"><attvalues><attvalue for="0" value="1"/></attvalues></node><node id="b"/>`, ``), NodeLinkOptions{Attributes: true}, `node "b" lacks the numeric attribute "x" that node "a" has`},
		{"bad default", `<gexf><graph><attributes class="node"><attribute id="0" title="x" type="long"><default>many</default></attribute></attributes></graph></gexf>`, NodeLinkOptions{Attributes: true}, `default of attribute "x": "many" is not a number`},
		{"too many nodes", doc(a+`<node id="b"/><node id="c"/>`, ``), NodeLinkOptions{Limits: Limits{MaxNodes: 2}}, `node "c": 3 nodes exceed the limit of 2`},
		{"too many ids in edges", doc(a, `<edge source="a" target="b"/><edge source="a" target="c"/>`), NodeLinkOptions{Limits: Limits{MaxNodes: 2}}, `edge 2: node "c": 3 nodes exceed the limit of 2`},
		{"dense bytes", doc(a+`<node id="b"/>`, ``), NodeLinkOptions{Limits: Limits{MaxDenseBytes: 16}}, "needs 32 bytes of dense matrices"},
		{"too large", doc(strings.Repeat(`<!--`+strings.Repeat(" ", 1000)+`-->`, 3000), ``), NodeLinkOptions{Limits: Limits{MaxNodes: 2, MaxDenseBytes: 64}}, "input is larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadGEXF(strings.NewReader(tc.in), "x.gexf", tc.opt)
			if err == nil {
				t.Fatalf("accepted: C =\n%v", mat.Formatted(g.Dense()))
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "x.gexf") {
				t.Errorf("error %q, want x.gexf...%q", err, tc.want)
			}
		})
	}
}

// TestReadGEXFLabels: networkx's write_gexf puts a node's "label" and an edge's "label" in the
// label attributes: they are the node's string attribute "label" and the edge label, unless
// every node's label is its id (networkx's default where a node has none). An attribute titled
// "label" comes first.
func TestReadGEXFLabels(t *testing.T) {
	// nx.path_graph(3) with node labels C, O, C and edge labels 1 and "double".
	const labelled = `<gexf xmlns="http://www.gexf.net/1.2draft" version="1.2"><graph defaultedgetype="undirected" mode="static" name="">
    <nodes><node id="0" label="C" /><node id="1" label="O" /><node id="2" label="C" /></nodes>
    <edges><edge source="0" target="1" id="0" label="1" /><edge source="1" target="2" id="1" label="double" /></edges>
  </graph></gexf>`
	g, err := ReadGEXF(strings.NewReader(labelled), "l.gexf", NodeLinkOptions{Categories: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := (nodeCategories{"label": {"C", "O", "C"}}); !reflect.DeepEqual(g.categories, want) {
		t.Errorf("categories %v, want %v", g.categories, want)
	}
	if g.EdgeLabels == nil || g.EdgeLabels.At(0, 1) != EdgeLabelCode(1) || g.EdgeLabels.At(2, 1) != textLabelCode("double") {
		t.Errorf("edge labels %v", g.EdgeLabels)
	}
	// Labels that are the ids, one edge without a label: neither.
	const plain = `<gexf version="1.2"><graph><nodes><node id="0" label="0"/><node id="1" label="1"/><node id="2" label="2"/></nodes>
    <edges><edge source="0" target="1" label="1"/><edge source="1" target="2"/></edges></graph></gexf>`
	if g, err = ReadGEXF(strings.NewReader(plain), "p.gexf", NodeLinkOptions{Categories: true}); err != nil || g.categories != nil || g.EdgeLabels != nil {
		t.Errorf("labels that are the ids: categories %v, edge labels %v (%v)", g.categories, g.EdgeLabels, err)
	}
	const titled = `<gexf version="1.2"><graph><attributes class="node"><attribute id="0" title="label" type="string"/></attributes>
    <nodes><node id="0" label="x"><attvalues><attvalue for="0" value="N"/></attvalues></node></nodes></graph></gexf>`
	if g, err = ReadGEXF(strings.NewReader(titled), "t.gexf", NodeLinkOptions{Categories: true}); err != nil || !reflect.DeepEqual(g.categories, nodeCategories{"label": {"N"}}) {
		t.Errorf("an attribute titled label: categories %v (%v)", g.categories, err)
	}
}

func TestReadGEXFReadError(t *testing.T) {
	_, err := ReadGEXF(&edgeListFailing{text: `<gexf><graph><nodes><node id="a"/>`}, "f.gexf", NodeLinkOptions{})
	if !errors.Is(err, errEdgeListRead) || !strings.Contains(err.Error(), "f.gexf: reading") {
		t.Errorf("error %v, want the read error", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.gexf"), FileOptions{}); err == nil || !strings.Contains(err.Error(), "missing.gexf") {
		t.Errorf("missing file: %v", err)
	}
}

func TestReadFolderGEXF(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a.gexf":     gexfWeighted,
		"b.graphml":  graphmlWeighted,
		"labels.csv": "file,label\na.gexf,1\nb.graphml,2\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := ReadFolder(dir, FolderOptions{Features: FeaturesBoth})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Graphs) != 2 || ds.Graphs[0].Name != "a.gexf" || ds.Graphs[1].Name != "b.graphml" {
		t.Fatalf("graphs %v", ds.Graphs)
	}
	// charge, then kind=C and kind=O one-hot; the same for both files.
	if want := []string{"kind=C", "kind=O"}; !slices.Equal(ds.Encoding.NodeLabelNames, want) {
		t.Errorf("node label names %v, want %v", ds.Encoding.NodeLabelNames, want)
	}
	a, b := ds.Graphs[0], ds.Graphs[1]
	if a.F == nil || b.F == nil || !mat.Equal(a.F, b.F) || !mat.Equal(a.Dense(), b.Dense()) || a.Dim() != 3 {
		t.Errorf("a.gexf: F %v, C %v; b.graphml: F %v, C %v", a.F, a.Dense(), b.F, b.Dense())
	}
	if a.Label != 0 || b.Label != 1 {
		t.Errorf("labels %d %d", a.Label, b.Label)
	}

	p := filepath.Join(dir, "a.gexf")
	for _, format := range []string{"", "gexf", "GEXF"} {
		g, err := ReadFile(p, FileOptions{Format: format, Features: FeaturesAttributes})
		if err != nil || g.N() != 3 || g.Dim() != 1 {
			t.Errorf("ReadFile with format %q: err %v", format, err)
		}
	}
	if err := CheckFormat("gexf"); err != nil {
		t.Error(err)
	}
	if f := FileFormat("net.GEXF"); f != "gexf" {
		t.Errorf("FileFormat: %q", f)
	}
	if _, err := ReadFile(filepath.Join(dir, "b.graphml"), FileOptions{Format: "gexf"}); err == nil || !strings.Contains(err.Error(), "want <gexf>") {
		t.Errorf("GraphML read as GEXF: %v", err)
	}
}
