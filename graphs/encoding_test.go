package graphs

import (
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestApplyStandardization: the means and scales StandardizeFeatures returns, applied to a
// copy of the same graphs, give the same features bit for bit; bad input changes nothing.
func TestApplyStandardization(t *testing.T) {
	mk := func() []*Graph {
		a, err := New("a", mat.NewDense(2, 2, []float64{0, 1, 1, 0}), nil, mat.NewDense(2, 2, []float64{1, 5, 3.25, 5}))
		if err != nil {
			t.Fatal(err)
		}
		b, err := New("b", mat.NewDense(1, 1, []float64{0}), nil, mat.NewDense(1, 2, []float64{-7, 5}))
		if err != nil {
			t.Fatal(err)
		}
		return []*Graph{a, b}
	}
	want, copied := mk(), mk()
	mean, scale, err := StandardizeFeatures(want)
	if err != nil {
		t.Fatal(err)
	}
	if err := ApplyStandardization(copied, mean, scale); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !mat.Equal(want[i].F, copied[i].F) {
			t.Errorf("graph %d: %v, want %v", i, mat.Formatted(copied[i].F), mat.Formatted(want[i].F))
		}
	}
	for _, c := range []struct {
		name        string
		mean, scale []float64
		want        string
	}{
		{"width", []float64{0}, []float64{1}, "feature dimensions"},
		{"lengths", []float64{0, 0}, []float64{1}, "scales"},
		{"zero scale", []float64{0, 0}, []float64{1, 0}, "scale > 0"},
		{"NaN mean", []float64{math.NaN(), 0}, []float64{1, 1}, "scale > 0"},
		{"overflow", []float64{0, 0}, []float64{1, 1e-310}, "out of range"},
	} {
		gs := mk()
		if err := ApplyStandardization(gs, c.mean, c.scale); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
		if gs[0].F.At(1, 0) != 3.25 {
			t.Errorf("%s: features changed by a refused standardization", c.name)
		}
	}
}

// TestFeatureEncodingJSON: an encoding survives JSON, with its kind as text, and Validate
// refuses what no reader makes.
func TestFeatureEncodingJSON(t *testing.T) {
	e := FeatureEncoding{Kind: FeaturesLabels, NodeLabels: []int{-1, 3, 8}, Mean: []float64{0.5, 0, 1}, Scale: []float64{1, 2, 3}}
	b, err := json.Marshal(e)
	if err != nil || !strings.Contains(string(b), `"kind":"labels"`) {
		t.Fatalf("%s (%v)", b, err)
	}
	var back FeatureEncoding
	if err := json.Unmarshal(b, &back); err != nil || back.Kind != e.Kind || !slices.Equal(back.NodeLabels, e.NodeLabels) || !slices.Equal(back.Scale, e.Scale) {
		t.Errorf("round trip: %+v (%v)", back, err)
	}
	if err := json.Unmarshal([]byte(`{"kind":"colours"}`), &back); err == nil {
		t.Error("an unknown kind decoded")
	}
	if e.Validate() != nil || e.Dim() != 3 || !e.Standardized() {
		t.Errorf("valid encoding: %v, dim %d", e.Validate(), e.Dim())
	}
	for name, bad := range map[string]FeatureEncoding{
		"none with values":       {Kind: FeaturesNone, NodeLabels: []int{1}},
		"labels without values":  {Kind: FeaturesLabels},
		"labels unsorted":        {Kind: FeaturesLabels, NodeLabels: []int{2, 1}},
		"labels repeated":        {Kind: FeaturesLabels, NodeLabels: []int{1, 1}},
		"attributes with values": {Kind: FeaturesAttributes, NodeLabels: []int{1}},
		"means without scales":   {Kind: FeaturesAttributes, Mean: []float64{1}},
		"means of another width": {Kind: FeaturesLabels, NodeLabels: []int{1, 2}, Mean: []float64{0}, Scale: []float64{1}},
		"infinite scale":         {Kind: FeaturesAttributes, Mean: []float64{0}, Scale: []float64{math.Inf(1)}},
		"unknown kind":           {Kind: FeatureKind(7)},
		"degrees standardized":   {Kind: FeaturesDegrees, Mean: make([]float64, DegreeBins), Scale: make([]float64, DegreeBins)},
		"degrees with values":    {Kind: FeaturesDegrees, NodeLabels: []int{1}},
	} {
		if bad.Validate() == nil {
			t.Errorf("%s: valid", name)
		}
	}
}

// TestReadTUGivenNodeLabels: with TUOptions.NodeLabels the one-hot columns are the values given,
// not those of the file, for ReadTU and the TUScanner alike; nodes with other labels get zero
// rows and are counted.
func TestReadTUGivenNodeLabels(t *testing.T) {
	fsys := tuTinyFS(t) // node labels 7,3,3 | 5,7 | 3,3,5,7
	values := []int{1, 3, 7}
	ds, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: FeaturesLabels, NodeLabels: values})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{
		{0, 0, 1, 0, 1, 0, 0, 1, 0},
		{0, 0, 0, 0, 0, 1},
		{0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1},
	}
	for g, gr := range ds.Graphs {
		if got := tuDense(gr.F); !slices.Equal(got, want[g]) {
			t.Errorf("%s: F = %v, want %v", gr.Name, got, want[g])
		}
	}
	if ds.UnknownNodeLabels != 2 || !slices.Equal(ds.Encoding.NodeLabels, values) || ds.Encoding.Kind != FeaturesLabels {
		t.Errorf("%d unknown node labels (want the two 5s), encoding %+v", ds.UnknownNodeLabels, ds.Encoding)
	}
	sc, err := NewTUScanner(filepath.Join("testdata", "tu", "TINY"), TUOptions{Features: FeaturesLabels, NodeLabels: values})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	for range 3 {
		if _, err := sc.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if sc.UnknownNodeLabels() != 2 {
		t.Errorf("the scanner counts %d unknown node labels, want 2", sc.UnknownNodeLabels())
	}
	for _, bad := range [][]int{{3, 1}, {}} {
		if _, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: FeaturesLabels, NodeLabels: bad}); err == nil {
			t.Errorf("node-label values %v accepted", bad)
		}
	}
	if _, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: FeaturesAttributes, NodeLabels: values}); err == nil {
		t.Error("node-label values accepted with attributes")
	}
}

// TestEncodingClone: a clone has every field (a model keeps its encoding by Clone) and shares
// no slice with the original.
func TestEncodingClone(t *testing.T) {
	e := FeatureEncoding{Kind: FeaturesBoth, NodeLabels: []int{1, 2}, Attributes: 1, Mean: []float64{0.5}, Scale: []float64{2},
		Structure: ShortestPath, EdgeLabels: true}
	c := e.Clone()
	if !reflect.DeepEqual(c, e) {
		t.Fatalf("clone %+v, want %+v", c, e)
	}
	c.NodeLabels[0], c.Mean[0] = 9, 9
	if e.NodeLabels[0] != 1 || e.Mean[0] != 0.5 {
		t.Error("the clone shares slices with the original")
	}
}
