package gwops

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/layerstest"
)

const fixtureTol = 1e-8

// fixture is one GWF loss test vector of ../testdata (made by an independent numpy/torch
// implementation).
type fixture struct{ layerstest.Fixture }

func loadFixtures(t *testing.T, pattern string) []fixture {
	t.Helper()
	var out []fixture
	for _, fx := range layerstest.LoadFixtures(t, filepath.Join("..", "testdata"), pattern) {
		out = append(out, fixture{fx})
	}
	return out
}

// The helpers layers' and layers/gwops' tests share.
var (
	dense        = layerstest.Dense
	relErr       = layerstest.RelErr
	scalarRelErr = layerstest.ScalarRelErr
	randomModel  = layerstest.RandomModel
)

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

// randomSpace makes a random weighted graph (layerstest.RandomGraph) as a Space.
func randomSpace(rng *rand.Rand, n int, p, scale float64, directed bool, d int) layers.Space {
	c, f, mu := layerstest.RandomGraph(rng, n, p, scale, directed, d)
	sp := layers.Space{C: c, Mu: mu}
	if f != nil {
		sp.F = f
	}
	return sp
}
