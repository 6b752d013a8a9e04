package collection

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/datasets"
)

func TestPick(t *testing.T) {
	for _, s := range []Spec{{Subset: 7, SubsetSeed: 3}, {Subset: 7, SubsetSpread: true}} {
		p := s.Pick(20)
		if len(p) != 7 || !slices.IsSorted(p) || len(slices.Compact(slices.Clone(p))) != 7 || p[0] < 0 || p[6] >= 20 {
			t.Errorf("%+v: pick %v is not 7 sorted distinct indices of 20", s, p)
		}
		if !slices.Equal(p, s.Pick(20)) {
			t.Errorf("%+v: two picks differ", s)
		}
	}
	if p := (Spec{Subset: 4, SubsetSpread: true}).Pick(8); !slices.Equal(p, []int{0, 2, 4, 6}) {
		t.Errorf("spread pick %v", p)
	}
	if a, b := (Spec{Subset: 5, SubsetSeed: 1}).Pick(50), (Spec{Subset: 5, SubsetSeed: 2}).Pick(50); slices.Equal(a, b) {
		t.Errorf("seeds 1 and 2 pick the same %v", a)
	}
	for _, s := range []Spec{{}, {Subset: 30}} {
		if p := s.Pick(30); len(p) != 30 || p[29] != 29 {
			t.Errorf("%+v: pick of all is %v", s, p)
		}
	}
}

// TestLoadSubsetBeforeLimit: a subset small enough for the memory limit loads although the
// whole dataset does not, and it holds the graphs Pick names.
func TestLoadSubsetBeforeLimit(t *testing.T) {
	full, err := datasets.Load("MUTAG", graphs.TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lim := graphs.Limits{MaxDenseBytes: 64 << 10} // MUTAG needs about 500 KiB
	spec := Spec{Dataset: "mutag", Subset: 20, SubsetSeed: 9, Limits: lim}
	if _, err := Load(Spec{Dataset: "MUTAG", Limits: lim}); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Fatalf("whole MUTAG under %d bytes: error %v", lim.MaxDenseBytes, err)
	}
	ds, err := Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	pick := spec.Pick(len(full.Graphs))
	if len(ds.Graphs) != 20 {
		t.Fatalf("%d graphs, want 20", len(ds.Graphs))
	}
	for k, i := range pick {
		if ds.Graphs[k].Name != full.Graphs[i].Name || ds.Graphs[k].Label != full.Graphs[i].Label {
			t.Errorf("graph %d is %s, want %s", k, ds.Graphs[k].Name, full.Graphs[i].Name)
		}
	}
}

// TestLoadStandardize: standardized features have mean 0 and std 1 over the graphs kept.
func TestLoadStandardize(t *testing.T) {
	ds, err := Load(Spec{Dataset: "PROTEINS", Features: graphs.FeaturesAttributes, Standardize: true, Subset: 50, SubsetSpread: true})
	if err != nil {
		t.Fatal(err)
	}
	var sum, sq, n float64
	for _, g := range ds.Graphs {
		for i := 0; i < g.N(); i++ {
			v := g.F.At(i, 0)
			sum, sq, n = sum+v, sq+v*v, n+1
		}
	}
	if mean, std := sum/n, math.Sqrt(sq/n-(sum/n)*(sum/n)); math.Abs(mean) > 1e-9 || math.Abs(std-1) > 1e-9 {
		t.Errorf("mean %g, std %g over the subset; want 0 and 1", mean, std)
	}
}

func TestLoadSources(t *testing.T) {
	tu, err := Load(Spec{TU: filepath.Join("..", "testdata", "tu", "TINY"), Features: graphs.FeaturesLabels})
	if err != nil || len(tu.Graphs) != 3 || tu.Graphs[0].Dim() == 0 {
		t.Fatalf("TU folder: %v", err)
	}
	folder, err := Load(Spec{Folder: filepath.Join("..", "testdata", "mixed"), Subset: 3, SubsetSeed: 1})
	if err != nil || len(folder.Graphs) != 3 || folder.NumClasses() != 2 {
		t.Fatalf("graph folder: %v", err)
	}
	for _, s := range []struct {
		spec Spec
		want string
	}{
		{Spec{}, "set one of"},
		{Spec{Dataset: "MUTAG", TU: "x"}, "only one"},
		{Spec{Dataset: "nope"}, `unknown bundled dataset "nope"`},
		{Spec{Dataset: "MUTAG", Subset: -1}, "negative"},
		{Spec{Folder: "x", Features: graphs.FeaturesLabels, Window: func(n int) (int, int) { return 0, n }}, "over the window alone"},
		{Spec{Folder: "x", Features: graphs.FeaturesLabels, Encoding: &graphs.FeatureEncoding{Kind: graphs.FeaturesLabels, NodeLabels: []int{1}}}, "a folder has string node attributes"},
		{Spec{Dataset: "MUTAG", Features: graphs.FeaturesLabels, Encoding: &graphs.FeatureEncoding{Kind: graphs.FeaturesLabels, NodeLabelNames: []string{"a=b"}}}, "TU data have integer labels"},
		{Spec{TU: filepath.Join("..", "testdata", "nowhere")}, "nowhere"},
	} {
		if _, err := Load(s.spec); err == nil || !strings.Contains(err.Error(), s.want) {
			t.Errorf("%+v: error %v, want %q", s.spec, err, s.want)
		}
	}
}

