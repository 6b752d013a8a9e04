package graphs

import (
	"errors"
	"strings"
	"testing"
)

// TestReadFolderAttributesByName: numeric node attributes are matched by name across the
// graphs of a folder. Graphs with "temperature" and graphs with "charge" are refused, naming
// both attributes and a graph with each, in any mix of formats; before, they became one
// feature column without a word. Graphs whose attributes have the same names read.
func TestReadFolderAttributesByName(t *testing.T) {
	nl := func(attr string) string {
		return `{"nodes": [{"id": 0, "` + attr + `": 1.5}, {"id": 1, "` + attr + `": 2}], "links": [{"source": 0, "target": 1}]}`
	}
	gml := func(attr string) string {
		return "graph [\n node [ id 0 " + attr + " 1.5 ]\n node [ id 1 " + attr + " 2 ]\n edge [ source 0 target 1 ]\n]\n"
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // in the error; none: it reads
	}{
		{"node-link", map[string]string{"a.json": nl("temperature"), "b.json": nl("charge")},
			[]string{"b.json: numeric node attributes \"charge\", but a.json has \"temperature\"", "matched by attribute name"}},
		{"node-link and GML", map[string]string{"a.json": nl("temperature"), "b.gml": gml("charge")},
			[]string{"b.gml: numeric node attributes \"charge\", but a.json has \"temperature\""}},
		{"the same names", map[string]string{"a.json": nl("charge"), "b.gml": gml("charge")}, nil},
	} {
		for _, features := range []FeatureKind{FeaturesAttributes, FeaturesBoth} {
			ds, err := ReadFolder(writeFiles(t, tc.files), FolderOptions{Features: features})
			switch {
			case tc.want == nil && features == FeaturesAttributes && (err != nil || ds.Graphs[1].Dim() != 1):
				t.Errorf("%s, %v: %v", tc.name, features, err)
			case tc.want != nil && err == nil:
				t.Errorf("%s, %v: read, %d features", tc.name, features, ds.Graphs[0].Dim())
			case tc.want != nil:
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s, %v: error %v lacks %q", tc.name, features, err, w)
					}
				}
			}
		}
	}
}

