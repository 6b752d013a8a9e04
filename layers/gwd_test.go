package layers

import (
	"testing"
)

const fixtureTol = 1e-8

func TestGWDFixtures(t *testing.T) {
	for _, fx := range loadFixtures(t, "gwd_*.json") {
		t.Run(fx.Name, func(t *testing.T) {
			src := Space{C: dense(fx.Cs), Mu: fx.Mus, F: dense(fx.Fs)}
			dst := Space{C: dense(fx.Ct), Mu: fx.Mut, F: dense(fx.Ft)}
			tr, obj, err := GWD(fx.solver(), src, dst)
			if err != nil {
				t.Fatal(err)
			}
			if e := relErr(tr.RawMatrix().Data, fx.Transport); e > fixtureTol {
				t.Errorf("transport relative error %.3g > %g", e, fixtureTol)
			}
			if e := scalarRelErr(obj, fx.Objective); e > fixtureTol {
				t.Errorf("objective %v, want %v (relative error %.3g)", obj, fx.Objective, e)
			}
		})
	}
}
