package nodes

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers"
)

// The helpers below mirror those of the layers tests (a package's tests cannot share test files
// with another package); the fixtures are layers/testdata's, made by an independent
// numpy/torch implementation.

const fixtureTol = 1e-8

// fixture is one GWF loss test vector of ../testdata.
type fixture struct {
	Solver    string  `json:"solver"`
	Gamma     float64 `json:"gamma"`
	Layers    int     `json:"layers"`
	Inner     int     `json:"inner"`
	Name      string  `json:"name"`
	GWBLayers int     `json:"gwb_layers"`
	V, H      [][][]float64
	Z         []float64
	C, F      [][]float64
	Mu        []float64
	AtomMus   [][]float64 `json:"atom_mus"`
	Loss      float64
	GradV     [][][]float64 `json:"grad_V"`
	GradZ     []float64     `json:"grad_z"`
	GradH     [][][]float64 `json:"grad_H"`
}

func loadFixtures(t *testing.T, pattern string) []fixture {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", pattern))
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

func (fx fixture) forward() layers.Forward {
	var s layers.Solver = layers.PPA{Gamma: fx.Gamma, Layers: fx.Layers, Inner: fx.Inner, Weight: 1}
	if fx.Solver == "badmm" {
		s = layers.BADMM{Gamma: fx.Gamma, Layers: fx.Layers, Weight: 1}
	}
	return layers.Forward{GWB: layers.GWB{Solver: s, Layers: fx.GWBLayers}}
}

// fixtureModel returns the fixture's observed graph (atoms and z are read by the tests).
func fixtureModel(fx fixture) (_, _ any, obs layers.Space) {
	return nil, nil, layers.Space{C: dense(fx.C), Mu: fx.Mu, F: dense(fx.F)}
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

// randomModel makes K random atoms (V with some negative entries, so ReLU matters), their
// features when d > 0, and z.
func randomModel(rng *rand.Rand, sizes []int, d int) (v, h []*mat.Dense, mus [][]float64, z []float64) {
	for _, nk := range sizes {
		vk := mat.NewDense(nk, nk, nil)
		for i := 0; i < nk; i++ {
			for j := 0; j < nk; j++ {
				vk.Set(i, j, rng.Float64()*1.5-0.3)
			}
		}
		v = append(v, vk)
		mu := make([]float64, nk)
		for i := range mu {
			mu[i] = 1 / float64(nk)
		}
		mus = append(mus, mu)
		if d > 0 {
			hk := mat.NewDense(nk, d, nil)
			for i := 0; i < nk; i++ {
				for j := 0; j < d; j++ {
					hk.Set(i, j, rng.NormFloat64())
				}
			}
			h = append(h, hk)
		}
		z = append(z, rng.NormFloat64())
	}
	return v, h, mus, z
}

func atomsOf(v, h []*mat.Dense, mus [][]float64) []layers.Atom {
	atoms := make([]layers.Atom, len(v))
	for k, vk := range v {
		r, _ := vk.Dims()
		u := mat.NewDense(r, r, nil)
		layers.ReLU(u, vk)
		atoms[k] = layers.Atom{U: u, Mu: mus[k]}
		if h != nil {
			atoms[k].H = h[k]
		}
	}
	return atoms
}

// randomSpace makes a random weighted graph with n nodes, edge density p, weights in
// [0, scale], a random strictly positive mu, and d-dimensional features when d > 0.
func randomSpace(rng *rand.Rand, n int, p, scale float64, directed bool, d int) layers.Space {
	c := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j || (!directed && j < i) || rng.Float64() > p {
				continue
			}
			w := scale * rng.Float64()
			c.Set(i, j, w)
			if !directed {
				c.Set(j, i, w)
			}
		}
	}
	mu := make([]float64, n)
	s := 0.0
	for i := range mu {
		mu[i] = 0.5 + rng.Float64()
		s += mu[i]
	}
	for i := range mu {
		mu[i] /= s
	}
	sp := layers.Space{C: c, Mu: mu}
	if d > 0 {
		f := mat.NewDense(n, d, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				f.Set(i, j, rng.NormFloat64())
			}
		}
		sp.F = f
	}
	return sp
}
