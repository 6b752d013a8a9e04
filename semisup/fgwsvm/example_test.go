package fgwsvm_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

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

// The candidates of graphs whose node features are an attribute followed by a one-hot node
// label (read with graphs.FeaturesBoth), narrowed to FGW on shortest paths: the attribute alone, both,
// and the labels' Weisfeiler-Lehman labels after 2 and 4 iterations, five weights each.
func ExampleCandidates() {
	rng := rand.New(rand.NewPCG(3, 4))
	var data []*graphs.Graph
	for range 6 {
		g, err := graphs.StochasticBlockModel([]int{4, 4}, [][]float64{{0.9, 0.1}, {0.1, 0.9}}, rng)
		if err != nil {
			panic(err)
		}
		g.F = mat.NewDense(8, 3, nil)
		for v := range 8 {
			g.F.Set(v, 0, rng.NormFloat64()) // the attribute
			g.F.Set(v, 1+v/4, 1)             // the label: the node's block
		}
		data = append(data, g)
	}
	enc := graphs.FeatureEncoding{Kind: graphs.FeaturesBoth, Attributes: 1}
	cands, err := fgwsvm.Candidates(data, enc, fgwsvm.Narrow{Structure: graphs.ShortestPath, Kinds: []fgwsvm.Kind{fgwsvm.KindFGW}})
	if err != nil {
		panic(err)
	}
	parts := map[string]int{}
	for _, c := range cands {
		if c.WithoutFeatures {
			parts[fmt.Sprintf("no features, WL %d", c.WL)]++
			continue
		}
		parts[fmt.Sprintf("part %q, WL %d", c.Part, c.WL)]++
	}
	fmt.Println(len(cands), "candidates:", parts)
	// Output:
	// 31 candidates: map[no features, WL 0:1 no features, WL 2:5 no features, WL 4:5 part "", WL 0:5 part "attributes", WL 0:5 part "labels", WL 2:5 part "labels", WL 4:5]
}
