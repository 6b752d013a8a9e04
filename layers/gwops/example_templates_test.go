package gwops_test

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/gwops"
)

// Embed two graphs as their GW discrepancies to two learnable templates (a ring and a star),
// and differentiate the sum of the discrepancies in the templates' structures.
func ExampleTemplates() {
	g := gorgonia.NewGraph()
	var templates []gwops.Template
	var params gorgonia.Nodes
	for k, t := range []layers.Space{ring(5), star(5)} {
		v := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(5, 5), tensor.WithBacking(t.C.RawMatrix().Data)), gorgonia.WithName(fmt.Sprintf("V%d", k)))
		templates, params = append(templates, gwops.Template{V: v, Mu: t.Mu}), append(params, v)
	}
	layer := gwops.Templates{Solver: layers.DefaultCG()}
	d, err := layer.Build(g, templates, nil, nil, []layers.Space{ring(6), star(6)}, nil)
	if err != nil {
		panic(err)
	}
	var dv gorgonia.Value
	gorgonia.Read(d, &dv) // the discrepancies as computed (the sum below may reuse d's memory)
	if _, err := gorgonia.Grad(gorgonia.Must(gorgonia.Sum(d)), params...); err != nil {
		panic(err)
	}
	m := gorgonia.NewTapeMachine(g)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		panic(err)
	}
	v := dv.Data().([]float64)
	fmt.Printf("ring: %.3f to the ring, %.3f to the star\n", v[0], v[1])
	fmt.Printf("star: %.3f to the ring, %.3f to the star\n", v[2], v[3])
	// Output:
	// ring: 0.182 to the ring, 0.387 to the star
	// star: 0.411 to the ring, 0.064 to the star
}
