package training

import (
	"bytes"
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// resumed trains data for `first` epochs, round-trips the model through its file format (as a
// checkpoint would) and trains on to cfg.Epochs, with `workers` goroutines after the restart.
func resumed(t *testing.T, cfg Config, data []*graphs.Graph, first, workers int, dropOptimizer bool) *Model {
	t.Helper()
	part := cfg
	part.Epochs = first
	m, err := NewModel(graphs.Slice(data), part)
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, graphs.Slice(data), Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	m, err = Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if dropOptimizer {
		m.Optimizer = nil
	}
	m.Config.Epochs = cfg.Epochs
	if err := Fit(context.Background(), m, graphs.Slice(data), Options{Workers: workers, FreshOptimizer: dropOptimizer}); err != nil {
		t.Fatal(err)
	}
	return m
}

func sameModel(a, b *Model) bool {
	if !mat.Equal(a.Z, b.Z) {
		return false
	}
	for k := range a.V {
		if !mat.Equal(a.V[k], b.V[k]) {
			return false
		}
	}
	return true
}

// TestResumeIsExact: a run stopped after an epoch and resumed from its saved model ends with
// exactly the model of an uninterrupted run (bit for bit), whatever the number of workers; the
// saved Adam state is what makes it so.
func TestResumeIsExact(t *testing.T) {
	data := mutag(t, 16)
	cfg := smallConfig()
	cfg.Epochs, cfg.Batch = 3, 5 // batches that do not divide the data: some z_i are stepped more often
	whole, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), whole, graphs.Slice(data), Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 3} {
		if m := resumed(t, cfg, data, 1, workers, false); !sameModel(m, whole) {
			t.Errorf("resumed after epoch 1 with %d workers: the model differs from the uninterrupted run", workers)
		}
	}
	if m := resumed(t, cfg, data, 2, 2, false); !sameModel(m, whole) {
		t.Error("resumed after epoch 2: the model differs from the uninterrupted run")
	}
	// Without the optimizer state the moments restart from zero: a different model.
	if m := resumed(t, cfg, data, 1, 2, true); sameModel(m, whole) {
		t.Error("resuming without the Adam state gave the same model: the test cannot tell")
	}
}

func TestDecodeRefusesBadOptimizerState(t *testing.T) {
	data := mutag(t, 6)
	cfg := smallConfig()
	cfg.Epochs = 1
	m, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, graphs.Slice(data), Options{}); err != nil {
		t.Fatal(err)
	}
	for name, spoil := range map[string]func(st *OptimizerState){
		"missing embedding": func(st *OptimizerState) { st.Z = st.Z[1:] },
		"short moments":     func(st *OptimizerState) { st.Atoms.M[0] = st.Atoms.M[0][1:] },
		"negative variance": func(st *OptimizerState) { st.Atoms.V[1][0] = -1 },
		"future epoch":      func(st *OptimizerState) { st.Epoch = 5 },
	} {
		cp := *m
		st := cp.Optimizer
		clone := &OptimizerState{Epoch: st.Epoch, Atoms: cloneAdam(st.Atoms)}
		for _, z := range st.Z {
			clone.Z = append(clone.Z, cloneAdam(z))
		}
		spoil(clone)
		cp.Optimizer = clone
		var buf bytes.Buffer
		if err := cp.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(&buf); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
}

func cloneAdam(a AdamState) AdamState {
	out := AdamState{Iter: a.Iter}
	for i := range a.M {
		out.M = append(out.M, append([]float64(nil), a.M[i]...))
		out.V = append(out.V, append([]float64(nil), a.V[i]...))
	}
	return out
}

// TestResumeMidEpochIsExact: training stopped by its context between two batches records the
// position; saved and resumed, it ends with exactly the uninterrupted model.
func TestResumeMidEpochIsExact(t *testing.T) {
	data := mutag(t, 16)
	cfg := smallConfig()
	cfg.Epochs, cfg.Batch = 2, 5
	whole, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), whole, graphs.Slice(data), Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	for _, stopAfter := range []int{1, 5} { // batches: inside epoch 1, inside epoch 2
		m, err := NewModel(graphs.Slice(data), cfg)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		batches := 0
		err = Fit(ctx, m, graphs.Slice(data), Options{Workers: 2, Observe: func(Event) {
			if batches++; batches == stopAfter {
				cancel()
			}
		}})
		cancel()
		if err != context.Canceled {
			t.Fatalf("stop after %d batches: %v", stopAfter, err)
		}
		if m.Partial == nil {
			t.Fatalf("stop after %d batches: no partial epoch recorded", stopAfter)
		}
		var buf bytes.Buffer
		if err := m.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		if m, err = Decode(&buf); err != nil {
			t.Fatal(err)
		}
		if err := Fit(context.Background(), m, graphs.Slice(data), Options{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		if !sameModel(m, whole) || m.Partial != nil || len(m.History) != cfg.Epochs {
			t.Errorf("stopped after %d batches and resumed: the model differs from the uninterrupted run", stopAfter)
		}
		for e := range m.History {
			if d := m.History[e].Loss - whole.History[e].Loss; d != 0 {
				t.Errorf("stopped after %d batches: the loss of epoch %d differs by %g", stopAfter, e+1, d)
			}
		}
	}
}

// cancelAt is a Source that, once armed, cancels a context at the n-th graph read.
type cancelAt struct {
	graphs.Slice
	armed    bool
	n, reads int
	cancel   context.CancelFunc
}

func (c *cancelAt) Graph(i int) (*graphs.Graph, error) {
	if c.armed {
		if c.reads++; c.reads == c.n {
			c.cancel()
		}
	}
	return c.Slice.Graph(i)
}

// TestResumeInsideBatchIsExact: a context cancelled while a batch is being computed stops the
// run before that batch changes anything (BatchLoss.Context); the position recorded is the
// batch's start, and the resumed run ends with exactly the uninterrupted model.
func TestResumeInsideBatchIsExact(t *testing.T) {
	data := mutag(t, 16)
	cfg := smallConfig()
	cfg.Epochs, cfg.Batch = 2, 5
	whole, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), whole, graphs.Slice(data), Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	m, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	batches := 0
	src := &cancelAt{Slice: data, n: 3, cancel: cancel} // armed after the first batch: inside the second
	err = Fit(ctx, m, src, Options{Workers: 2, Observe: func(Event) { batches++; src.armed = true }})
	if err != context.Canceled || batches != 1 || m.Partial == nil || m.Partial.Done != cfg.Batch {
		t.Fatalf("err %v after %d batches, partial %+v; want context.Canceled after 1 batch, at graph %d", err, batches, m.Partial, cfg.Batch)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if m, err = Decode(&buf); err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, graphs.Slice(data), Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if !sameModel(m, whole) {
		t.Error("stopped inside a batch and resumed: the model differs from the uninterrupted run")
	}
}
