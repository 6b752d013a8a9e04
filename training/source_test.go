package training

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// countingSource counts the graphs read from a slice, and fails the read number failAt
// (0: never).
type countingSource struct {
	graphs.Slice
	mu     sync.Mutex
	reads  int
	failAt int
}

func (s *countingSource) Graph(i int) (*graphs.Graph, error) {
	s.mu.Lock()
	s.reads++
	fail := s.reads == s.failAt
	s.mu.Unlock()
	if fail {
		return nil, errors.New("disk on fire")
	}
	return s.Slice.Graph(i)
}

// TestFitReadsSource: training on a counting Source gives the model of the same graphs in memory
// exactly, reading each graph once per epoch after one pass of checks (and the warm start's
// picks), and a read error stops training with that error.
func TestFitReadsSource(t *testing.T) {
	data := mutag(t, 20)
	cfg := smallConfig()
	want, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), want, graphs.Slice(data), Options{}); err != nil {
		t.Fatal(err)
	}
	src := &countingSource{Slice: data}
	m, err := NewModel(src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if src.reads != len(data)+cfg.Atoms {
		t.Errorf("NewModel read %d graphs, want %d (one pass and %d warm-start atoms)", src.reads, len(data)+cfg.Atoms, cfg.Atoms)
	}
	src.reads = 0
	if err := Fit(context.Background(), m, src, Options{}); err != nil {
		t.Fatal(err)
	}
	if want := len(data) * (1 + cfg.Epochs); src.reads != want {
		t.Errorf("Fit read %d graphs, want %d (a check pass and one read per graph and epoch)", src.reads, want)
	}
	if !mat.Equal(m.Z, want.Z) || m.Fingerprint != want.Fingerprint {
		t.Error("embeddings or fingerprint differ from the in-memory model's")
	}
	for k := range m.V {
		if !mat.Equal(m.V[k], want.V[k]) {
			t.Errorf("atom %d differs from the in-memory model's", k)
		}
	}
	fp, err := fingerprintSource(src)
	if err != nil || fp != Fingerprint(data) {
		t.Errorf("fingerprintSource = %s, %v; Fingerprint %s", fp, err, Fingerprint(data))
	}
	if ok, err := m.TrainedOn(src); !ok || err != nil {
		t.Errorf("TrainedOn its source = %v, %v", ok, err)
	}
	if ok, _ := m.TrainedOn(graphs.Slice(data[1:])); ok {
		t.Error("TrainedOn a graph fewer")
	}
	swapped := append([]*graphs.Graph{data[1], data[0]}, data[2:]...)
	if ok, _ := m.TrainedOn(graphs.Slice(swapped)); ok {
		t.Error("TrainedOn the graphs in another order")
	}

	m, err = NewModel(src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	src.reads, src.failAt = 0, len(data)+13 // in the first epoch, after the checks
	if err := Fit(context.Background(), m, src, Options{}); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("a read error gave %v", err)
	}
	if len(m.History) != 0 {
		t.Fatalf("%d epochs recorded after a read error in the first", len(m.History))
	}
}

// TestNilSource: a nil Source is an error naming the missing graphs, never a panic.
func TestNilSource(t *testing.T) {
	if _, err := NewModel(nil, DefaultConfig()); err == nil || !strings.Contains(err.Error(), "no graphs") {
		t.Errorf("NewModel(nil): %v", err)
	}
	cfg := DefaultConfig()
	cfg.Atoms = 2
	m, err := NewModel(graphs.Slice(mutag(t, 4)), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, nil, Options{}); err == nil || !strings.Contains(err.Error(), "no graphs") {
		t.Errorf("Fit(nil): %v", err)
	}
}
