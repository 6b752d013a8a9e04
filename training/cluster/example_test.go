package cluster_test

import (
	"context"
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/cluster"
)

func ExampleKMeans() {
	// Two well-separated blobs of three points each.
	x := [][]float64{
		{0.0, 0.0}, {0.1, 0.2}, {-0.1, 0.1},
		{5.0, 5.0}, {5.1, 4.9}, {4.9, 5.2},
	}
	res, err := cluster.KMeans(x, cluster.KMeansOptions{K: 2, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Cluster ids are arbitrary, so compare the partition with the blobs instead.
	acc, _ := cluster.Accuracy([]int{0, 0, 0, 1, 1, 1}, res.Assign)
	fmt.Println("same cluster within blobs:", res.Assign[0] == res.Assign[2] && res.Assign[3] == res.Assign[5])
	fmt.Println("blobs apart:", res.Assign[0] != res.Assign[3])
	fmt.Printf("accuracy %.2f, inertia %.3f\n", acc, res.Inertia)
	// Output:
	// same cluster within blobs: true
	// blobs apart: true
	// accuracy 1.00, inertia 0.107
}

func ExampleEvaluate() {
	truth := []int{-1, -1, -1, 1, 1, 1}
	pred := []int{0, 0, 1, 1, 2, 2}
	s, err := cluster.Evaluate(truth, pred)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("ACC %.4f NMI %.4f ARI %.4f RI %.4f\n", s.Accuracy, s.NMI, s.ARI, s.RandIndex)
	// Output:
	// ACC 0.6667 NMI 0.5158 ARI 0.2424 RI 0.6667
}

func ExampleFormatMeanStd() {
	accuracies := []float64{0.99, 1.0, 0.995} // one per seed
	fmt.Println(cluster.FormatMeanStd(accuracies, 100))
	// Output:
	// 99.5 ± 0.5
}

// Cluster the graphs of a (here briefly) trained model by λ = softmax(z), the paper's
// protocol, and score the clusters against the classes.
func Example_model() {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		panic(err)
	}
	data := ds.Graphs[:40]
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.Layers, cfg.Epochs = 3, 10, 2
	m, err := training.NewModel(graphs.Slice(data), cfg)
	if err != nil {
		panic(err)
	}
	if err := training.Fit(context.Background(), m, graphs.Slice(data), training.Options{}); err != nil {
		panic(err)
	}
	res, err := cluster.KMeans(training.EmbeddingLambda.Rows(m.Z), cluster.KMeansOptions{K: 2, Seed: 1})
	if err != nil {
		panic(err)
	}
	truth := make([]int, len(data))
	for i, g := range data {
		truth[i] = g.Label
	}
	s, err := cluster.Evaluate(truth, res.Assign)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(res.Assign), "graphs in", len(res.Centers), "clusters; accuracy at least chance:", s.Accuracy >= 0.5)
	// Output: 40 graphs in 2 clusters; accuracy at least chance: true
}
