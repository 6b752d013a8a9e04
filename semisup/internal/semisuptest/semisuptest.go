// Package semisuptest holds the test data the tests of semisup and its experiments share.
package semisuptest

import (
	"math/rand/v2"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// TwoStructures: graphs of two block structures (two communities vs core-periphery), 10–13
// nodes, with their classes 0 and 1.
func TwoStructures(t testing.TB, n int, seed uint64) ([]*graphs.Graph, []int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var data []*graphs.Graph
	var labels []int
	for i := 0; i < n; i++ {
		size := 10 + rng.IntN(4)
		var g *graphs.Graph
		var err error
		if i%2 == 0 {
			g, err = graphs.StochasticBlockModel([]int{size / 2, size - size/2}, [][]float64{{0.9, 0.05}, {0.05, 0.9}}, rng)
		} else {
			g, err = graphs.StochasticBlockModel([]int{3, size - 3}, [][]float64{{0.9, 0.8}, {0.8, 0.05}}, rng)
		}
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, g)
		labels = append(labels, i%2)
	}
	return data, labels
}

// SmallGWF is a GWF configuration small enough for tests (4 atoms, 10 layers, 8 epochs).
func SmallGWF() training.Config {
	c := training.DefaultConfig()
	c.Atoms, c.Layers, c.Epochs, c.Batch, c.LearningRate = 4, 10, 8, 8, 0.05
	return c
}
