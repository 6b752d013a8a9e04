package cluster

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// Model clusters exactly the rows of the chosen embedding, and refuses what it cannot cluster.
func TestModelClustersTheChosenEmbedding(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var data []*graphs.Graph
	for i := 0; i < 8; i++ {
		g, err := graphs.BarabasiAlbert(6+i%3, 2, rng)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, g)
	}
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.Layers = 3, 5
	m, err := training.NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	opt := KMeansOptions{K: 2, Seed: 7}
	for _, e := range []training.Embedding{training.EmbeddingZ, training.EmbeddingLambda} {
		got, err := Model(m, e, opt)
		if err != nil {
			t.Fatal(err)
		}
		want, err := KMeans(e.Rows(m.Z), opt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Assign, want.Assign) || got.Inertia != want.Inertia {
			t.Errorf("%s: Model %v (inertia %g), KMeans of the rows %v (%g)", e, got.Assign, got.Inertia, want.Assign, want.Inertia)
		}
	}
	if _, err := Model(m, "logits", opt); err == nil {
		t.Error("unknown embedding: no error")
	}
	if _, err := Model(nil, DefaultEmbedding, opt); err == nil {
		t.Error("nil model: no error")
	}
	if _, err := Model(m, DefaultEmbedding, KMeansOptions{K: 9}); err == nil {
		t.Error("9 clusters of 8 graphs: no error")
	}
}
