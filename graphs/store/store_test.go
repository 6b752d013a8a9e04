package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
)

// write makes a store of gs in a temporary folder.
func write(t testing.TB, gs []*graphs.Graph) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "g.store")
	w, err := Create(path, gs[0].Dim())
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		if err := w.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func sameGraph(t *testing.T, got, want *graphs.Graph) {
	t.Helper()
	if got.Name != want.Name || got.Label != want.Label || got.HasLabel != want.HasLabel {
		t.Fatalf("graph %q label %d/%v, want %q %d/%v", got.Name, got.Label, got.HasLabel, want.Name, want.Label, want.HasLabel)
	}
	if !mat.Equal(got.Dense(), want.Dense()) || got.A.NNZ() != want.A.NNZ() {
		t.Fatalf("graph %q: adjacency differs", want.Name)
	}
	if len(got.Mu) != len(want.Mu) {
		t.Fatalf("graph %q: %d masses, want %d", want.Name, len(got.Mu), len(want.Mu))
	}
	for i := range got.Mu {
		if got.Mu[i] != want.Mu[i] {
			t.Fatalf("graph %q: mu[%d] = %v, want %v", want.Name, i, got.Mu[i], want.Mu[i])
		}
	}
	if (got.F == nil) != (want.F == nil) || (got.F != nil && !mat.Equal(got.F, want.F)) {
		t.Fatalf("graph %q: features differ", want.Name)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name     string
		features graphs.FeatureKind
	}{{"MUTAG", graphs.FeaturesNone}, {"MUTAG", graphs.FeaturesLabels}, {"PROTEINS", graphs.FeaturesAttributes}} {
		ds, err := datasets.Load(tc.name, graphs.TUOptions{Features: tc.features, Select: func(n int) []int { return []int{0, 1, 5, n - 1} }})
		if err != nil {
			t.Fatal(err)
		}
		s, err := Open(write(t, ds.Graphs), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if s.Len() != len(ds.Graphs) || s.Dim() != ds.Graphs[0].Dim() {
			t.Fatalf("%s: %d graphs of dimension %d, want %d of %d", tc.name, s.Len(), s.Dim(), len(ds.Graphs), ds.Graphs[0].Dim())
		}
		for i, want := range ds.Graphs {
			got, err := s.Graph(i)
			if err != nil {
				t.Fatal(err)
			}
			sameGraph(t, got, want)
			if s.Nodes(i) != want.N() {
				t.Fatalf("Nodes(%d) = %d, want %d", i, s.Nodes(i), want.N())
			}
		}
		if _, err := s.Graph(len(ds.Graphs)); err == nil {
			t.Fatal("a graph past the end was read")
		}
		s.Close()
	}
}

func TestUnlabelledAndWeighted(t *testing.T) {
	c := mat.NewDense(3, 3, []float64{0, 2.5, 0, 1e-300, 0, 7, 0, 0, 0})
	g, err := graphs.New("weighted, directed", c, []float64{0.2, 0.3, 0.5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	one, err := graphs.New("one node", mat.NewDense(1, 1, nil), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	one.Label, one.HasLabel = -4, true
	s, err := Open(write(t, []*graphs.Graph{g, one}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, want := range []*graphs.Graph{g, one} {
		got, err := s.Graph(i)
		if err != nil {
			t.Fatal(err)
		}
		sameGraph(t, got, want)
	}
}

// TestConcurrentReads reads every graph from several goroutines (run it with -race).
func TestConcurrentReads(t *testing.T) {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{Features: graphs.FeaturesLabels})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(write(t, ds.Graphs), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < s.Len(); i += 4 {
				g, err := s.Graph(i)
				if err != nil || g.N() != ds.Graphs[i].N() {
					errs <- errors.Join(err, errors.New("wrong graph"))
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestStandardizeOnRead(t *testing.T) {
	read := func() []*graphs.Graph {
		ds, err := datasets.Load("PROTEINS", graphs.TUOptions{Features: graphs.FeaturesAttributes, Select: func(int) []int { return []int{3, 4, 9} }})
		if err != nil {
			t.Fatal(err)
		}
		return ds.Graphs
	}
	raw, want := read(), read()
	mean, scale, err := graphs.StandardizeFeatures(want)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(write(t, raw), Options{Mean: mean, Scale: scale})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range want {
		got, err := s.Graph(i)
		if err != nil {
			t.Fatal(err)
		}
		sameGraph(t, got, want[i])
	}
	if _, err := Open(s.path, Options{Mean: mean[:0], Scale: scale[:0]}); err == nil {
		t.Fatal("a standardization of the wrong dimension was taken")
	}
}

func TestWriterRefuses(t *testing.T) {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{Features: graphs.FeaturesLabels, Select: func(int) []int { return []int{0} }})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s")
	w, err := Create(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(ds.Graphs[0]); err == nil {
		t.Fatal("a graph of another feature dimension was added")
	}
	if err := w.Add(&graphs.Graph{Name: "empty"}); err == nil {
		t.Fatal("an invalid graph was added")
	}
	w.Abort()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Abort left the file: %v", err)
	}
	if _, err := Create(path, -1); err == nil {
		t.Fatal("a negative dimension was taken")
	}
}

// TestDamagedFiles truncates a store at every length and flips every byte: Open or Graph must
// give an error wrapping ErrCorrupt (or, for a flip in a value that the CRC covers, never a
// wrong graph), never panic.
func TestDamagedFiles(t *testing.T) {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{Features: graphs.FeaturesLabels, Select: func(int) []int { return []int{0, 1} }})
	if err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(write(t, ds.Graphs))
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, data []byte) {
		s, err := open(bytes.NewReader(data), int64(len(data)), "bad", Options{})
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s: Open: %v does not wrap ErrCorrupt", what, err)
			}
			return
		}
		defer s.Close()
		for i := 0; i < s.Len(); i++ {
			g, err := s.Graph(i)
			if err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s: graph %d: %v does not wrap ErrCorrupt", what, i, err)
				}
				continue
			}
			if i >= len(ds.Graphs) {
				t.Fatalf("%s: graph %d of %d read", what, i, len(ds.Graphs))
			}
			sameGraph(t, g, ds.Graphs[i])
		}
	}
	for n := 0; n < len(good); n++ {
		check("truncated", good[:n])
	}
	for k := range good {
		bad := append([]byte(nil), good...)
		bad[k] ^= 0x41
		check("flipped", bad)
	}
}

func TestLimits(t *testing.T) {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{Select: func(int) []int { return []int{0} }})
	if err != nil {
		t.Fatal(err)
	}
	path := write(t, ds.Graphs)
	s, err := Open(path, Options{Limits: graphs.Limits{MaxNodes: 5}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Graph(0); err == nil {
		t.Fatalf("a graph of %d nodes read under a limit of 5", ds.Graphs[0].N())
	}
	s2, err := Open(path, Options{Limits: graphs.Limits{MaxDenseBytes: 100}})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := s2.Graph(0); err == nil {
		t.Fatal("a graph read beyond the memory limit")
	}
}

// BenchmarkGraph reads PROTEINS' graphs (attributes) back from a store, one per operation.
func BenchmarkGraph(b *testing.B) {
	ds, err := datasets.Load("PROTEINS", graphs.TUOptions{Features: graphs.FeaturesAttributes})
	if err != nil {
		b.Fatal(err)
	}
	s, err := Open(write(b, ds.Graphs), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Graph(i % s.Len()); err != nil {
			b.Fatal(err)
		}
	}
}