// TestSummarize: graphs.Summarize of a loaded collection agrees with the bundled statistics of MUTAG and counts a folder's graphs.
func TestSummarize(t *testing.T) {
	ds, err := Load(Spec{Dataset: "MUTAG", Features: graphs.FeaturesLabels})
	if err != nil {
		t.Fatal(err)
	}
	want, err := datasets.Info("MUTAG")
	if err != nil {
		t.Fatal(err)
	}
	if s := graphs.Summarize(ds); s != want.Summary || s.FeatureDim != want.NodeLabels {
		t.Errorf("summary %+v, bundled statistics %+v", s, want)
	}
	folder, err := Load(Spec{Folder: filepath.Join("..", "testdata", "mixed")})
	if err != nil {
		t.Fatal(err)
	}
	// friends 4 nodes 4 edges, path 4/3, pentagon 5/5, square 4/4, star 4/3, triangle 3/3.
	if s := graphs.Summarize(folder); s.Graphs != 6 || s.Classes != 2 || s.Nodes != 24 || s.Edges != 22 || s.MinNodes != 3 || s.MaxNodes != 5 {
		t.Errorf("mixed folder: %+v", s)
	}
}

// TestLoadWindow: windows of the subset, read separately, are the slices of the whole; an empty
// window loads no graphs; a window out of range and Standardize with a window are refused.
func TestLoadWindow(t *testing.T) {
	base := Spec{Dataset: "MUTAG", Subset: 40, SubsetSeed: 5}
	whole, err := Load(base)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, w := range [][2]int{{0, 13}, {13, 13}, {13, 40}} {
		s := base
		s.Window = func(kept int) (int, int) {
			if kept != 40 {
				t.Errorf("Window got %d kept graphs, want 40", kept)
			}
			return w[0], w[1]
		}
		ds, err := Load(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds.Graphs) != w[1]-w[0] {
			t.Errorf("window %v: %d graphs", w, len(ds.Graphs))
		}
		for _, g := range ds.Graphs {
			names = append(names, g.Name)
		}
	}
	var want []string
	for _, g := range whole.Graphs {
		want = append(want, g.Name)
	}
	if !slices.Equal(names, want) {
		t.Errorf("the windows hold %v, the whole %v", names, want)
	}
	s := base
	s.Window = func(kept int) (int, int) { return 30, kept + 1 }
	if _, err := Load(s); err == nil || !strings.Contains(err.Error(), "Window") {
		t.Errorf("window out of range: err = %v", err)
	}
	s.Standardize = true
	if err := s.Validate(); err == nil {
		t.Error("Standardize with a Window was accepted")
	}
}

// TestLoadEncoding: Load records how the features were made, and a spec with that Encoding
// encodes other graphs the same way: a subset standardized with the whole data's means and
// scales holds the rows of the whole standardized data, and a window may then standardize.
func TestLoadEncoding(t *testing.T) {
	spec := Spec{Dataset: "PROTEINS", Features: graphs.FeaturesAttributes, Standardize: true, Subset: 60}
	all, err := Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	enc := all.Encoding
	if enc.Kind != graphs.FeaturesAttributes || len(enc.Mean) != 1 || len(enc.Scale) != 1 || enc.Validate() != nil {
		t.Fatalf("encoding %+v", enc)
	}
	sub := spec
	sub.Encoding = &enc
	sub.Window = func(kept int) (int, int) { return 10, 20 }
	part, err := Load(sub)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range part.Graphs {
		if w := all.Graphs[10+i]; g.Name != w.Name || !mat.Equal(g.F, w.F) {
			t.Fatalf("graph %s of the window: features differ from the whole data's", g.Name)
		}
	}
	labels := Spec{Dataset: "MUTAG", Features: graphs.FeaturesLabels}
	if ds, err := Load(labels); err != nil || ds.Encoding.Kind != graphs.FeaturesLabels || len(ds.Encoding.NodeLabels) != 7 || ds.Encoding.Standardized() {
		t.Fatalf("MUTAG's encoding %+v (%v)", ds.Encoding, err)
	}
	wider := graphs.FeatureEncoding{Kind: graphs.FeaturesLabels, NodeLabels: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}}
	labels.Encoding = &wider
	if ds, err := Load(labels); err != nil || ds.Graphs[0].Dim() != 9 || ds.Graphs[0].EdgeLabels != nil {
		t.Fatalf("MUTAG with 9 node-label values: %v", err)
	}
	// A model's encoding that kept edge labels reads them from new graphs.
	withEdges := wider
	withEdges.EdgeLabels = true
	labels.Encoding = &withEdges
	if ds, err := Load(labels); err != nil || !ds.Encoding.EdgeLabels || !graphs.HasEdgeLabels(ds.Graphs) {
		t.Fatalf("MUTAG with an encoding of edge labels: %v", err)
	}
	for name, bad := range map[string]Spec{
		"other kind":          {Dataset: "MUTAG", Features: graphs.FeaturesAttributes, Encoding: &wider},
		"standardize without": {Dataset: "MUTAG", Features: graphs.FeaturesLabels, Standardize: true, Encoding: &wider},
		"not standardized":    {Dataset: "PROTEINS", Features: graphs.FeaturesAttributes, Encoding: &enc},
		"invalid":             {Dataset: "MUTAG", Features: graphs.FeaturesLabels, Encoding: &graphs.FeatureEncoding{Kind: graphs.FeaturesLabels}},
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%s: valid spec", name)
		}
	}
}

