package datasets_test

import (
	"io/fs"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
)

func TestNames(t *testing.T) {
	want := []string{"AIDS", "IMDB-BINARY", "MUTAG", "PROTEINS", "PROTEINS_full"}
	if got := datasets.Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
}

func TestLoadUnknown(t *testing.T) {
	_, err := datasets.Load("ENZYMES", graphs.TUOptions{})
	if err == nil || !strings.Contains(err.Error(), `"ENZYMES"`) || !strings.Contains(err.Error(), "AIDS, IMDB-BINARY, MUTAG, PROTEINS, PROTEINS_full") {
		t.Errorf("error %v: want one listing the bundled datasets", err)
	}
	if _, err := datasets.Info("nope"); err == nil {
		t.Error("Info of an unknown dataset: no error")
	}
	// Case-insensitive, but PROTEINS must not be confused with PROTEINS_full.
	for in, want := range map[string]string{"mutag": "MUTAG", "proteins": "PROTEINS", "Proteins_Full": "PROTEINS_full"} {
		s, err := datasets.Info(in)
		if err != nil || s.Name != want {
			t.Errorf("Info(%q) = %q, %v; want %q", in, s.Name, err, want)
		}
	}
}

func TestFS(t *testing.T) {
	b, err := fs.ReadFile(datasets.FS(), "README.md")
	if err != nil || !strings.Contains(string(b), "bknyaz/graph_nn") {
		t.Errorf("README.md with the provenance not in FS(): %v", err)
	}
	if _, err := fs.Stat(datasets.FS(), "MUTAG/MUTAG_edge_labels.txt.gz"); err != nil {
		t.Error(err)
	}
}

