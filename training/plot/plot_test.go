//go:debug randseednop=0

package plot

import (
	"bytes"
	"context"
	"image/png"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// decode checks that b is a PNG of the given size in pixels (0: any) and returns its size.
func decode(t *testing.T, b []byte, wantW, wantH int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	r := img.Bounds()
	if (wantW > 0 && r.Dx() != wantW) || (wantH > 0 && r.Dy() != wantH) {
		t.Errorf("PNG %d×%d, want %d×%d", r.Dx(), r.Dy(), wantW, wantH)
	}
}

// model is a small model trained for two epochs on random graphs.
func model(t *testing.T) (*training.Model, []*graphs.Graph) {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	var data []*graphs.Graph
	for i := 0; i < 12; i++ {
		g, err := graphs.BarabasiAlbert(6+i%4, 1+i%2, rng)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, g)
	}
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.Layers, cfg.Epochs = 3, 5, 2
	m, err := training.NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := training.Fit(context.Background(), m, graphs.Slice(data), training.Options{}); err != nil {
		t.Fatal(err)
	}
	return m, data
}

func TestModelPictures(t *testing.T) {
	m, _ := model(t)
	var b bytes.Buffer
	if err := Loss(&b, "loss", m); err != nil {
		t.Fatal(err)
	}
	decode(t, b.Bytes(), 0, 0)
	b.Reset()
	if err := Atoms(&b, m, m.Z, 2); err != nil {
		t.Fatal(err)
	}
	// Two 3-inch tiles side by side, at gonum/plot's default 96 dpi.
	decode(t, b.Bytes(), 2*3*96, 3*96)
	b.Reset()
	class := []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}
	if err := TSNE(&b, "t-SNE", training.Lambda(m.Z), class, []string{"a", "b"}, 1, 30); err != nil {
		t.Fatal(err)
	}
	decode(t, b.Bytes(), 6*96, 4*96)
	b.Reset()
	if err := TSNE(&b, "t-SNE, no labels", m.Z, nil, nil, 1, 30); err != nil {
		t.Fatal(err)
	}
	decode(t, b.Bytes(), 0, 0)

	if err := Atoms(&b, m, m.Z, 0); err == nil {
		t.Error("0 atoms: no error")
	}
	if err := Atoms(&b, m, mat.NewDense(2, 5, nil), 1); err == nil {
		t.Error("embeddings of the wrong width: no error")
	}
	if err := Loss(&b, "", &training.Model{}); err == nil {
		t.Error("a model without epochs: no error")
	}
	if err := Lines(&b, "", "", "", false, []Series{{X: []float64{1, 2}, Y: []float64{1}}}); err == nil {
		t.Error("ragged series: no error")
	}
	if _, err := TSNELayout(mat.NewDense(3, 2, nil), 1, 10); err == nil {
		t.Error("t-SNE of 3 points: no error")
	}
}

// The t-SNE layout is reproducible for a seed.
func TestTSNELayoutIsSeeded(t *testing.T) {
	x := mat.NewDense(12, 3, nil)
	for i := 0; i < 12; i++ {
		for j := 0; j < 3; j++ {
			x.Set(i, j, float64((i*7+j*3)%5)+0.1*float64(i%2))
		}
	}
	a, err := TSNELayout(x, 3, 50)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := TSNELayout(x, 3, 50)
	c, _ := TSNELayout(x, 4, 50)
	if !mat.Equal(a, b) {
		t.Error("the same seed gave two layouts")
	}
	if mat.Equal(a, c) {
		t.Error("two seeds gave the same layout")
	}
}

func TestTopAtoms(t *testing.T) {
	lambda := mat.NewDense(3, 4, []float64{
		0.1, 0.2, 0.3, 0.4,
		0.1, 0.5, 0.2, 0.2,
		0.0, 0.4, 0.1, 0.5,
	}) // column sums 0.2, 1.1, 0.6, 1.1: ties go to the lower index
	if got := TopAtoms(lambda, 3); !slices.Equal(got, []int{1, 3, 2}) {
		t.Errorf("TopAtoms = %v, want [1 3 2]", got)
	}
	if got := TopAtoms(lambda, 9); len(got) != 4 {
		t.Errorf("TopAtoms of 9 from 4 atoms = %v", got)
	}
}

// TestClasses: each graph's class and the classes' names as the data write them; none when a
// graph is unlabelled.
func TestClasses(t *testing.T) {
	g := func(label int, has bool) *graphs.Graph { return &graphs.Graph{Label: label, HasLabel: has} }
	ds := &graphs.Dataset{Graphs: []*graphs.Graph{g(1, true), g(0, true), g(1, true)}, Classes: []int{-1, 1}}
	class, names := Classes(ds)
	if !slices.Equal(class, []int{1, 0, 1}) || !slices.Equal(names, []string{"class -1", "class 1"}) {
		t.Errorf("Classes = %v, %q", class, names)
	}
	ds.Graphs = append(ds.Graphs, g(0, false))
	if class, names := Classes(ds); class != nil || names != nil {
		t.Errorf("with an unlabelled graph: %v, %q", class, names)
	}
}
