package gwops

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/layers"
)

// spaceNodes puts a layers.Space into g as nodes (copies).
func spaceNodes(g *gorgonia.ExprGraph, name string, s layers.Space) Space {
	out := Space{C: denseNode(g, name+"_C", s.C), Mu: s.Mu}
	if s.F != nil {
		out.F = denseNode(g, name+"_F", s.F)
	}
	return out
}

func run(t *testing.T, g *gorgonia.ExprGraph) {
	t.Helper()
	m := gorgonia.NewTapeMachine(g)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
}

// TestGWDNodeMatchesLayers: the GWD node's value and transport are those of layers.GWD, with
// and without features, for PPA and BADMM.
func TestGWDNodeMatchesLayers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{0, 3} {
		for _, s := range []layers.Solver{layers.DefaultPPA(), layers.DefaultBADMM()} {
			a, b := randomSpace(rng, 7, 0.5, 1, false, d), randomSpace(rng, 5, 0.6, 2, true, d)
			wantT, want, err := layers.GWD(s, a, b)
			if err != nil {
				t.Fatal(err)
			}
			g := gorgonia.NewGraph()
			v, tr, err := GWD(g, s, spaceNodes(g, "a", a), spaceNodes(g, "b", b))
			if err != nil {
				t.Fatal(err)
			}
			run(t, g)
			got := v.Value().Data().(float64)
			if math.Abs(got-want) > 1e-10*math.Abs(want) {
				t.Errorf("%s d=%d: value %v, layers.GWD %v", s.Name(), d, got, want)
			}
			if !mat.EqualApprox(mat.NewDense(7, 5, tr.Value().Data().([]float64)), wantT, 1e-14) {
				t.Errorf("%s d=%d: the transports differ", s.Name(), d)
			}
		}
	}
}

// TestDiscrepancyGradients: for a fixed transport, Gorgonia's gradients of Discrepancy w.r.t.
// both structures and both feature matrices match central finite differences.
func TestDiscrepancyGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	a, b := randomSpace(rng, 5, 0.6, 1, true, 2), randomSpace(rng, 4, 0.7, 1, false, 2)
	tr, _, err := layers.GWD(layers.DefaultPPA(), a, b)
	if err != nil {
		t.Fatal(err)
	}
	value := func() (float64, []*mat.Dense) {
		g := gorgonia.NewGraph()
		sa, sb := spaceNodes(g, "a", a), spaceNodes(g, "b", b)
		tn := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(5, 4), tensor.WithBacking(append([]float64(nil), tr.RawMatrix().Data...))), gorgonia.WithName("T"))
		d, err := Discrepancy(g, tn, sa, sb, 0.7)
		if err != nil {
			t.Fatal(err)
		}
		wrt := gorgonia.Nodes{sa.C, sb.C, sa.F, sb.F}
		grads, err := gorgonia.Grad(d, wrt...)
		if err != nil {
			t.Fatal(err)
		}
		run(t, g)
		var out []*mat.Dense
		for i, gn := range grads {
			s := wrt[i].Shape()
			out = append(out, mat.NewDense(s[0], s[1], append([]float64(nil), gn.Value().Data().([]float64)...)))
		}
		return d.Value().Data().(float64), out
	}
	_, grads := value()
	const h = 1e-6
	for q, m := range []*mat.Dense{a.C, b.C, a.F, b.F} {
		r, c := m.Dims()
		for _, ij := range [][2]int{{0, 1}, {r - 1, c - 1}, {r / 2, 0}} {
			old := m.At(ij[0], ij[1])
			m.Set(ij[0], ij[1], old+h)
			up, _ := value()
			m.Set(ij[0], ij[1], old-h)
			down, _ := value()
			m.Set(ij[0], ij[1], old)
			fd := (up - down) / (2 * h)
			if got := grads[q].At(ij[0], ij[1]); math.Abs(got-fd) > 1e-6*(1+math.Abs(fd)) {
				t.Errorf("input %d %v: gradient %v, finite differences %v", q, ij, got, fd)
			}
		}
	}
}

// TestBarycenterNode: B and F_b equal layers.GWB's barycenter, and the gradient of <B, R> w.r.t.
// λ is the envelope one, <T_k·U_k·T_kᵀ ⊘ μμᵀ, R>, computed from the layers' own transports.
func TestBarycenterNode(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	sizes := []int{4, 6, 5}
	v, h, mus, _ := randomModel(rng, sizes, 2)
	init := randomSpace(rng, 6, 0.5, 1, false, 2)
	lambda := []float64{0.2, 0.5, 0.3}
	gwb := layers.GWB{Solver: layers.DefaultPPA(), Layers: 2}
	var st layers.GWBState
	atomsL := atomsOf(v, h, mus)
	if err := gwb.Compute(context.Background(), &st, atomsL, lambda, init); err != nil {
		t.Fatal(err)
	}
	g := gorgonia.NewGraph()
	atoms := make([]AtomNodes, len(sizes))
	for k := range sizes {
		atoms[k] = AtomNodes{V: denseNode(g, fmt.Sprintf("V%d", k), v[k]), H: denseNode(g, fmt.Sprintf("H%d", k), h[k]), Mu: mus[k]}
	}
	ln := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(3), tensor.WithBacking(append([]float64(nil), lambda...))), gorgonia.WithName("lambda"))
	b, fb, err := Barycenter(g, gwb, atoms, ln, init)
	if err != nil {
		t.Fatal(err)
	}
	rm := mat.NewDense(6, 6, nil)
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			rm.Set(i, j, rng.NormFloat64())
		}
	}
	obj := gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(b, denseNode(g, "R", rm)))))
	grads, err := gorgonia.Grad(obj, ln)
	if err != nil {
		t.Fatal(err)
	}
	run(t, g)
	if !mat.EqualApprox(mat.NewDense(6, 6, b.Value().Data().([]float64)), st.Barycenter(), 1e-12) {
		t.Error("B differs from layers.GWB's barycenter")
	}
	if !mat.EqualApprox(mat.NewDense(6, 2, fb.Value().Data().([]float64)), st.Features(), 1e-12) {
		t.Error("F_b differs from layers.GWB's barycenter features")
	}
	dl := grads[0].Value().Data().([]float64)
	for k, a := range atomsL {
		var tut mat.Dense
		tk := st.Transport(k)
		tut.Product(tk, a.U, tk.T())
		want := 0.0
		for i := 0; i < 6; i++ {
			for j := 0; j < 6; j++ {
				want += tut.At(i, j) * rm.At(i, j) / (init.Mu[i] * init.Mu[j])
			}
		}
		if math.Abs(dl[k]-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("d<B,R>/dλ_%d = %v, envelope %v", k, dl[k], want)
		}
	}
}
