package collection

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// folderOf writes files (name: contents) to a new folder and returns it.
func folderOf(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestAutoFeatures: AutoFeatures reads attributes (standardized) and labels where the data
// have both, either where they have one, and none where they have neither; a numeric attribute
// that some nodes lack is left out and said so, whether or not others are left.
func TestAutoFeatures(t *testing.T) {
	nodeLink := func(nodes string) string {
		return `{"nodes": [` + nodes + `], "links": [{"source": 0, "target": 1}]}`
	}
	partial := func(extra string) map[string]string {
		return map[string]string{
			"a.json": nodeLink(`{"id": 0, "block": 0` + extra + `}, {"id": 1, "block": 1` + extra + `}`),
			"b.json": nodeLink(`{"id": 0, "block": 0` + extra + `}, {"id": 1, "block": 1` + extra + `}, {"id": 999` + extra + `}`),
		}
	}
	for _, c := range []struct {
		name    string
		spec    Spec
		kind    graphs.FeatureKind
		std     bool
		dim     int
		leftOut string
	}{
		{"TU attributes and labels", Spec{Dataset: "PROTEINS", Subset: 5}, graphs.FeaturesBoth, true, 4, ""},
		{"TU labels", Spec{Dataset: "MUTAG", Subset: 5}, graphs.FeaturesLabels, false, 7, ""},
		{"attributes", Spec{Folder: folderOf(t, map[string]string{
			"a.json": `{"adjacency": [[0,1],[1,0]], "features": [[1],[2]]}`,
			"b.json": `{"adjacency": [[0,1],[1,0]], "features": [[3],[5]]}`})}, graphs.FeaturesAttributes, true, 1, ""},
		{"attributes and labels", Spec{Folder: folderOf(t, map[string]string{
			"a.json": nodeLink(`{"id": 0, "element": "C", "mass": 12}, {"id": 1, "element": "N", "mass": 14}`),
			"b.json": nodeLink(`{"id": 0, "element": "O", "mass": 16}, {"id": 1, "element": "C", "mass": 12}`)})}, graphs.FeaturesBoth, true, 4, ""},
		{"labels", Spec{Folder: folderOf(t, map[string]string{
			"a.json": nodeLink(`{"id": 0, "element": "C"}, {"id": 1, "element": "N"}`)})}, graphs.FeaturesLabels, false, 2, ""},
		{"nothing", Spec{Folder: folderOf(t, map[string]string{"a.txt": "x y\n", "b.txt": "x y\ny z\n"})}, graphs.FeaturesNone, false, 0, ""},
		{"partial attributes, none left", Spec{Folder: folderOf(t, partial(""))}, graphs.FeaturesNone, false, 0, `"block" left out`},
		{"partial attributes, one left", Spec{Folder: folderOf(t, partial(`, "x": 2.5`))}, graphs.FeaturesAttributes, true, 1, `"block" left out`},
		{"partial attributes, labels", Spec{Folder: folderOf(t, partial(`, "element": "C"`))}, graphs.FeaturesLabels, false, 1, `"block" left out`},
	} {
		c.spec.AutoFeatures = true
		ds, err := Load(c.spec)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		e := ds.Encoding
		if e.Kind != c.kind || e.Standardized() != c.std || ds.Graphs[0].Dim() != c.dim {
			t.Errorf("%s: read %v (standardized %v), width %d; want %v (%v), %d", c.name, e.Kind, e.Standardized(), ds.Graphs[0].Dim(), c.kind, c.std, c.dim)
		}
		if got := strings.Join(ds.LeftOut, "; "); (c.leftOut == "") != (got == "") || !strings.Contains(got, c.leftOut) {
			t.Errorf("%s: left out %q, want %q", c.name, got, c.leftOut)
		}
	}
}

// TestAutoFeaturesAsGiven: what AutoFeatures reads is what the same features asked for read.
func TestAutoFeaturesAsGiven(t *testing.T) {
	auto, err := Load(Spec{Dataset: "PROTEINS", Subset: 6, AutoFeatures: true})
	if err != nil {
		t.Fatal(err)
	}
	given, err := Load(Spec{Dataset: "PROTEINS", Subset: 6, Features: graphs.FeaturesBoth, Standardize: true, OmitPartialAttributes: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range given.Graphs {
		if !mat.Equal(auto.Graphs[i].F, given.Graphs[i].F) {
			t.Fatalf("graph %d: features differ from --features both --standardize", i)
		}
	}
}

// TestAutoFeaturesErrors: features that are there but cannot be read are an error, not a
// reason to read fewer; AutoFeatures takes no features, Encoding or Window of its own.
func TestAutoFeaturesErrors(t *testing.T) {
	dir := folderOf(t, map[string]string{
		"a.json": `{"adjacency": [[0,1],[1,0]], "features": [[1],[2]]}`,
		"b.json": `{"adjacency": [[0,1],[1,0]], "features": [[1,0],[2,0]]}`,
	})
	if ds, err := Load(Spec{Folder: dir, AutoFeatures: true}); err == nil {
		t.Errorf("features of two widths: read as %v", ds.Encoding.Kind)
	}
	for _, s := range []Spec{
		{Dataset: "MUTAG", AutoFeatures: true, Features: graphs.FeaturesLabels},
		{Dataset: "MUTAG", AutoFeatures: true, Standardize: true},
		{Dataset: "MUTAG", AutoFeatures: true, Encoding: &graphs.FeatureEncoding{}},
		{Dataset: "MUTAG", AutoFeatures: true, Window: func(n int) (int, int) { return 0, n }},
	} {
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "AutoFeatures") {
			t.Errorf("%+v: %v", s, err)
		}
	}
}

// TestAutoFeaturesFolderReadOnce: AutoFeatures reads a Folder once, and reads what the tries
// read, one folder read each (loadTries, as for TU data): the same graphs, features, labels
// and notes, or the same error.
func TestAutoFeaturesFolderReadOnce(t *testing.T) {
	nodeLink := func(nodes, links string) string {
		return `{"nodes": [` + nodes + `], "links": [` + links + `]}`
	}
	link := `{"source": 0, "target": 1}`
	labelled := `{"source": 0, "target": 1, "label": 2}`
	partial := func(extra string) map[string]string {
		return map[string]string{
			"a.json": nodeLink(`{"id": 0, "block": 0`+extra+`}, {"id": 1, "block": 1`+extra+`}`, link),
			"b.json": nodeLink(`{"id": 0, "block": 0`+extra+`}, {"id": 1, "block": 1`+extra+`}, {"id": 999`+extra+`}`, link),
		}
	}
	folders := map[string]string{
		"mixed":        filepath.Join("..", "testdata", "mixed"),
		"edge lists":   folderOf(t, map[string]string{"a.txt": "x y\n", "b.txt": "x y\ny z\n", "labels.csv": "a.txt,0\nb.txt,1\n"}),
		"attributes":   folderOf(t, map[string]string{"a.json": `{"adjacency": [[0,1],[1,0]], "features": [[1],[2]]}`, "b.json": `{"adjacency": [[0,1],[1,0]], "features": [[3],[5]]}`}),
		"both":         folderOf(t, map[string]string{"a.json": nodeLink(`{"id": 0, "element": "C", "mass": 12}, {"id": 1, "element": "N", "mass": 14}`, link), "b.json": nodeLink(`{"id": 0, "element": "O", "mass": 16}, {"id": 1, "element": "C", "mass": 12}`, link)}),
		"labels":       folderOf(t, map[string]string{"a.json": nodeLink(`{"id": 0, "element": "C"}, {"id": 1, "element": "N"}`, labelled), "b.json": nodeLink(`{"id": 0, "element": "C"}, {"id": 1}`, link)}),
		"none left":    folderOf(t, partial("")),
		"one left":     folderOf(t, partial(`, "x": 2.5`)),
		"left, labels": folderOf(t, partial(`, "element": "C"`)),
		"two widths":   folderOf(t, map[string]string{"a.json": `{"adjacency": [[0,1],[1,0]], "features": [[1],[2]]}`, "b.json": `{"adjacency": [[0,1],[1,0]], "features": [[1,0],[2,0]]}`}),
	}
	reads := 0
	counted := func(dir string, opt graphs.FolderOptions) (*graphs.Dataset, error) {
		reads++
		return graphs.ReadFolder(dir, opt)
	}
	for name, dir := range folders {
		for _, edgeLabels := range []bool{false, true} {
			s := Spec{Folder: dir, EdgeLabels: edgeLabels, PartialLabels: graphs.PartialLabelsKept, readFolder: counted}
			reads = 0
			want, wantErr := loadTries(Spec{Folder: dir, EdgeLabels: edgeLabels, PartialLabels: graphs.PartialLabelsKept, OmitPartialAttributes: true})
			s.AutoFeatures = true
			reads = 0
			got, err := Load(s)
			if reads != 1 {
				t.Errorf("%s: the folder read %d times", name, reads)
			}
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Errorf("%s: error %v, want %v", name, err, wantErr)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (edge labels %v): read\n%+v\nwant\n%+v", name, edgeLabels, got, want)
			}
		}
	}
}
