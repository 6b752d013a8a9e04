package fgwsvm_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
)

// Two classes of graphs — two dense communities, or one — a classifier trained on twenty of
// them and used on six it has never seen.
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	newGraph := func(class int) *graphs.Graph {
		sizes := []int{12}
		p := [][]float64{{0.6}}
		if class == 1 {
			sizes, p = []int{6, 6}, [][]float64{{0.9, 0.05}, {0.05, 0.9}}
		}
		g, err := graphs.StochasticBlockModel(sizes, p, rng)
		if err != nil {
			panic(err)
		}
		return g
	}
	var train, unseen []*graphs.Graph
	var labels []int
	for i := range 26 {
		if i < 20 {
			train, labels = append(train, newGraph(i%2)), append(labels, i%2)
		} else {
			unseen = append(unseen, newGraph(i%2))
		}
	}
	ctx := context.Background()
	cands, err := fgwsvm.DefaultCandidates(train) // adjacency and shortest paths
	if err != nil {
		panic(err)
	}
	grid := fgwsvm.DefaultGrid()
	grid.Folds = 4
	m, err := fgwsvm.Train(ctx, train, labels, 2, fgwsvm.Settings{Candidates: cands, Grid: grid}, fgwsvm.Options{})
	if err != nil {
		panic(err)
	}
	pred, err := m.Predict(ctx, unseen, fgwsvm.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println("predicted:", pred)
	// Output:
	// predicted: [0 1 0 1 0 1]
}
