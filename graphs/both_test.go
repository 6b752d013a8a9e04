package graphs

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestReadTUBoth: FeaturesBoth puts each node's attributes before its one-hot node label, and
// the encoding says where the labels start.
func TestReadTUBoth(t *testing.T) {
	fsys := tuTinyFS(t)
	ds, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: FeaturesBoth})
	if err != nil {
		t.Fatal(err)
	}
	// Attributes as in TestReadTUFeatures, labels 7,3,3 | 5,7 | 3,3,5,7 over the values 3, 5, 7.
	want := [][]float64{
		{1.5, -2, 0, 0, 1, 10.25, 0, 1, 0, 0, 0, 3, 1, 0, 0},
		{-1, 100.5, 0, 1, 0, 2, 2, 0, 0, 1},
		{0.125, 0.25, 1, 0, 0, 4, -4, 1, 0, 0, 5.5, 6.5, 0, 1, 0, 7, 8, 0, 0, 1},
	}
	for g, gr := range ds.Graphs {
		if got := tuDense(gr.F); !slices.Equal(got, want[g]) {
			t.Errorf("%s: F = %v, want %v", gr.Name, got, want[g])
		}
	}
	e := ds.Encoding
	if e.Kind != FeaturesBoth || e.Attributes != 2 || !slices.Equal(e.NodeLabels, []int{3, 5, 7}) || e.Dim() != 5 || e.Validate() != nil {
		t.Errorf("encoding %+v (dim %d, %v)", e, e.Dim(), e.Validate())
	}

	// The standardization leaves the one-hot columns as they are.
	mean, scale, err := e.Standardization(Slice(ds.Graphs))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(mean[2:], []float64{0, 0, 0}) || !slices.Equal(scale[2:], []float64{1, 1, 1}) || mean[0] == 0 || scale[1] == 1 {
		t.Errorf("standardization %v, %v", mean, scale)
	}
	e.Mean, e.Scale = mean, scale
	if err := e.Validate(); err != nil {
		t.Error(err)
	}
	e.Scale = slices.Clone(scale)
	e.Scale[4] = 2
	if err := e.Validate(); err == nil {
		t.Error("an encoding of kind both with a standardized one-hot column is valid")
	}

	// Without one of the two files, both is refused as features the data lack.
	delete(fsys, "TINY/TINY_node_labels.txt")
	if _, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: FeaturesBoth}); !errors.Is(err, ErrNoFeatures) {
		t.Errorf("both without node labels: %v, want ErrNoFeatures", err)
	}
}

// TestReadFolderBoth: a folder's numeric node attributes come first, its string attributes
// after them one-hot.
func TestReadFolderBoth(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.json": `{"directed": false, "multigraph": false, "graph": {}, "nodes": [{"id": 0, "element": "C", "x": 1.5}, {"id": 1, "element": "O", "x": -2}], "links": [{"source": 0, "target": 1}]}`,
		"b.json": `{"directed": false, "multigraph": false, "graph": {}, "nodes": [{"id": 0, "element": "N", "x": 3}, {"id": 1, "element": "C", "x": 0}], "links": [{"source": 0, "target": 1}]}`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := ReadFolder(dir, FolderOptions{Features: FeaturesBoth})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{1.5, 1, 0, 0, -2, 0, 0, 1}, {3, 0, 1, 0, 0, 1, 0, 0}}
	for g, gr := range ds.Graphs {
		if got := tuDense(gr.F); !slices.Equal(got, want[g]) {
			t.Errorf("%s: F = %v, want %v", gr.Name, got, want[g])
		}
	}
	e := ds.Encoding
	if e.Attributes != 1 || !slices.Equal(e.NodeLabelNames, []string{"element=C", "element=N", "element=O"}) || e.Validate() != nil {
		t.Errorf("encoding %+v (%v)", e, e.Validate())
	}
}

// TestReadFolderGMLCategories: a GML file's string node attributes are node labels (networkx
// write_gml: one value a key; a repeated key is a list, not a category), its numbers features.
func TestReadFolderGMLCategories(t *testing.T) {
	dir := t.TempDir()
	gml := `graph [
  node [ id 0 label "0" element "C" x 1.5 tags "a" tags "b" ]
  node [ id 1 label "1" element "O" x -2.0 tags "c" tags "d" ]
  edge [ source 0 target 1 ]
]`
	if err := os.WriteFile(filepath.Join(dir, "m.gml"), []byte(gml), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := ReadFolder(dir, FolderOptions{Features: FeaturesBoth})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tuDense(ds.Graphs[0].F), []float64{1.5, 1, 0, -2, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("F = %v, want %v", got, want)
	}
	if !slices.Equal(ds.Encoding.NodeLabelNames, []string{"element=C", "element=O"}) {
		t.Errorf("columns %v, want element only", ds.Encoding.NodeLabelNames)
	}
}
