package gwops_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/gwops"
	"github.com/gwf-graphs/gwf/layers/tape"
)

// ring returns the adjacency matrix of a cycle on n nodes and the uniform distribution.
func ring(n int) layers.Space {
	c := mat.NewDense(n, n, nil)
	mu := make([]float64, n)
	for i := 0; i < n; i++ {
		c.Set(i, (i+1)%n, 1)
		c.Set((i+1)%n, i, 1)
		mu[i] = 1 / float64(n)
	}
	return layers.Space{C: c, Mu: mu}
}

// star returns the adjacency of a star on n nodes and the uniform distribution.
func star(n int) layers.Space {
	s := ring(n)
	s.C.Zero()
	for i := 1; i < n; i++ {
		s.C.Set(0, i, 1)
		s.C.Set(i, 0, 1)
	}
	return s
}

// The GWF loss as a regulariser of someone else's Gorgonia model: an outer network maps an
// input x to the embedding z = W·x; the loss reconstructs a graph from two atoms weighted by
// softmax(z), and its gradient trains W.
func ExampleLoss_Build() {
	g := gorgonia.NewGraph()
	w := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(2, 3), gorgonia.WithName("W"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(2, 3), tensor.WithBacking(make([]float64, 6)))))
	x := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(3), gorgonia.WithName("x"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(3), tensor.WithBacking([]float64{1, 0.5, -1}))))
	z := gorgonia.Must(gorgonia.Mul(w, x))

	// Two fixed atoms, a ring and a star, as constant parameter nodes.
	atom := func(name string, s layers.Space) gwops.AtomNodes {
		v := tensor.New(tensor.WithShape(s.N(), s.N()), tensor.WithBacking(s.C.RawMatrix().Data))
		return gwops.AtomNodes{V: gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(s.N(), s.N()),
			gorgonia.WithName(name), gorgonia.WithValue(v)), Mu: s.Mu}
	}
	atoms := []gwops.AtomNodes{atom("ring", ring(5)), atom("star", star(5))}

	loss := gwops.Loss{Forward: layers.Forward{GWB: layers.GWB{Solver: layers.DefaultPPA(), Layers: 2}}}
	l, err := loss.Build(g, atoms, z, star(6)) // the observed graph is a star
	if err != nil {
		panic(err)
	}
	if _, err := gorgonia.Grad(l, w); err != nil {
		panic(err)
	}
	// Gorgonia's compiler merges nodes whose hashes collide: check first (or use tape.Build).
	if err := tape.Check(g); err != nil {
		panic(err)
	}
	m := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(w))
	defer m.Close()
	adam := gorgonia.NewAdamSolver(gorgonia.WithLearnRate(0.1))
	var first, last float64
	for step := 0; step < 30; step++ {
		m.Reset()
		if err := m.RunAll(); err != nil {
			panic(err)
		}
		last = l.Value().Data().(float64)
		if step == 0 {
			first = last
		}
		if err := adam.Step(gorgonia.NodesToValueGrads(gorgonia.Nodes{w})); err != nil {
			panic(err)
		}
	}
	lambda := make([]float64, 2)
	layers.Softmax(lambda, z.Value().Data().([]float64))
	fmt.Printf("loss fell: %v; weight of the star atom > 0.5: %v\n", last < first/2, lambda[1] > 0.5)
	// Output: loss fell: true; weight of the star atom > 0.5: true
}

// The GWF loss of a batch of graphs as a single Gorgonia node: Z holds one embedding row per
// observed graph; one backward pass gives the gradient of every row (and of the atoms).
func ExampleBatchLoss_Build() {
	g := gorgonia.NewGraph()
	atom := func(name string, s layers.Space) gwops.AtomNodes {
		v := tensor.New(tensor.WithShape(s.N(), s.N()), tensor.WithBacking(s.C.RawMatrix().Data))
		return gwops.AtomNodes{V: gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(s.N(), s.N()),
			gorgonia.WithName(name), gorgonia.WithValue(v)), Mu: s.Mu}
	}
	atoms := []gwops.AtomNodes{atom("clique", clique(5)), atom("star", star(5))}
	z := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(2, 2), gorgonia.WithName("Z"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(2, 2), tensor.WithBacking(make([]float64, 4)))))
	observed := []layers.Space{clique(6), star(6)}
	batch := gwops.BatchLoss{Forward: layers.Forward{GWB: layers.GWB{Solver: layers.DefaultPPA(), Layers: 2}}}
	l, err := batch.Build(g, atoms, z, observed)
	if err != nil {
		panic(err)
	}
	grads, err := gorgonia.Grad(l, z)
	if err != nil {
		panic(err)
	}
	m := gorgonia.NewTapeMachine(g)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		panic(err)
	}
	dz := grads[0].Value().Data().([]float64)
	// Descending the gradient raises the clique atom's weight for the clique and the star's for
	// the star.
	fmt.Println(dz[0] < dz[1], dz[3] < dz[2])
	// Output: true true
}

// clique returns the complete graph on n nodes and the uniform distribution.
func clique(n int) layers.Space {
	s := ring(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j {
				s.C.Set(i, j, 1)
			}
		}
	}
	return s
}
