package tape_test

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/layers/tape"
)

// Build a graph through tape.Build, then run it on a TapeMachine as usual: the graph it returns
// has no two nodes that Gorgonia's compiler would merge.
func ExampleBuild() {
	g, y, err := tape.Build(func() (*gorgonia.ExprGraph, *gorgonia.Node, error) {
		g := gorgonia.NewGraph()
		x := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(3), gorgonia.WithName("x"),
			gorgonia.WithValue(tensor.New(tensor.WithBacking([]float64{1, 2, 3}))))
		y, err := gorgonia.Sum(gorgonia.Must(gorgonia.Square(x)))
		return g, y, err
	})
	if err != nil {
		panic(err)
	}
	m := gorgonia.NewTapeMachine(g)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		panic(err)
	}
	fmt.Println(y.Value())
	// Output: 14
}
