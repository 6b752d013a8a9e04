package layers

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fixtureModel turns a gwf fixture into atoms (U = ReLU(V)), λ = softmax(z) and the observed graph.
func fixtureModel(fx fixture) ([]Atom, []float64, Space) {
	atoms := make([]Atom, len(fx.V))
	for k, v := range fx.V {
		vm := dense(v)
		u := mat.NewDense(len(v), len(v), nil)
		ReLU(u, vm)
		atoms[k] = Atom{U: u, Mu: fx.AtomMus[k]}
		if fx.H != nil {
			atoms[k].H = dense(fx.H[k])
		}
	}
	lambda := make([]float64, len(fx.Z))
	Softmax(lambda, fx.Z)
	return atoms, lambda, Space{C: dense(fx.C), Mu: fx.Mu, F: dense(fx.F)}
}

func (fx fixture) forward() Forward {
	return Forward{GWB: GWB{Solver: fx.solver(), Layers: fx.GWBLayers}}
}

func TestForwardAndEnvelopeFixtures(t *testing.T) {
	for _, fx := range loadFixtures(t, "gwf_*.json") {
		t.Run(fx.Name, func(t *testing.T) {
			atoms, lambda, obs := fixtureModel(fx)
			var st ForwardState
			if err := fx.forward().Run(context.Background(), &st, atoms, lambda, obs); err != nil {
				t.Fatal(err)
			}
			check := func(what string, got []float64, want [][]float64) {
				t.Helper()
				if e := relErr(got, want); e > fixtureTol {
					t.Errorf("%s: relative error %.3g > %g", what, e, fixtureTol)
				}
			}
			check("barycenter", st.GWB.Barycenter().RawMatrix().Data, fx.Barycenter)
			if fx.BarycenterFeatures != nil {
				check("barycenter features", st.GWB.Features().RawMatrix().Data, fx.BarycenterFeatures)
			}
			for k := range atoms {
				check("atom transport", st.GWB.RawTransport(k), fx.AtomTransports[k])
			}
			check("final transport", st.RawTransport(), fx.Transport)

			gU := make([]*mat.Dense, len(atoms))
			gH := make([]*mat.Dense, len(atoms))
			for k, a := range atoms {
				r, _ := a.U.Dims()
				gU[k] = mat.NewDense(r, r, nil)
				if a.H != nil {
					_, d := a.H.Dims()
					gH[k] = mat.NewDense(r, d, nil)
				}
			}
			if fx.H == nil {
				gH = nil
			}
			gLambda := make([]float64, len(atoms))
			loss := st.Envelope(context.Background(), atoms, lambda, obs, 1, gU, gH, gLambda)
			if e := scalarRelErr(loss, fx.Loss); e > fixtureTol {
				t.Errorf("loss %v, want %v (rel %.3g)", loss, fx.Loss, e)
			}
			gz := make([]float64, len(atoms))
			SoftmaxBackward(gz, lambda, gLambda)
			check("grad z", gz, [][]float64{fx.GradZ})
			for k, a := range atoms {
				ReLUBackward(gU[k], a.U)
				check("grad V", gU[k].RawMatrix().Data, fx.GradV[k])
				if fx.GradH != nil {
					check("grad H", gH[k].RawMatrix().Data, fx.GradH[k])
				}
			}
		})
	}
}