// TestInfo checks the statistics against those verified in tu/README.md (and published for the
// TU collection and in the GWF paper).
func TestInfo(t *testing.T) {
	sum := func(name string, g, nodes, edges, lo, hi, labels int) graphs.Summary {
		return graphs.Summary{Name: name, Graphs: g, Classes: 2, Nodes: nodes, Edges: edges, MinNodes: lo, MaxNodes: hi,
			AvgNodes: float64(nodes) / float64(g), AvgEdges: float64(edges) / float64(g), FeatureDim: labels}
	}
	stats := func(s graphs.Summary, labels, attrs int, offered []string, edgeLabels bool) datasets.Stats {
		return datasets.Stats{Description: graphs.Description{Summary: s, NodeLabels: labels, NodeAttributes: attrs,
			OfferedFeatures: offered, EdgeLabels: edgeLabels}, HasNodeLabels: labels > 0}
	}
	both := []string{"labels", "attributes"}
	for _, want := range []datasets.Stats{
		stats(sum("AIDS", 2000, 31385, 32390, 2, 95, 38), 38, 4, both, true),
		stats(sum("IMDB-BINARY", 1000, 19773, 96531, 12, 136, 0), 0, 0, nil, false),
		stats(sum("MUTAG", 188, 3371, 3721, 10, 28, 7), 7, 0, []string{"labels"}, true),
		stats(sum("PROTEINS", 1113, 43471, 81044, 4, 620, 3), 3, 1, both, false),
		stats(sum("PROTEINS_full", 1113, 43471, 81044, 4, 620, 3), 3, 29, both, false),
	} {
		t.Run(want.Name, func(t *testing.T) {
			got, err := datasets.Info(want.Name)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
	// The rounded figures of the paper tables.
	for name, want := range map[string][2]float64{
		"MUTAG": {17.93, 19.79}, "AIDS": {15.69, 16.20}, "IMDB-BINARY": {19.77, 96.53}, "PROTEINS": {39.06, 72.82},
	} {
		s, err := datasets.Info(name)
		if err != nil {
			t.Fatal(err)
		}
		if math.Round(s.AvgNodes*100)/100 != want[0] || math.Round(s.AvgEdges*100)/100 != want[1] {
			t.Errorf("%s: avg nodes %.2f, edges %.2f; want %.2f, %.2f", name, s.AvgNodes, s.AvgEdges, want[0], want[1])
		}
	}
}

func TestLoadMUTAG(t *testing.T) {
	ds, err := datasets.Load("MUTAG", graphs.TUOptions{Features: graphs.FeaturesLabels, DegreeMu: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Graphs) != 188 || !slices.Equal(ds.Classes, []int{-1, 1}) || !slices.Equal(ds.NodeLabels, []int{0, 1, 2, 3, 4, 5, 6}) {
		t.Fatalf("%d graphs, classes %v, node labels %v", len(ds.Graphs), ds.Classes, ds.NodeLabels)
	}
	count := map[int]int{}
	for _, g := range ds.Graphs {
		count[ds.Classes[g.Label]]++
		if g.Dim() != 7 {
			t.Fatalf("%s: one-hot width %d, want 7", g.Name, g.Dim())
		}
		for i := 0; i < g.N(); i++ {
			if s := sum(g.F.RawRowView(i)); s != 1 {
				t.Fatalf("%s: node %d one-hot row sums to %v", g.Name, i, s)
			}
		}
	}
	if count[1] != 125 || count[-1] != 63 {
		t.Errorf("class sizes %v, want 1: 125, -1: 63", count)
	}
	if g := ds.Graphs[11]; g.Name != "MUTAG#12" {
		t.Errorf("graph 12 named %q", g.Name)
	}
}

// TestLoadSymmetric checks what tu/README.md says of every dataset: symmetric adjacency, no
// self-loops, 0/1 entries (so IMDB-BINARY's repeated lines did not add up).
func TestLoadSymmetric(t *testing.T) {
	for _, name := range []string{"AIDS", "IMDB-BINARY", "PROTEINS"} {
		ds, err := datasets.Load(name, graphs.TUOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range ds.Graphs {
			n := g.N()
			for i := 0; i < n; i++ {
				if g.A.At(i, i) != 0 {
					t.Fatalf("%s: self-loop at %d", g.Name, i)
				}
				for j := 0; j < i; j++ {
					if v := g.A.At(i, j); v != g.A.At(j, i) || (v != 0 && v != 1) {
						t.Fatalf("%s: C[%d][%d] = %v, C[%d][%d] = %v", g.Name, i, j, v, j, i, g.A.At(j, i))
					}
				}
			}
		}
	}
}

func TestLoadAttributes(t *testing.T) {
	full, err := datasets.Load("PROTEINS_full", graphs.TUOptions{Features: graphs.FeaturesAttributes})
	if err != nil {
		t.Fatal(err)
	}
	prot, err := datasets.Load("PROTEINS", graphs.TUOptions{Features: graphs.FeaturesAttributes})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Graphs) != 1113 || len(prot.Graphs) != 1113 {
		t.Fatalf("%d and %d graphs, want 1113", len(full.Graphs), len(prot.Graphs))
	}
	// tu/README.md: the PROTEINS attribute is column 3 of the PROTEINS_full ones.
	for k, g := range full.Graphs {
		p := prot.Graphs[k]
		if g.Dim() != 29 || p.Dim() != 1 {
			t.Fatalf("%s: widths %d and %d, want 29 and 1", g.Name, g.Dim(), p.Dim())
		}
		for i := 0; i < g.N(); i++ {
			if g.F.At(i, 2) != p.F.At(i, 0) {
				t.Fatalf("%s node %d: PROTEINS_full column 3 = %v, PROTEINS = %v", g.Name, i, g.F.At(i, 2), p.F.At(i, 0))
			}
		}
	}
	// The first line of the file, fixed width with no space after some commas.
	want := []float64{5, 27, 23, 33.03681, 0, 11.8, 0.43, 15.34, 10.66, 4, 10, 9, 10, 6, 7, 8, 4, 11, 4, 10, 9,
		272.08, 0.410997, -0.06, -0.000091, 437.32, 0.660604, 244.26, 0.368973}
	if got := full.Graphs[0].F.RawRowView(0); !slices.Equal(got, want) {
		t.Errorf("first attribute row %v, want %v", got, want)
	}

	aids, err := datasets.Load("AIDS", graphs.TUOptions{Features: graphs.FeaturesAttributes})
	if err != nil {
		t.Fatal(err)
	}
	if g := aids.Graphs[0]; g.Dim() != 4 || g.F.At(0, 2) != 9.776700019836426 {
		t.Errorf("AIDS#1 attributes: width %d, x of node 1 = %v", g.Dim(), g.F.At(0, 2))
	}
}

func TestLoadMissingFeatures(t *testing.T) {
	for _, f := range []graphs.FeatureKind{graphs.FeaturesLabels, graphs.FeaturesAttributes} {
		_, err := datasets.Load("IMDB-BINARY", graphs.TUOptions{Features: f})
		if err == nil || !strings.Contains(err.Error(), "IMDB-BINARY_node_") || !strings.Contains(err.Error(), `only "none"`) {
			t.Errorf("%v: error %v", f, err)
		}
	}
	_, err := datasets.Load("MUTAG", graphs.TUOptions{Features: graphs.FeaturesAttributes})
	if err == nil || !strings.Contains(err.Error(), "has node features: labels") {
		t.Errorf("MUTAG attributes: error %v", err)
	}
}

func TestLoadLimits(t *testing.T) {
	_, err := datasets.Load("PROTEINS", graphs.TUOptions{Limits: graphs.Limits{MaxNodes: 100}})
	if err == nil || !strings.Contains(err.Error(), "raise Limits.MaxNodes") {
		t.Errorf("error %v", err)
	}
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// BenchmarkLoad times loading each bundled dataset with its richest features.
func BenchmarkLoad(b *testing.B) {
	for _, c := range []struct {
		name string
		f    graphs.FeatureKind
	}{
		{"MUTAG", graphs.FeaturesLabels},
		{"AIDS", graphs.FeaturesAttributes},
		{"IMDB-BINARY", graphs.FeaturesNone},
		{"PROTEINS", graphs.FeaturesAttributes},
		{"PROTEINS_full", graphs.FeaturesAttributes},
	} {
		b.Run(c.name+"/"+c.f.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := datasets.Load(c.name, graphs.TUOptions{Features: c.f}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
