package gwops

import (
	"fmt"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// matrixNode makes a named float64 matrix node holding rows.
func matrixNode(g *gorgonia.ExprGraph, name string, rows [][]float64) *gorgonia.Node {
	data := make([]float64, 0, len(rows)*len(rows[0]))
	for _, r := range rows {
		data = append(data, r...)
	}
	v := tensor.New(tensor.WithShape(len(rows), len(rows[0])), tensor.WithBacking(data))
	return gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(len(rows), len(rows[0])), gorgonia.WithName(name), gorgonia.WithValue(v))
}

func vectorNode(g *gorgonia.ExprGraph, name string, data []float64) *gorgonia.Node {
	v := tensor.New(tensor.WithShape(len(data)), tensor.WithBacking(append([]float64(nil), data...)))
	return gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(len(data)), gorgonia.WithName(name), gorgonia.WithValue(v))
}

// TestLossGraphFixtures checks the Gorgonia expression — value and autodiff gradients — against
// the fixtures, i.e. against an independent implementation.
func TestLossGraphFixtures(t *testing.T) {
	for _, fx := range loadFixtures(t, "gwf_*.json") {
		t.Run(fx.Name, func(t *testing.T) {
			_, _, obs := fixtureModel(fx)
			g := gorgonia.NewGraph()
			atoms := make([]AtomNodes, len(fx.V))
			var params gorgonia.Nodes
			for k := range fx.V {
				atoms[k] = AtomNodes{V: matrixNode(g, fmt.Sprintf("V%d", k), fx.V[k]), Mu: fx.AtomMus[k]}
				params = append(params, atoms[k].V)
				if fx.H != nil {
					atoms[k].H = matrixNode(g, fmt.Sprintf("H%d", k), fx.H[k])
					params = append(params, atoms[k].H)
				}
			}
			z := vectorNode(g, "z", fx.Z)
			params = append(params, z)
			loss, err := Loss{Forward: fx.forward()}.Build(g, atoms, z, obs)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := gorgonia.Grad(loss, params...); err != nil {
				t.Fatal(err)
			}
			m := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(params...))
			defer m.Close()
			if err := m.RunAll(); err != nil {
				t.Fatal(err)
			}
			got := loss.Value().Data().(float64)
			if e := scalarRelErr(got, fx.Loss); e > fixtureTol {
				t.Errorf("loss %v, want %v (rel %.3g)", got, fx.Loss, e)
			}
			grad := func(n *gorgonia.Node) []float64 {
				gv, err := n.Grad()
				if err != nil {
					t.Fatal(err)
				}
				return gv.Data().([]float64)
			}
			for k, a := range atoms {
				if e := relErr(grad(a.V), fx.GradV[k]); e > fixtureTol {
					t.Errorf("grad V_%d: relative error %.3g", k, e)
				}
				if a.H != nil {
					if e := relErr(grad(a.H), fx.GradH[k]); e > fixtureTol {
						t.Errorf("grad H_%d: relative error %.3g", k, e)
					}
				}
			}
			if e := relErr(grad(z), [][]float64{fx.GradZ}); e > fixtureTol {
				t.Errorf("grad z: relative error %.3g", e)
			}
		})
	}
}
