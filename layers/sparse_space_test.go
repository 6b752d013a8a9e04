package layers

import (
	"context"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// TestSparseSpaceSameAsDense: an observed graph given sparse (Space.A) gives bit for bit the
// barycenter, transports, loss and gradients that the same graph given dense (Space.C) gives.
func TestSparseSpaceSameAsDense(t *testing.T) {
	for _, fx := range loadFixtures(t, "gwf_*.json") {
		t.Run(fx.Name, func(t *testing.T) {
			atoms, lambda, dense := fixtureModel(fx)
			a, err := csr.FromDense(dense.C)
			if err != nil {
				t.Fatal(err)
			}
			sparse := Space{A: a, Mu: dense.Mu, F: dense.F}
			if err := sparse.Validate("sparse"); err != nil {
				t.Fatal(err)
			}
			run := func(obs Space) (loss float64, out [][]float64) {
				var st ForwardState
				if err := fx.forward().Run(context.Background(), &st, atoms, lambda, obs); err != nil {
					t.Fatal(err)
				}
				gU := make([]*mat.Dense, len(atoms))
				for k, at := range atoms {
					r, _ := at.U.Dims()
					gU[k] = mat.NewDense(r, r, nil)
				}
				gLambda := make([]float64, len(atoms))
				loss = st.Envelope(context.Background(), atoms, lambda, obs, 1, gU, nil, gLambda)
				out = append(out, st.GWB.Barycenter().RawMatrix().Data, st.RawTransport(), gLambda)
				for k := range atoms {
					out = append(out, st.GWB.RawTransport(k), gU[k].RawMatrix().Data)
				}
				return loss, out
			}
			lossD, outD := run(dense)
			lossS, outS := run(sparse)
			if lossD != lossS {
				t.Errorf("loss %v sparse, %v dense", lossS, lossD)
			}
			for i := range outD {
				if !slices.Equal(outD[i], outS[i]) {
					t.Errorf("output %d differs between the sparse and the dense graph", i)
				}
			}
		})
	}
}

func TestSparseSpaceValidate(t *testing.T) {
	a, err := csr.Build(2, []csr.Entry{{Row: 0, Col: 1, Val: -1}})
	if err != nil {
		t.Fatal(err)
	}
	err = Space{A: a, Mu: []float64{0.5, 0.5}}.Validate("g")
	if err == nil || !strings.Contains(err.Error(), "C[0][1] = -1") {
		t.Errorf("negative sparse entry: %v", err)
	}
	if err := (Space{Mu: []float64{1}}).Validate("g"); err == nil || !strings.Contains(err.Error(), "no structure") {
		t.Errorf("no structure: %v", err)
	}
}
