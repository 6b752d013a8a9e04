package training

import (
	"context"
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
)

func mutag(t testing.TB, n int) []*graphs.Graph {
	t.Helper()
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ds.Graphs[:n]
}

func smallConfig() Config {
	cfg := DefaultConfig()
	cfg.Atoms, cfg.Layers, cfg.Epochs, cfg.Batch = 4, 10, 3, 8
	return cfg
}

// TestFitLowersLoss: training on a few MUTAG graphs lowers the loss from epoch to epoch.
func TestFitLowersLoss(t *testing.T) {
	data := mutag(t, 24)
	cfg := smallConfig()
	cfg.Epochs = 5
	m, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, graphs.Slice(data), Options{}); err != nil {
		t.Fatal(err)
	}
	if len(m.History) != 5 {
		t.Fatalf("%d epochs recorded", len(m.History))
	}
	if !(m.History[4].Loss < m.History[0].Loss) {
		t.Errorf("loss did not fall: %+v", m.History)
	}
}

// TestFitIndependentOfWorkers: the same seed gives the same model with 1 and 3 workers.
func TestFitIndependentOfWorkers(t *testing.T) {
	data := mutag(t, 20)
	var models []*Model
	for _, w := range []int{1, 3} {
		m, err := NewModel(graphs.Slice(data), smallConfig())
		if err != nil {
			t.Fatal(err)
		}
		if err := Fit(context.Background(), m, graphs.Slice(data), Options{Workers: w}); err != nil {
			t.Fatal(err)
		}
		models = append(models, m)
	}
	if !mat.Equal(models[0].Z, models[1].Z) {
		t.Error("embeddings differ between 1 and 3 workers")
	}
	for k := range models[0].V {
		if !mat.Equal(models[0].V[k], models[1].V[k]) {
			t.Errorf("atom %d differs between 1 and 3 workers", k)
		}
	}
}

// TestTransform: embedding unseen graphs leaves the model alone, is independent of the worker
// count, and lowers the loss of a graph compared with its initial embedding.
func TestTransform(t *testing.T) {
	data := mutag(t, 30)
	m, err := NewModel(graphs.Slice(data[:20]), smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, graphs.Slice(data[:20]), Options{}); err != nil {
		t.Fatal(err)
	}
	v0 := mat.DenseCopyOf(m.V[0])
	z1, err := Transform(context.Background(), m, data[20:], 0, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	z3, err := Transform(context.Background(), m, data[20:], 0, Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(z1, z3) {
		t.Error("transform depends on the worker count")
	}
	if !mat.Equal(v0, m.V[0]) {
		t.Error("transform changed the atoms")
	}
	if r, c := z1.Dims(); r != 10 || c != m.K() {
		t.Errorf("embeddings are %d×%d", r, c)
	}
}

// TestFitStopsOnCancel: a cancelled context stops training at a batch boundary with its error.
func TestFitStopsOnCancel(t *testing.T) {
	data := mutag(t, 16)
	m, err := NewModel(graphs.Slice(data), smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	err = Fit(ctx, m, graphs.Slice(data), Options{Observe: func(Event) {
		calls++
		cancel()
	}})
	if !errors.Is(err, context.Canceled) || calls != 1 || len(m.History) != 0 {
		t.Errorf("err %v after %d batches, %d epochs", err, calls, len(m.History))
	}
}

// TestFitRefusesMismatchedData: other data than the model's, or features of another
// dimension, are errors.
func TestFitRefusesMismatchedData(t *testing.T) {
	data := mutag(t, 12)
	m, err := NewModel(graphs.Slice(data), smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, graphs.Slice(mutag(t, 13)[1:]), Options{}); err == nil {
		t.Error("fit on other graphs succeeded")
	}
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{Features: graphs.FeaturesLabels})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Transform(context.Background(), m, ds.Graphs[:3], 1, Options{}); err == nil {
		t.Error("transform of graphs with features by a model without succeeded")
	}
	bad := smallConfig()
	bad.LearningRate = -1
	if _, err := NewModel(graphs.Slice(data), bad); err == nil {
		t.Error("negative learning rate accepted")
	}
}

// TestFitWithFeatures: the FGW model learns atom features too.
func TestFitWithFeatures(t *testing.T) {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{Features: graphs.FeaturesLabels})
	if err != nil {
		t.Fatal(err)
	}
	data := ds.Graphs[:16]
	m, err := NewModel(graphs.Slice(data), smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	h0 := mat.DenseCopyOf(m.H[0])
	if err := Fit(context.Background(), m, graphs.Slice(data), Options{}); err != nil {
		t.Fatal(err)
	}
	if m.Dim() != 7 || mat.Equal(h0, m.H[0]) {
		t.Errorf("atom features: dim %d, changed %v", m.Dim(), !mat.Equal(h0, m.H[0]))
	}
	if !(m.History[len(m.History)-1].Loss < m.History[0].Loss) {
		t.Errorf("loss did not fall: %+v", m.History)
	}
}

// TestTransformShardsMatchWhole: embedding a corpus in slices (with Options.Offset) gives
// exactly the rows of embedding it whole.
func TestTransformShardsMatchWhole(t *testing.T) {
	data := mutag(t, 30)
	m, err := NewModel(graphs.Slice(data[:20]), smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Transform(context.Background(), m, data[20:], 2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range [][2]int{{0, 4}, {4, 10}} {
		part, err := Transform(context.Background(), m, data[20+cut[0]:20+cut[1]], 2, Options{Offset: cut[0]})
		if err != nil {
			t.Fatal(err)
		}
		for r := 0; r < cut[1]-cut[0]; r++ {
			if !mat.Equal(part.RowView(r), whole.RowView(cut[0]+r)) {
				t.Fatalf("slice %v row %d differs from the whole run", cut, r)
			}
		}
	}
}

// TestAtomSizes: the sizes announced before a model is made are those of its atoms, warm
// started (more atoms than graphs too) or of a fixed size.
func TestAtomSizes(t *testing.T) {
	data := mutag(t, 12)
	for _, cfg := range []Config{smallConfig(), func() Config { c := smallConfig(); c.Atoms = 20; return c }(), func() Config { c := smallConfig(); c.AtomSize = 5; return c }()} {
		m, err := NewModel(graphs.Slice(data), cfg)
		if err != nil {
			t.Fatal(err)
		}
		sizes, err := AtomSizes(graphs.Slice(data), cfg)
		if err != nil || len(sizes) != m.K() {
			t.Fatalf("%d sizes for %d atoms (%v)", len(sizes), m.K(), err)
		}
		for k, n := range sizes {
			if r, _ := m.V[k].Dims(); r != n {
				t.Errorf("atoms %d, size %d: AtomSizes says %d", m.K(), r, n)
			}
		}
	}
}
