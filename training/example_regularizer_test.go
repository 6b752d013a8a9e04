package training_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/layers/tape"
	"github.com/gwf-graphs/gwf/training"
)

// GWF as the regulariser of a user's own Gorgonia model: a linear map W takes three features of
// each graph (a constant, its size, its edge count) to its embedding z = x·W, and the GWF term
// of a model's atoms trains W with a Gorgonia optimizer.
func ExampleModel_Term() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		log.Fatal(err)
	}
	data := ds.Graphs[:16]
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.Layers = 4, 10
	m, err := training.NewModel(graphs.Slice(data), cfg) // atoms warm-started from the data
	if err != nil {
		log.Fatal(err)
	}
	x := make([]float64, 0, 3*len(data))
	for _, gr := range data {
		x = append(x, 1, float64(gr.N())/10, mat.Sum(gr.Dense())/20)
	}
	w0 := []float64{.3, -.2, .1, 0, -.1, .2, .3, -.3, .2, .1, -.2, .1}

	g := gorgonia.NewGraph()
	xn := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(len(data), 3), tensor.WithBacking(x)), gorgonia.WithName("x"))
	w := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(3, 4), tensor.WithBacking(append([]float64(nil), w0...))), gorgonia.WithName("W"))
	z := gorgonia.Must(gorgonia.Mul(xn, w))
	loss, _, err := m.Term(g, z, data, 0) // the GWF term; z's gradient flows into W
	if err != nil {
		log.Fatal(err)
	}
	if _, err := gorgonia.Grad(loss, w); err != nil {
		log.Fatal(err)
	}
	if err := tape.Check(g); err != nil { // no two nodes that the TapeMachine would merge
		log.Fatal(err)
	}
	vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(w))
	defer vm.Close()
	adam := gorgonia.NewAdamSolver(gorgonia.WithLearnRate(0.1))
	var first, last float64
	for step := 0; step < 10; step++ {
		vm.Reset()
		if err := vm.RunAll(); err != nil {
			log.Fatal(err)
		}
		if last = loss.Value().Data().(float64); step == 0 {
			first = last
		}
		if err := adam.Step(gorgonia.NodesToValueGrads(gorgonia.Nodes{w})); err != nil {
			log.Fatal(err)
		}
	}
	moved := 0.0
	for i, v := range w.Value().Data().([]float64) {
		moved += (v - w0[i]) * (v - w0[i])
	}
	fmt.Println("W moved:", moved > 0.01, "- GWF loss fell:", last < first)
	// Output: W moved: true - GWF loss fell: true
}
