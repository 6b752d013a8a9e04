package graphs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// categoryFolder writes a folder of one node-link JSON and one GraphML file (as networkx
// writes them) whose nodes carry string attributes: "element" (a category), "name" (one value
// per node: more than MaxCategories over the folder) and, on the GraphML file, a key with a
// default.
func categoryFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var nodes []string
	for i := range MaxCategories + 1 {
		el := []string{"C", "N"}[i%2]
		if i == 3 {
			nodes = append(nodes, fmt.Sprintf(`{"id": %d, "name": "n%d", "charge": 0.5}`, i, i)) // no element
			continue
		}
		nodes = append(nodes, fmt.Sprintf(`{"id": %d, "element": %q, "name": "n%d", "charge": 0.5}`, i, el, i))
	}
	nl := `{"directed": false, "multigraph": false, "graph": {}, "nodes": [` + strings.Join(nodes, ",") + `], "links": [{"source": 0, "target": 1}]}`
	gml := `<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
<key id="d0" for="node" attr.name="element" attr.type="string"/>
<key id="d1" for="node" attr.name="ring" attr.type="string"><default>no</default></key>
<graph edgedefault="undirected">
<node id="a"><data key="d0">O</data></node>
<node id="b"><data key="d0">C</data><data key="d1">yes</data></node>
<edge source="a" target="b"/>
</graph></graphml>`
	for name, text := range map[string]string{"a.json": nl, "b.graphml": gml} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestReadFolderCategories: FeaturesLabels one-hot encodes a folder's string node attributes
// over the folder's values; an attribute with more than MaxCategories values is left out, a
// node without the attribute has none of its columns set, and a model's columns encode new
// graphs the same way, values they lack counted as unknown.
func TestReadFolderCategories(t *testing.T) {
	dir := categoryFolder(t)
	ds, err := ReadFolder(dir, FolderOptions{Features: FeaturesLabels})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"element=C", "element=N", "element=O", "ring=no", "ring=yes"}
	if !slices.Equal(ds.Encoding.NodeLabelNames, want) || ds.Encoding.Kind != FeaturesLabels || ds.Encoding.Validate() != nil {
		t.Fatalf("encoding %+v (%v), want columns %q", ds.Encoding, ds.Encoding.Validate(), want)
	}
	a, b := ds.Graphs[0].F, ds.Graphs[1].F
	rows := func(f *mat.Dense, i int) []float64 { return f.RawRowView(i) }
	if !slices.Equal(rows(a, 0), []float64{1, 0, 0, 0, 0}) || !slices.Equal(rows(a, 1), []float64{0, 1, 0, 0, 0}) ||
		!slices.Equal(rows(a, 3), []float64{0, 0, 0, 0, 0}) {
		t.Errorf("node-link rows %v %v %v", rows(a, 0), rows(a, 1), rows(a, 3))
	}
	if !slices.Equal(rows(b, 0), []float64{0, 0, 1, 1, 0}) || !slices.Equal(rows(b, 1), []float64{1, 0, 0, 0, 1}) {
		t.Errorf("GraphML rows %v %v (the default \"no\" on the first)", rows(b, 0), rows(b, 1))
	}
	if !Categorical(ds.Graphs) {
		t.Error("one-hot categories are not Categorical")
	}
	// A model's columns: O is unknown to them.
	ds2, err := ReadFolder(dir, FolderOptions{Features: FeaturesLabels, NodeLabelNames: []string{"element=C", "element=N"}})
	if err != nil {
		t.Fatal(err)
	}
	if ds2.Graphs[1].Dim() != 2 || ds2.UnknownNodeLabels != 1 || !slices.Equal(ds2.Graphs[1].F.RawRowView(0), []float64{0, 0}) {
		t.Errorf("with given columns: width %d, %d unknown (want 1: b's O; ring and name are not encoded)", ds2.Graphs[1].Dim(), ds2.UnknownNodeLabels)
	}
	// Strings are not attributes: the GraphML file has none.
	if _, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes}); err == nil || !strings.Contains(err.Error(), "b.graphml: no numeric node attributes") {
		t.Errorf("attributes of string-only nodes: error %v", err)
	}
	if _, err := ReadFolder(dir, FolderOptions{Features: FeaturesNone, NodeLabelNames: want}); err == nil {
		t.Error("NodeLabelNames without labels: no error")
	}
}