// TestReadFolderOmitPartialAttributes: with OmitPartialAttributes, a numeric node attribute
// that a node lacks (node-link, GraphML) is left out of every graph and Dataset.LeftOut says
// which node lacks it; the others stay, by name. Where none is left the error wraps
// ErrNoAttributes and LeftOutOf keeps the note. Without the option the folder is refused, the
// node named by its id. A whole graph without an attribute is refused either way.
func TestReadFolderOmitPartialAttributes(t *testing.T) {
	nl := func(nodes string) string {
		return `{"nodes": [` + nodes + `], "links": [{"source": 0, "target": 1}]}`
	}
	graphml := `<graphml><key id="b" for="node" attr.name="block" attr.type="int"/><key id="x" for="node" attr.name="x" attr.type="double"/>
<graph edgedefault="undirected"><node id="0"><data key="b">0</data><data key="x">1</data></node><node id="1"><data key="x">2</data></node><edge source="0" target="1"/></graph></graphml>`
	for _, tc := range []struct {
		name    string
		files   map[string]string
		dim     int    // features kept; 0: none, an error
		leftOut string // in LeftOut, or in LeftOutOf(err)
		strict  string // the error without the option
	}{
		{"node-link, a node without", map[string]string{
			"a.json": nl(`{"id": 0, "block": 0, "x": 1}, {"id": 1, "block": 1, "x": 2}`),
			"b.json": nl(`{"id": 0, "block": 0, "x": 1}, {"id": 1, "block": 1, "x": 2}, {"id": 999, "x": 3}`)},
			1, `"block" left out of the node features: node 999 of b.json lacks it, node 0 has it`,
			`b.json: invalid graph: node 999 lacks the numeric attribute "block" that node 0 has`},
		{"GraphML, a node without", map[string]string{
			"a.json": nl(`{"id": 0, "block": 0, "x": 1}, {"id": 1, "block": 1, "x": 2}`), "b.graphml": graphml},
			1, `"block" left out of the node features: node "1" of b.graphml lacks it, node "0" has it`,
			`b.graphml: invalid graph: node "1" lacks the numeric attribute "block" that node "0" has`},
		{"none left", map[string]string{
			"a.json": nl(`{"id": 0, "block": 0}, {"id": 1, "block": 1}`),
			"b.json": nl(`{"id": 0, "block": 0}, {"id": 1, "block": 1}, {"id": 999}`)},
			0, `"block" left out of the node features: node 999 of b.json lacks it`,
			`node 999 lacks the numeric attribute "block" that node 0 has`},
	} {
		dir := writeFiles(t, tc.files)
		ds, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes, OmitPartialAttributes: true})
		switch {
		case tc.dim == 0:
			if !errors.Is(err, ErrNoAttributes) || len(LeftOutOf(err)) != 1 || !strings.Contains(LeftOutOf(err)[0], tc.leftOut) {
				t.Errorf("%s: %v, left out %q", tc.name, err, LeftOutOf(err))
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		default:
			for _, g := range ds.Graphs {
				if g.Dim() != tc.dim || g.F.At(1, 0) != 2 {
					t.Errorf("%s: %s has %d features, %v", tc.name, g.Name, g.Dim(), g.F)
				}
			}
			if len(ds.LeftOut) != 1 || !strings.Contains(ds.LeftOut[0], tc.leftOut) {
				t.Errorf("%s: left out %q, want %q", tc.name, ds.LeftOut, tc.leftOut)
			}
		}
		if _, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes}); err == nil || !strings.Contains(err.Error(), tc.strict) {
			t.Errorf("%s, strict: %v, want %q", tc.name, err, tc.strict)
		}
	}
	dir := writeFiles(t, map[string]string{
		"a.json": nl(`{"id": 0, "block": 0, "x": 1}, {"id": 1, "block": 1, "x": 2}`),
		"b.json": nl(`{"id": 0, "x": 1}, {"id": 1, "x": 2}`)})
	if _, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes, OmitPartialAttributes: true}); err == nil ||
		!strings.Contains(err.Error(), `b.json: numeric node attributes "x", but a.json has "block", "x"`) {
		t.Errorf("a graph without: %v", err)
	}
}

// TestReadFolderAutoFeatures: AutoFeatures chooses among what the folder has, the kind in
// Dataset.Encoding.Kind, and refuses features given beside it.
func TestReadFolderAutoFeatures(t *testing.T) {
	nl := func(nodes string) string {
		return `{"nodes": [` + nodes + `], "links": [{"source": 0, "target": 1}]}`
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		kind  FeatureKind
		dim   int
	}{
		{"both", map[string]string{"a.json": nl(`{"id": 0, "e": "C", "m": 1}, {"id": 1, "e": "N", "m": 2}`)}, FeaturesBoth, 3},
		{"attributes", map[string]string{"a.json": nl(`{"id": 0, "m": 1}, {"id": 1, "m": 2}`)}, FeaturesAttributes, 1},
		{"labels", map[string]string{"a.json": nl(`{"id": 0, "e": "C"}, {"id": 1, "e": "N", "m": 2}`)}, FeaturesLabels, 2},
		{"none", map[string]string{"a.txt": "x y\n"}, FeaturesNone, 0},
	} {
		ds, err := ReadFolder(writeFiles(t, tc.files), FolderOptions{AutoFeatures: true})
		if err != nil || ds.Encoding.Kind != tc.kind || ds.Graphs[0].Dim() != tc.dim {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if tc.kind == FeaturesLabels && len(ds.LeftOut) != 1 {
			t.Errorf("%s: left out %q, want the attribute m", tc.name, ds.LeftOut)
		}
	}
	if _, err := ReadFolder(writeFiles(t, map[string]string{"a.txt": "x y\n"}), FolderOptions{AutoFeatures: true, Features: FeaturesLabels}); err == nil {
		t.Error("AutoFeatures with features: no error")
	}
}
