package layers

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fixture is one test vector from testdata (made by an independent numpy/torch implementation).
type fixture struct {
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

func loadFixtures(t *testing.T, pattern string) []fixture {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures %s: %v", pattern, err)
	}
	var out []fixture
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var fx fixture
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

// dense turns rows into a matrix; nil stays nil.
func dense(rows [][]float64) *mat.Dense {
	if rows == nil {
		return nil
	}
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

func (fx fixture) solver() Solver {
	if fx.Solver == "badmm" {
		return BADMM{Gamma: fx.Gamma, Layers: fx.Layers, Weight: 1}
	}
	return PPA{Gamma: fx.Gamma, Layers: fx.Layers, Inner: fx.Inner, Weight: 1}
}

// relErr is max|a−b| / max(max|b|, tiny): the relative error of a matrix as a whole.
func relErr(a []float64, b [][]float64) float64 {
	var diff, scale float64
	k := 0
	for _, row := range b {
		for _, v := range row {
			diff = math.Max(diff, math.Abs(a[k]-v))
			scale = math.Max(scale, math.Abs(v))
			k++
		}
	}
	if k != len(a) {
		return math.Inf(1)
	}
	return diff / math.Max(scale, 1e-300)
}

func scalarRelErr(a, b float64) float64 { return math.Abs(a-b) / math.Max(math.Abs(b), 1e-300) }
