package graphs

import (
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