// TestLoadStructure: a spec with shortest paths gives the graphs of graphs.ShortestPaths and
// records the structure; in chunks too; an encoding of another structure is refused.
func TestLoadStructure(t *testing.T) {
	spec := Spec{Dataset: "MUTAG", Subset: 9, Structure: graphs.ShortestPath}
	ds, err := Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	adj, err := Load(Spec{Dataset: "MUTAG", Subset: 9})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Encoding.Structure != graphs.ShortestPath || adj.Encoding.Structure != "" {
		t.Fatalf("encodings record %q and %q", ds.Encoding.Structure, adj.Encoding.Structure)
	}
	for i, g := range adj.Graphs {
		want, err := graphs.ShortestPaths(g)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(ds.Graphs[i].Dense(), want.Dense()) {
			t.Fatalf("graph %s: not its shortest paths", g.Name)
		}
	}
	n := 0
	if _, _, _, err := Chunks(spec, 4, nil, func(c Chunk) error {
		for i, g := range c.Data.Graphs {
			if !mat.Equal(g.Dense(), ds.Graphs[c.Start+i].Dense()) || c.Data.Encoding.Structure != graphs.ShortestPath {
				t.Fatalf("chunk graph %d differs from Load's", c.Start+i)
			}
			n++
		}
		return nil
	}); err != nil || n != 9 {
		t.Fatalf("chunks: %d graphs, %v", n, err)
	}
	other := Spec{Dataset: "MUTAG", Encoding: &adj.Encoding, Structure: graphs.ShortestPath}
	if err := other.Validate(); err == nil {
		t.Error("shortest paths with an encoding of adjacencies accepted")
	}
	if err := (Spec{Dataset: "MUTAG", Structure: "laplacian"}).Validate(); err == nil {
		t.Error("unknown structure accepted")
	}
}

// TestLoadDegrees: one-hot degrees are those of the adjacency, also where shortest paths
// replace it, in chunks too; a model's encoding of them reads them again; they are not
// standardized.
func TestLoadDegrees(t *testing.T) {
	spec := Spec{Dataset: "MUTAG", Subset: 9, Features: graphs.FeaturesDegrees, Structure: graphs.ShortestPath}
	ds, err := Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	adj, err := Load(Spec{Dataset: "MUTAG", Subset: 9})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Encoding.Kind != graphs.FeaturesDegrees {
		t.Fatalf("encoding of kind %s", ds.Encoding.Kind)
	}
	for i, g := range adj.Graphs {
		x := make([]float64, g.N()*graphs.DegreeBins)
		graphs.OneHotDegrees(g.A, x)
		if !mat.Equal(ds.Graphs[i].F, mat.NewDense(g.N(), graphs.DegreeBins, x)) {
			t.Fatalf("graph %s: features are not the degrees of its adjacency", g.Name)
		}
	}
	again := spec
	again.Encoding = &ds.Encoding
	n := 0
	if _, _, _, err := Chunks(again, 4, nil, func(c Chunk) error {
		for i, g := range c.Data.Graphs {
			if !mat.Equal(g.F, ds.Graphs[c.Start+i].F) || c.Data.Encoding.Kind != graphs.FeaturesDegrees {
				t.Fatalf("chunk graph %d differs from Load's", c.Start+i)
			}
			n++
		}
		return nil
	}); err != nil || n != 9 {
		t.Fatalf("chunks: %d graphs, %v", n, err)
	}
	if err := (Spec{Dataset: "MUTAG", Features: graphs.FeaturesDegrees, Standardize: true}).Validate(); err == nil {
		t.Error("standardized degrees accepted")
	}
}
