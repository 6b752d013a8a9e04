package layers

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func atomsOf(v, h []*mat.Dense, mus [][]float64) []Atom {
	atoms := make([]Atom, len(v))
	for k, vk := range v {
		r, _ := vk.Dims()
		u := mat.NewDense(r, r, nil)
		ReLU(u, vk)
		atoms[k] = Atom{U: u, Mu: mus[k]}
		if h != nil {
			atoms[k].H = h[k]
		}
	}
	return atoms
}

// TestEnvelopeFiniteDifferences: with the transports held fixed, the analytic gradients of the
// envelope loss w.r.t. V, H and z match central finite differences.
func TestEnvelopeFiniteDifferences(t *testing.T) {
	for _, d := range []int{0, 3} {
		rng := rand.New(rand.NewPCG(21, uint64(d)))
		v, h, mus, z := randomModel(rng, []int{4, 6, 5}, d)
		obs := randomSpace(rng, 7, 0.4, 1, false, d)
		fwd := Forward{GWB: GWB{Solver: PPA{Gamma: 0.05, Layers: 20, Inner: 1, Weight: 0.7}, Layers: 2}}
		lambda := make([]float64, len(z))
		Softmax(lambda, z)
		var st ForwardState
		if err := fwd.Run(context.Background(), &st, atomsOf(v, h, mus), lambda, obs); err != nil {
			t.Fatal(err)
		}
		w := fwd.GWB.Solver.FeatureWeight()
		loss := func() float64 {
			l := make([]float64, len(z))
			Softmax(l, z)
			return st.Envelope(context.Background(), atomsOf(v, h, mus), l, obs, w, nil, nil, nil)
		}
		atoms := atomsOf(v, h, mus)
		gU := make([]*mat.Dense, len(v))
		var gH []*mat.Dense
		for k, a := range atoms {
			r, _ := a.U.Dims()
			gU[k] = mat.NewDense(r, r, nil)
			if d > 0 {
				gH = append(gH, mat.NewDense(r, d, nil))
			}
		}
		gLambda := make([]float64, len(z))
		st.Envelope(context.Background(), atoms, lambda, obs, w, gU, gH, gLambda)
		gz := make([]float64, len(z))
		SoftmaxBackward(gz, lambda, gLambda)
		const eps = 1e-6
		fd := func(x *float64) float64 {
			old := *x
			*x = old + eps
			up := loss()
			*x = old - eps
			down := loss()
			*x = old
			return (up - down) / (2 * eps)
		}
		near := func(what string, analytic, numeric float64) {
			t.Helper()
			if math.Abs(analytic-numeric) > 1e-6*math.Max(1, math.Abs(numeric)) {
				t.Errorf("d=%d %s: analytic %v, finite difference %v", d, what, analytic, numeric)
			}
		}
		for k, vk := range v {
			ReLUBackward(gU[k], atoms[k].U)
			r, _ := vk.Dims()
			for i := 0; i < r; i++ {
				for j := 0; j < r; j++ {
					raw := vk.RawRowView(i)
					if math.Abs(raw[j]) < 1e-3 {
						continue // ReLU's kink
					}
					near("dV", gU[k].At(i, j), fd(&raw[j]))
				}
			}
			if d > 0 {
				for i := 0; i < r; i++ {
					raw := h[k].RawRowView(i)
					for j := range raw {
						near("dH", gH[k].At(i, j), fd(&raw[j]))
					}
				}
			}
		}
		for k := range z {
			near("dz", gz[k], fd(&z[k]))
		}
	}
}
