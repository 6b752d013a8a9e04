package layerstest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Fixture is one test vector of layers/testdata: a GWD (Cs, Ct, …, Transport, Objective) or a
// GWF loss (V, H, Z, C, F, Mu, …, Loss and its gradients).
type Fixture struct {
	Kind   string  `json:"kind"`
	Name   string  `json:"name"`
	Solver string  `json:"solver"`
	Gamma  float64 `json:"gamma"`
	Layers int     `json:"layers"`
	Inner  int     `json:"inner"`

	Cs, Ct, Fs, Ft [][]float64
	Mus            []float64 `json:"mus"`
	Mut            []float64 `json:"mut"`
	Transport      [][]float64
	Objective      float64

	GWBLayers          int `json:"gwb_layers"`
	V, H               [][][]float64
	Z                  []float64
	C, F               [][]float64
	Mu                 []float64
	AtomMus            [][]float64 `json:"atom_mus"`
	Barycenter         [][]float64
	BarycenterFeatures [][]float64   `json:"barycenter_features"`
	AtomTransports     [][][]float64 `json:"atom_transports"`
	Loss               float64
	GradV              [][][]float64 `json:"grad_V"`
	GradZ              []float64     `json:"grad_z"`
	GradH              [][][]float64 `json:"grad_H"`
}

// LoadFixtures reads the fixtures of dir matching pattern; it fails t if there are none or one
// does not parse. A fixture without a name is named by its file.
func LoadFixtures(t testing.TB, dir, pattern string) []Fixture {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures %s in %s: %v", pattern, dir, err)
	}
	var out []Fixture
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var fx Fixture
		if err := json.Unmarshal(b, &fx); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if fx.Name == "" {
			fx.Name = filepath.Base(f)
		}
		out = append(out, fx)
	}
	return out
}
