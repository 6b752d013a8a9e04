package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/graphs/datasets"
)

// tuFolder writes the first n graphs of a bundled dataset, with attributes, as a TU folder.
func tuFolder(t *testing.T, name string, n int) string {
	t.Helper()
	ds, err := datasets.Load(name, graphs.TUOptions{Features: graphs.FeaturesAttributes, Select: func(int) []int {
		pick := make([]int, n)
		for i := range pick {
			pick[i] = i
		}
		return pick
	}})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), name)
	if err := graphs.WriteTU(dir, name, ds.Graphs, graphs.TUWriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestFromCollectionIsLoad: graph i of the store is graph i of collection.Load, for a TU folder
// (one scan) and a bundled dataset (chunks), with a subset, one-hot labels and standardization.
func TestFromCollectionIsLoad(t *testing.T) {
	folder := tuFolder(t, "PROTEINS", 40)
	specs := map[string]collection.Spec{
		"bundled, labels":                 {Dataset: "MUTAG", Features: graphs.FeaturesLabels},
		"bundled, subset, standardized":   {Dataset: "PROTEINS", Features: graphs.FeaturesAttributes, Standardize: true, Subset: 70, SubsetSeed: 3},
		"folder, subset, standardized":    {TU: folder, Features: graphs.FeaturesAttributes, Standardize: true, Subset: 25},
		"folder, structure":               {TU: folder},
		"bundled, the model's encoding":   {Dataset: "MUTAG", Features: graphs.FeaturesLabels, Encoding: &graphs.FeatureEncoding{Kind: graphs.FeaturesLabels, NodeLabels: []int{0, 2, 5}}},
		"folder, the model's standardize": {TU: folder, Features: graphs.FeaturesAttributes, Standardize: true, Encoding: &graphs.FeatureEncoding{Kind: graphs.FeaturesAttributes, Mean: []float64{2}, Scale: []float64{0.5}}},
	}
	for name, spec := range specs {
		t.Run(name, func(t *testing.T) {
			want, err := collection.Load(spec)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "s")
			s, meta, err := FromCollection(context.Background(), spec, path, 16, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Len() != len(want.Graphs) {
				t.Fatalf("%d graphs, want %d", s.Len(), len(want.Graphs))
			}
			for i, w := range want.Graphs {
				g, err := s.Graph(i)
				if err != nil {
					t.Fatal(err)
				}
				sameGraph(t, g, w)
			}
			if meta.Name != want.Name || meta.Graphs != nil || meta.UnknownNodeLabels != want.UnknownNodeLabels {
				t.Fatalf("description %q (%d graphs, %d unknown labels), want %q (%d unknown)", meta.Name, len(meta.Graphs), meta.UnknownNodeLabels, want.Name, want.UnknownNodeLabels)
			}
			if a, b := meta.Encoding, want.Encoding; a.Kind != b.Kind || len(a.NodeLabels) != len(b.NodeLabels) || len(a.Mean) != len(b.Mean) {
				t.Fatalf("encoding %+v, want %+v", a, b)
			}
			for j := range meta.Encoding.Mean {
				if meta.Encoding.Mean[j] != want.Encoding.Mean[j] || meta.Encoding.Scale[j] != want.Encoding.Scale[j] {
					t.Fatalf("standardization %v/%v, want %v/%v", meta.Encoding.Mean, meta.Encoding.Scale, want.Encoding.Mean, want.Encoding.Scale)
				}
			}
		})
	}
}

func TestFromCollectionErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s")
	for name, spec := range map[string]collection.Spec{
		"no data":     {},
		"window":      {Dataset: "MUTAG", Window: func(n int) (int, int) { return 0, n }},
		"missing dir": {TU: filepath.Join(dir, "nothing")},
		"too large":   {Dataset: "MUTAG", Limits: graphs.Limits{MaxNodes: 10}},
	} {
		if _, _, err := FromCollection(context.Background(), spec, path, 0, Options{}); err == nil {
			t.Errorf("%s: no error", name)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s: a file is left at %s", name, path)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := FromCollection(ctx, collection.Spec{Dataset: "MUTAG"}, path, 0, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
