package graphs

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Fuzz targets of the readers added for graph folders; the invariants are those of
// fuzz_test.go.

func FuzzReadNodeLink(f *testing.F) {
	f.Add([]byte(`{"nodes": [{"id": "a", "x": 1}, {"id": "b", "x": 2}], "links": [{"source": "a", "target": "b", "weight": 2}]}`), true)
	f.Add([]byte(`{"directed": true, "multigraph": true, "graph": {"label": 1}, "nodes": [{"id": 0}, {"id": 1}], "edges": [{"source": 0, "target": 1}, {"source": 0, "target": 1}]}`), false)
	f.Add([]byte(`{"nodes": [{"id": 1, "v": [1, 2]}, {"id": "1", "v": [3]}]}`), true)
	f.Add([]byte(`{"nodes": [{"id": null}], "links": [{"source": 1}]}`), false)
	f.Add([]byte(`{"multigraph": true, "nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 1, "label": 1}, {"source": 1, "target": 0, "label": "x", "weight": 0}]}`), false)
	f.Add([]byte(`{"multigraph": true, "graph": [["label", 1]], "nodes": [{"id": 0}, {"id": 1}], "adjacency": [[{"id": 1, "weight": 2}], [{"id": 0}, {"id": 1}]]}`), true)
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
	f.Add([]byte("a b {'weight': 2.5, 'note': \"x #1\"}\nb c {}\n"), uint8(NodeNames), false)
	f.Fuzz(func(t *testing.T, data []byte, ids uint8, directed bool) {
		opt := EdgeListOptions{IDs: EdgeIDs(ids % 3), Directed: directed, Limits: fuzzLimits}
		g, err := ReadEdgeList(bytes.NewReader(data), "fuzz.txt", opt)
		checkFuzzedGraph(t, g, err, "fuzz.txt")
	})
}

// addFormatSeeds adds the files of testdata/formats with the extension as seeds, with and
// without attributes.
func addFormatSeeds(f *testing.F, ext string) {
	paths, err := filepath.Glob(filepath.Join("testdata", "formats", "*"+ext))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no %s seeds: %v", ext, err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, true)
		f.Add(b, false)
	}
}

func FuzzReadGraphML(f *testing.F) {
	addFormatSeeds(f, ".graphml")
	f.Add([]byte(`<graphml><key id="x" for="node" attr.name="x" attr.type="int"><default>1</default></key><graph edgedefault="directed"><edge source="b" target="a" directed="false"/><node id="a"/><node id="b"><data key="x">2</data></node></graph></graphml>`), true)
	f.Add([]byte(`<graphml><graph edgedefault="undirected"><node id="a"><graph/></node><hyperedge/></graph></graphml>`), false)
	f.Add([]byte(`<graphml><key id="l" for="edge" attr.name="label" attr.type="string"><default>1</default></key><graph edgedefault="undirected"><node id="a"/><node id="b"/><edge source="a" target="b"><data key="l">double</data></edge><edge source="b" target="a"/></graph></graphml>`), false)
	f.Fuzz(func(t *testing.T, data []byte, attributes bool) {
		g, err := ReadGraphML(bytes.NewReader(data), "fuzz.graphml", NodeLinkOptions{Attributes: attributes, Limits: fuzzLimits})
		checkFuzzedGraph(t, g, err, "fuzz.graphml")
	})
}

func FuzzReadGEXF(f *testing.F) {
	f.Add([]byte(`<gexf version="1.3"><graph defaultedgetype="mutual"><attributes class="node"><attribute id="0" title="x" type="integer"><default>1</default></attribute><attribute id="1" title="k" type="string"/></attributes><nodes><node id="a"><attvalues><attvalue for="0" value="2"/><attvalue for="1" value="C"/></attvalues></node><node id="b"/></nodes><edges><edge source="b" target="a" type="directed" weight="2.5"/><edge source="a" target="b"/></edges></graph></gexf>`), true)
	f.Add([]byte(`<gexf><graph defaultedgetype="directed"><nodes><node id="a"><nodes><node id="b"/></nodes></node></nodes><edges><edge source="a" target="z" weight="-1"/></edges></graph></gexf>`), false)
	f.Add([]byte(gexfWeighted), true)
	f.Fuzz(func(t *testing.T, data []byte, attributes bool) {
		g, err := ReadGEXF(bytes.NewReader(data), "fuzz.gexf", NodeLinkOptions{Attributes: attributes, Categories: true, Limits: fuzzLimits})
		checkFuzzedGraph(t, g, err, "fuzz.gexf")
	})
}

func FuzzReadGML(f *testing.F) {
	addFormatSeeds(f, ".gml")
	f.Add([]byte("graph [ directed 1 label \"1\" node [ id 0 v 1 v 2 ] node [ id 1 v 3 v 4 graphics [ x 1 ] ] edge [ source 1 target 0 weight 2.5 ] ]"), true)
	f.Add([]byte("# c\ngraph [ node [ id 0 x NAN ] edge [ source 0 target 9 weight +INF ] ]"), false)
	f.Add([]byte("graph [ node [ id 0 ] node [ id 1 ] edge [ source 0 target 1 label \"double\" ] edge [ source 1 target 0 label 2 weight 0 ] ]"), false)
	f.Fuzz(func(t *testing.T, data []byte, attributes bool) {
		g, err := ReadGML(bytes.NewReader(data), "fuzz.gml", NodeLinkOptions{Attributes: attributes, Limits: fuzzLimits})
		checkFuzzedGraph(t, g, err, "fuzz.gml")
	})
}

func FuzzReadGraph6(f *testing.F) {
	addFormatSeeds(f, ".g6")
	f.Add([]byte("~?@E~~~~"), false)
	f.Add([]byte(":Fa@x^\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, _ bool) {
		g, err := ReadGraph6(bytes.NewReader(data), "fuzz.g6", fuzzLimits)
		checkFuzzedGraph(t, g, err, "fuzz.g6")
	})
}

func FuzzReadAdjList(f *testing.F) {
	addFormatSeeds(f, ".adjlist")
	f.Add([]byte("a b c\nb\n# c\nc a\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, directed bool) {
		g, err := ReadAdjList(bytes.NewReader(data), "fuzz.adjlist", EdgeListOptions{Directed: directed, Limits: fuzzLimits})
		checkFuzzedGraph(t, g, err, "fuzz.adjlist")
	})
}