// TestReadFolderNoCategories: a folder without string node attributes has no labels, an
// ErrNoFeatures error that says why.
func TestReadFolderNoCategories(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("x y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFolder(dir, FolderOptions{Features: FeaturesLabels})
	if !errors.Is(err, ErrNoFeatures) || !strings.Contains(err.Error(), "no string node attributes") {
		t.Fatalf("error %v, want ErrNoFeatures", err)
	}
	_, err = ReadFolder(dir, FolderOptions{Features: FeaturesLabels, Limits: Limits{MaxDenseBytes: 1}})
	if err == nil {
		t.Fatal("over the memory limit: no error")
	}
}

// TestEncodingNodeLabelNames: names are sorted and distinct, and exclude integer values.
func TestEncodingNodeLabelNames(t *testing.T) {
	for _, tc := range []struct {
		e  FeatureEncoding
		ok bool
	}{
		{FeatureEncoding{Kind: FeaturesLabels, NodeLabelNames: []string{"a=1", "a=2"}}, true},
		{FeatureEncoding{Kind: FeaturesLabels, NodeLabelNames: []string{"a=2", "a=1"}}, false},
		{FeatureEncoding{Kind: FeaturesLabels, NodeLabelNames: []string{"a=1", "a=1"}}, false},
		{FeatureEncoding{Kind: FeaturesLabels, NodeLabelNames: []string{"a=1"}, NodeLabels: []int{1}}, false},
		{FeatureEncoding{Kind: FeaturesAttributes, NodeLabelNames: []string{"a=1"}}, false},
		{FeatureEncoding{Kind: FeaturesNone, NodeLabelNames: []string{"a=1"}}, false},
	} {
		if err := tc.e.Validate(); (err == nil) != tc.ok {
			t.Errorf("%+v: error %v, want ok %v", tc.e, err, tc.ok)
		}
	}
	e := FeatureEncoding{Kind: FeaturesLabels, NodeLabelNames: []string{"a=1", "b=x"}}
	if c := e.Clone(); e.Dim() != 2 || !slices.Equal(c.NodeLabelNames, e.NodeLabelNames) {
		t.Errorf("dim %d, clone %+v", e.Dim(), c)
	}
}

// TestIntegerNodeLabels: a node attribute "label" of integers (networkx graphs made from TU
// data) is a node label, one-hot over its values, in node-link, GraphML and GEXF files alike;
// other integer attributes, and a "label" of other numbers, stay numeric attributes.
func TestIntegerNodeLabels(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.json": `{"nodes": [{"id": 0, "label": 3, "charge": 1}, {"id": 1, "label": 12, "charge": 0}], "links": [{"source": 0, "target": 1}]}`,
		"b.graphml": `<graphml><key id="l" for="node" attr.name="label" attr.type="long"/><key id="c" for="node" attr.name="charge" attr.type="int"/>
<graph edgedefault="undirected"><node id="0"><data key="l">12</data><data key="c">2</data></node><node id="1"><data key="l">3</data><data key="c">0</data></node><edge source="0" target="1"/></graph></graphml>`,
		"c.gexf": `<gexf version="1.2"><graph><attributes class="node"><attribute id="0" title="label" type="integer"/><attribute id="1" title="charge" type="integer"/></attributes>
<nodes><node id="0"><attvalues><attvalue for="0" value="3"/><attvalue for="1" value="1"/></attvalues></node><node id="1"><attvalues><attvalue for="0" value="3"/><attvalue for="1" value="1"/></attvalues></node></nodes>
<edges><edge source="0" target="1"/></edges></graph></gexf>`,
	})
	ds, err := ReadFolder(dir, FolderOptions{Features: FeaturesBoth})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"label=12", "label=3"}; !slices.Equal(ds.Encoding.NodeLabelNames, want) || ds.Encoding.Attributes != 1 {
		t.Fatalf("node labels %v, %d attributes; want %v beside charge", ds.Encoding.NodeLabelNames, ds.Encoding.Attributes, want)
	}
	for g, want := range [][]float64{{1, 0, 1, 0, 1, 0}, {2, 1, 0, 0, 0, 1}, {1, 0, 1, 1, 0, 1}} { // charge, label=12, label=3 per node
		if got := ds.Graphs[g].F.RawMatrix().Data; !slices.Equal(got, want) {
			t.Errorf("%s: features %v, want %v", ds.Graphs[g].Name, got, want)
		}
	}
	// A label of other numbers is a number.
	dir = writeFiles(t, map[string]string{"a.json": `{"nodes": [{"id": 0, "label": 0.5}, {"id": 1, "label": 2}], "links": []}`})
	if _, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes}); err == nil || !strings.Contains(err.Error(), "every node needs the same ones") {
		t.Errorf("a label of 0.5 and 2: %v, want the numeric attributes of node 0 and not node 1", err)
	}
}
