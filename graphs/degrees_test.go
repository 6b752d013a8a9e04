package graphs

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// wantDegrees are the one-hot degrees of g counted from its dense adjacency: the other nodes a
// row reaches, the last column for DegreeBins−1 and more.
func wantDegrees(g *Graph) *mat.Dense {
	c := g.Dense()
	n := g.N()
	want := mat.NewDense(n, DegreeBins, nil)
	for i := range n {
		deg := 0
		for j := range n {
			if j != i && c.At(i, j) != 0 {
				deg++
			}
		}
		want.Set(i, min(deg, DegreeBins-1), 1)
	}
	return want
}

// TestOneHotDegrees: a star of 20 leaves (its centre in the last column), a leaf with a
// self-loop (which does not count) and an isolated node (column 0).
func TestOneHotDegrees(t *testing.T) {
	n := 22
	c := mat.NewDense(n, n, nil)
	for leaf := 1; leaf <= 20; leaf++ {
		c.Set(0, leaf, 1)
		c.Set(leaf, 0, 1)
	}
	c.Set(3, 3, 1)
	g, err := New("star", c, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, n*DegreeBins)
	for i := range x {
		x[i] = 7 // overwritten
	}
	OneHotDegrees(g.A, x)
	got := mat.NewDense(n, DegreeBins, x)
	if !mat.Equal(got, wantDegrees(g)) {
		t.Fatalf("one-hot degrees\n%v", mat.Formatted(got))
	}
	for i, col := range map[int]int{0: DegreeBins - 1, 3: 1, 5: 1, 21: 0} {
		if got.At(i, col) != 1 || mat.Sum(got.RowView(i)) != 1 {
			t.Errorf("node %d: row %v, want a one in column %d", i, got.RawRowView(i), col)
		}
	}
}

// TestReadDegrees: TU data, their scanner and a folder read with FeaturesDegrees give every
// graph its one-hot degrees, whatever features the files have, and an encoding that says so;
// the degrees count against the memory limit.
func TestReadDegrees(t *testing.T) {
	tiny := filepath.Join("testdata", "tu", "TINY")
	tu, err := ReadTUPath(tiny, TUOptions{Features: FeaturesDegrees})
	if err != nil {
		t.Fatal(err)
	}
	folder, err := ReadFolder(filepath.Join("testdata", "mixed"), FolderOptions{Features: FeaturesDegrees})
	if err != nil {
		t.Fatal(err)
	}
	for _, ds := range []*Dataset{tu, folder} {
		if ds.Encoding.Kind != FeaturesDegrees || ds.Encoding.Dim() != DegreeBins || ds.Encoding.Validate() != nil {
			t.Errorf("%s: encoding %+v (%v)", ds.Name, ds.Encoding, ds.Encoding.Validate())
		}
		for _, g := range ds.Graphs {
			if g.F == nil || !mat.Equal(g.F, wantDegrees(g)) {
				t.Errorf("%s: features of %s are not its one-hot degrees", ds.Name, g.Name)
			}
		}
	}
	b, err := json.Marshal(tu.Encoding)
	if err != nil || !strings.Contains(string(b), `"kind":"degrees"`) {
		t.Errorf("encoding JSON %s (%v)", b, err)
	}

	bare, err := ReadTUPath(tiny, TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var need int64
	for _, g := range bare.Graphs {
		need += g.Bytes()
	}
	// The smallest limit (to 64 bytes) at which the graphs are read: their degrees do not fit.
	lim := Limits{MaxDenseBytes: need}
	for ; lim.MaxDenseBytes < 4*need; lim.MaxDenseBytes += 64 {
		if _, err := ReadTUPath(tiny, TUOptions{Limits: lim}); err == nil {
			break
		}
	}
	if lim.MaxDenseBytes >= 4*need {
		t.Fatalf("TINY is not read within %d bytes", 4*need)
	}
	if _, err := ReadTUPath(tiny, TUOptions{Features: FeaturesDegrees, Limits: lim}); err == nil || !strings.Contains(err.Error(), "one-hot degrees need") {
		t.Errorf("degrees over the limit: %v", err)
	}
	if _, err := ReadFolder(filepath.Join("testdata", "mixed"), FolderOptions{Features: FeaturesDegrees, AutoFeatures: true}); err == nil {
		t.Error("AutoFeatures with degrees: no error")
	}
}
