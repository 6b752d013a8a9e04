package layers

import (
	"testing"

	"github.com/gwf-graphs/gwf/layers/layerstest"
)

// fixture is one test vector from testdata (made by an independent numpy/torch implementation).
type fixture struct{ layerstest.Fixture }

func loadFixtures(t *testing.T, pattern string) []fixture {
	t.Helper()
	var out []fixture
	for _, fx := range layerstest.LoadFixtures(t, "testdata", pattern) {
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

func (fx fixture) solver() Solver {
	if fx.Solver == "badmm" {
		return BADMM{Gamma: fx.Gamma, Layers: fx.Layers, Weight: 1}
	}
	return PPA{Gamma: fx.Gamma, Layers: fx.Layers, Inner: fx.Inner, Weight: 1}
}
