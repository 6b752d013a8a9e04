package collection

import (
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
)

// TestChunksAreLoad: the chunks of a span, joined, are that span of Load's graphs, for a TU
// folder (one scan) and a bundled dataset (a read per chunk), with a subset.
func TestChunksAreLoad(t *testing.T) {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{Select: func(int) []int { return []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11} }})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "M")
	if err := graphs.WriteTU(dir, "M", ds.Graphs, graphs.TUWriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, spec := range []Spec{{TU: dir, Subset: 9}, {Dataset: "MUTAG", Subset: 30, Features: graphs.FeaturesLabels}} {
		all, err := Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		span := func(total int) (int, int) { return 2, total - 1 }
		var got []*graphs.Graph
		next := 2
		total, lo, hi, err := Chunks(spec, 4, span, func(c Chunk) error {
			if c.Start != next || len(c.Data.Graphs) > 4 || c.Total != len(all.Graphs) || c.Data.Name != all.Name {
				t.Fatalf("%+v: chunk at %d of %d graphs (total %d, %s), want at %d", spec, c.Start, len(c.Data.Graphs), c.Total, c.Data.Name, next)
			}
			next += len(c.Data.Graphs)
			got = append(got, c.Data.Graphs...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := all.Graphs[2 : len(all.Graphs)-1]
		if total != len(all.Graphs) || lo != 2 || hi != total-1 || len(got) != len(want) {
			t.Fatalf("%+v: total %d, span [%d, %d), %d graphs; want %d, [2, %d), %d", spec, total, lo, hi, len(got), len(all.Graphs), len(all.Graphs)-1, len(want))
		}
		for i := range want {
			if got[i].Name != want[i].Name || !mat.Equal(got[i].Dense(), want[i].Dense()) || got[i].Dim() != want[i].Dim() {
				t.Fatalf("%+v: graph %d is %s, want %s", spec, i, got[i].Name, want[i].Name)
			}
		}
	}
	for _, bad := range []Spec{{Dataset: "MUTAG", Features: graphs.FeaturesLabels, Standardize: true}, {Dataset: "MUTAG", Window: span0}} {
		if _, _, _, err := Chunks(bad, 4, nil, func(Chunk) error { return nil }); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	if _, _, _, err := Chunks(Spec{Dataset: "MUTAG"}, 0, nil, func(Chunk) error { return nil }); err == nil {
		t.Error("chunk size 0 taken")
	}
}

func span0(int) (int, int) { return 0, 0 }
