package store

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
)

// FuzzStore reads arbitrary bytes as a store: an error wrapping ErrCorrupt or valid graphs,
// never a panic or an allocation beyond the limits.
func FuzzStore(f *testing.F) {
	for _, kind := range []graphs.FeatureKind{graphs.FeaturesNone, graphs.FeaturesLabels} {
		ds, err := datasets.Load("MUTAG", graphs.TUOptions{Features: kind, Select: func(int) []int { return []int{0, 7} }})
		if err != nil {
			f.Fatal(err)
		}
		good, err := os.ReadFile(write(f, ds.Graphs))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(good)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := open(bytes.NewReader(data), int64(len(data)), "fuzz", Options{Limits: graphs.Limits{MaxNodes: 200, MaxDenseBytes: 1 << 20}})
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Open: %v does not wrap ErrCorrupt", err)
			}
			return
		}
		for i := 0; i < s.Len(); i++ {
			g, err := s.Graph(i)
			if err != nil {
				continue
			}
			if err := g.Validate(); err != nil || g.N() != s.Nodes(i) || g.Dim() != s.Dim() {
				t.Fatalf("graph %d read but wrong: %v", i, err)
			}
		}
	})
}
