package graphs

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"gonum.org/v1/gonum/mat"
)

// Helpers here are prefixed with tu: other files of this package are written in parallel.

// tuTinyFS loads the hand-made TINY fixture (testdata/tu/TINY) into a MapFS under "TINY/", so
// the error cases can replace one file at a time.
func tuTinyFS(t *testing.T) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, s := range []string{"_A", "_graph_indicator", "_graph_labels", "_node_labels", "_node_attributes"} {
		name := "TINY" + s + ".txt"
		b, err := os.ReadFile(filepath.Join("testdata", "tu", "TINY", name))
		if err != nil {
			t.Fatal(err)
		}
		fsys["TINY/"+name] = &fstest.MapFile{Data: b}
	}
	return fsys
}

func tuGzip(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// tuDense flattens a matrix row by row for comparisons.
func tuDense(m *mat.Dense) []float64 {
	r, c := m.Dims()
	out := make([]float64, 0, r*c)
	for i := 0; i < r; i++ {
		out = append(out, m.RawRowView(i)...)
	}
	return out
}

func TestReadTUTiny(t *testing.T) {
	ds, err := ReadTUPath(filepath.Join("testdata", "tu", "TINY"), TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Name != "TINY" || len(ds.Graphs) != 3 {
		t.Fatalf("got %q with %d graphs, want TINY with 3", ds.Name, len(ds.Graphs))
	}
	if !slices.Equal(ds.Classes, []int{-1, 2}) {
		t.Errorf("classes %v, want [-1 2]", ds.Classes)
	}
	if ds.NodeLabels != nil {
		t.Errorf("node labels %v without FeaturesLabels", ds.NodeLabels)
	}
	wantC := [][]float64{
		// Triangle; the repeated line "2, 3" must not give 2.
		{0, 1, 1,
			1, 0, 1,
			1, 1, 0},
		// The single entry 4 -> 5 stays directed.
		{0, 1,
			0, 0},
		// Path 6-7-8 and the isolated node 9.
		{0, 1, 0, 0,
			1, 0, 1, 0,
			0, 1, 0, 0,
			0, 0, 0, 0},
	}
	for g, gr := range ds.Graphs {
		if want := []string{"TINY#1", "TINY#2", "TINY#3"}[g]; gr.Name != want {
			t.Errorf("graph %d named %q, want %q", g, gr.Name, want)
		}
		if want := []int{1, 0, 1}[g]; !gr.HasLabel || gr.Label != want {
			t.Errorf("%s: label %d (has %v), want %d", gr.Name, gr.Label, gr.HasLabel, want)
		}
		if got := tuDense(gr.Dense()); !slices.Equal(got, wantC[g]) {
			t.Errorf("%s: C = %v, want %v", gr.Name, got, wantC[g])
		}
		if !slices.Equal(gr.Mu, UniformMu(gr.N())) {
			t.Errorf("%s: mu %v, want uniform", gr.Name, gr.Mu)
		}
		if gr.F != nil {
			t.Errorf("%s: features without asking", gr.Name)
		}
	}
}

func TestReadTUFeatures(t *testing.T) {
	fsys := tuTinyFS(t)
	ds, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: FeaturesLabels})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ds.NodeLabels, []int{3, 5, 7}) {
		t.Errorf("node label values %v, want [3 5 7]", ds.NodeLabels)
	}
	// Node labels 7,3,3 | 5,7 | 3,3,5,7 one-hot over the sorted values 3, 5, 7.
	wantF := [][]float64{
		{0, 0, 1, 1, 0, 0, 1, 0, 0},
		{0, 1, 0, 0, 0, 1},
		{1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1},
	}
	if !slices.Equal(ds.Offered, []FeatureKind{FeaturesLabels, FeaturesAttributes}) {
		t.Errorf("offered %v, want [labels attributes]", ds.Offered)
	}
	for g, gr := range ds.Graphs {
		if gr.Dim() != 3 {
			t.Fatalf("%s: one-hot width %d, want 3", gr.Name, gr.Dim())
		}
		if got := tuDense(gr.F); !slices.Equal(got, wantF[g]) {
			t.Errorf("%s: F = %v, want %v", gr.Name, got, wantF[g])
		}
	}

	ds, err = ReadTU(fsys, "TINY", "TINY", TUOptions{Features: FeaturesAttributes, DegreeMu: true})
	if err != nil {
		t.Fatal(err)
	}
	wantA := [][]float64{
		{1.5, -2, 10.25, 0, 0, 3},
		{-1, 100.5, 2, 2},
		{0.125, 0.25, 4, -4, 5.5, 6.5, 7, 8},
	}
	for g, gr := range ds.Graphs {
		if got := tuDense(gr.F); !slices.Equal(got, wantA[g]) {
			t.Errorf("%s: F = %v, want %v", gr.Name, got, wantA[g])
		}
		if !slices.Equal(gr.Mu, DegreeMu(gr.A)) {
			t.Errorf("%s: mu %v, want DegreeMu", gr.Name, gr.Mu)
		}
	}
	// Each F is a window on one buffer; writing one graph's features must not touch another's.
	ds.Graphs[0].F.Set(2, 1, 42)
	if got := ds.Graphs[1].F.At(0, 0); got != -1 {
		t.Errorf("graph 2 feature changed to %v by a write to graph 1", got)
	}
}

func TestReadTUGzip(t *testing.T) {
	plain := tuTinyFS(t)
	want, err := ReadTU(plain, "TINY", "TINY", TUOptions{Features: FeaturesAttributes})
	if err != nil {
		t.Fatal(err)
	}
	gz := fstest.MapFS{}
	for p, f := range plain {
		gz[p+".gz"] = &fstest.MapFile{Data: tuGzip(t, f.Data)}
	}
	got, err := ReadTU(gz, "TINY", "TINY", TUOptions{Features: FeaturesAttributes})
	if err != nil {
		t.Fatal(err)
	}
	for g := range want.Graphs {
		if !mat.Equal(got.Graphs[g].Dense(), want.Graphs[g].Dense()) || !mat.Equal(got.Graphs[g].F, want.Graphs[g].F) {
			t.Errorf("graph %d differs between plain and gzip files", g+1)
		}
	}

	// With both present the plain file wins: a broken .gz next to it is never opened.
	mixed := tuTinyFS(t)
	mixed["TINY/TINY_A.txt.gz"] = &fstest.MapFile{Data: []byte("not gzip")}
	if _, err := ReadTU(mixed, "TINY", "TINY", TUOptions{}); err != nil {
		t.Errorf("plain file not preferred over .gz: %v", err)
	}
}

func TestReadTUTruncatedGzip(t *testing.T) {
	// A valid indicator of many lines, so that the cuts fall inside the deflate data as well as in the
	// 8-byte gzip trailer. The reader fails before it could check the line count.
	var long strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&long, "%d\n", 1+i/7)
	}
	z := tuGzip(t, []byte(long.String()))
	for _, cut := range []int{len(z) / 2, len(z) - 6} {
		fsys := tuTinyFS(t)
		delete(fsys, "TINY/TINY_graph_indicator.txt")
		fsys["TINY/TINY_graph_indicator.txt.gz"] = &fstest.MapFile{Data: z[:cut]}
		_, err := ReadTU(fsys, "TINY", "TINY", TUOptions{})
		if err == nil {
			t.Fatalf("cut at %d of %d bytes: no error", cut, len(z))
		}
		t.Log(err)
		if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "TINY/TINY_graph_indicator.txt.gz") {
			t.Errorf("error %q: want io.ErrUnexpectedEOF naming the file", err)
		}
	}

	// A flipped bit of the CRC in the trailer: all lines decompress, the checksum fails.
	bad := slices.Clone(z)
	bad[len(bad)-8] ^= 1
	fsys := tuTinyFS(t)
	delete(fsys, "TINY/TINY_graph_indicator.txt")
	fsys["TINY/TINY_graph_indicator.txt.gz"] = &fstest.MapFile{Data: bad}
	if _, err := ReadTU(fsys, "TINY", "TINY", TUOptions{}); !errors.Is(err, gzip.ErrChecksum) {
		t.Errorf("error %v: want gzip.ErrChecksum", err)
	}
}

func TestReadTUErrors(t *testing.T) {
	const (
		fA    = "TINY/TINY_A.txt"
		fInd  = "TINY/TINY_graph_indicator.txt"
		fGL   = "TINY/TINY_graph_labels.txt"
		fNL   = "TINY/TINY_node_labels.txt"
		fAttr = "TINY/TINY_node_attributes.txt"
	)
	indicator := "1\n1\n1\n2\n2\n3\n3\n3\n3\n"
	for _, tc := range []struct {
		name     string
		file     string // replaced (or deleted, when data is "-")
		data     string
		features FeatureKind
		want     []string // substrings of the error
	}{
		{"A one field", fA, "1, 2\n3\n", FeaturesNone, []string{fA + ":2:", "1 comma-separated fields, want 2"}},
		{"A three fields", fA, "1, 2, 3\n", FeaturesNone, []string{fA + ":1:", "3 comma-separated fields"}},
		{"A non-numeric", fA, "1, 2\n2, x\n", FeaturesNone, []string{fA + ":2:", `field 2 ("x") is not an integer`}},
		{"A node zero", fA, "0, 1\n", FeaturesNone, []string{fA + ":1:", "node id 0 out of range 1..9"}},
		{"A node too big", fA, "1, 2\n9, 10\n", FeaturesNone, []string{fA + ":2:", "node id 10 out of range 1..9"}},
		{"A crosses graphs", fA, "1, 2\n3, 4\n", FeaturesNone, []string{fA + ":2:", "crosses graphs", "graph 1", "graph 2"}},
		{"A empty line inside", fA, "1, 2\n\n2, 1\n", FeaturesNone, []string{fA + ":2:", "empty line"}},
		{"indicator unsorted", fInd, "1\n1\n2\n1\n2\n3\n3\n3\n3\n", FeaturesNone, []string{fInd + ":4:", "not sorted"}},
		{"indicator gap", fInd, "1\n1\n1\n3\n3\n3\n3\n3\n3\n", FeaturesNone, []string{fInd + ":4:", "graph 2 has no nodes"}},
		{"indicator starts at 2", fInd, "2\n2\n", FeaturesNone, []string{fInd + ":1:", "graph 1 has no nodes"}},
		{"indicator zero", fInd, "0\n1\n", FeaturesNone, []string{fInd + ":1:", "graph id 0"}},
		{"indicator non-numeric", fInd, "1\n1.5\n", FeaturesNone, []string{fInd + ":2:", "not an integer"}},
		{"indicator empty", fInd, "", FeaturesNone, []string{fInd + ":1:", "empty"}},
		{"graph labels too few", fGL, "2\n-1\n", FeaturesNone, []string{fGL + ":3:", "2 graph labels for the 3 graphs"}},
		{"graph labels too many", fGL, "2\n-1\n2\n1\n", FeaturesNone, []string{fGL + ":4:", "more graph labels than the 3 graphs"}},
		{"graph labels two columns", fGL, "2\n-1, 1\n2\n", FeaturesNone, []string{fGL + ":2:", "2 comma-separated fields, want 1"}},
		{"indicator missing", fInd, "-", FeaturesNone, []string{"missing file " + fInd}},
		{"node labels too few", fNL, "1\n2\n", FeaturesLabels, []string{fNL + ":3:", "2 node labels for the 9 nodes"}},
		{"node labels too many", fNL, strings.Repeat("1\n", 10), FeaturesLabels, []string{fNL + ":10:", "more node labels"}},
		{"node labels non-numeric", fNL, "1\nC\n", FeaturesLabels, []string{fNL + ":2:", `("C") is not an integer`}},
		{"attributes width varies", fAttr, "1,2\n3,4\n5\n", FeaturesAttributes, []string{fAttr + ":3:", "1 attributes, but line 1 has 2"}},
		{"attributes non-numeric", fAttr, "1,2\n3,abc\n", FeaturesAttributes, []string{fAttr + ":2:", `attribute 2 ("abc") is not a number`}},
		{"attributes empty field", fAttr, "1,2\n3,\n", FeaturesAttributes, []string{fAttr + ":2:", `attribute 2 ("") is not a number`}},
		{"attributes NaN", fAttr, "1,2\nNaN,4\n", FeaturesAttributes, []string{fAttr + ":2:", "attribute 1 is NaN"}},
		{"attributes Inf", fAttr, "1,2\n3, -Inf\n", FeaturesAttributes, []string{fAttr + ":2:", "attribute 2 is -Inf"}},
		{"attributes past MaxValue", fAttr, "1,2\n3, -1e200\n", FeaturesAttributes, []string{fAttr + ":2:", "attribute 2 is -1e+200, larger in magnitude than 1e+100"}},
		{"attributes too few", fAttr, "1,2\n3,4\n", FeaturesAttributes, []string{fAttr + ":3:", "2 attribute lines for the 9 nodes"}},
		{"attributes too many", fAttr, strings.Repeat("1,2\n", 10), FeaturesAttributes, []string{fAttr + ":10:", "more attribute lines"}},
		{"line too long", fA, "1, 2\n" + strings.Repeat(" ", tuMaxLine+1) + "\n", FeaturesNone, []string{fA + ":2:", "line longer than"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := tuTinyFS(t)
			if tc.file != fInd || tc.data == "-" {
				fsys[fInd] = &fstest.MapFile{Data: []byte(indicator)}
			}
			if tc.data == "-" {
				delete(fsys, tc.file)
			} else {
				fsys[tc.file] = &fstest.MapFile{Data: []byte(tc.data)}
			}
			_, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: tc.features})
			if err == nil {
				t.Fatal("no error")
			}
			t.Log(err)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestReadTUTrailingBlankLines(t *testing.T) {
	fsys := tuTinyFS(t)
	fsys["TINY/TINY_graph_labels.txt"] = &fstest.MapFile{Data: []byte("2\r\n-1\r\n 2 \r\n\n\n")}
	ds, err := ReadTU(fsys, "TINY", "TINY", TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Graphs) != 3 || !slices.Equal(ds.Classes, []int{-1, 2}) {
		t.Errorf("got %d graphs, classes %v", len(ds.Graphs), ds.Classes)
	}
}

func TestReadTUMissingFeatures(t *testing.T) {
	fsys := tuTinyFS(t)
	delete(fsys, "TINY/TINY_node_attributes.txt")
	_, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: FeaturesAttributes})
	if err == nil || !strings.Contains(err.Error(), "TINY_node_attributes.txt") || !strings.Contains(err.Error(), "has node features: labels") {
		t.Errorf("error %v: want one naming the attributes file and listing labels", err)
	}
	// What is offered is reported whatever is read.
	ds, err := ReadTU(fsys, "TINY", "TINY", TUOptions{})
	if err != nil || !slices.Equal(ds.Offered, []FeatureKind{FeaturesLabels}) {
		t.Errorf("offered %v (%v), want [labels]", ds.Offered, err)
	}
	delete(fsys, "TINY/TINY_node_labels.txt")
	if ds, err = ReadTU(fsys, "TINY", "TINY", TUOptions{}); err != nil || ds.Offered != nil {
		t.Errorf("offered %v (%v), want none", ds.Offered, err)
	}
	_, err = ReadTU(fsys, "TINY", "TINY", TUOptions{Features: FeaturesLabels})
	if err == nil || !strings.Contains(err.Error(), `only "none"`) {
		t.Errorf("error %v: want one saying only none works", err)
	}
	if _, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: FeatureKind(9)}); err == nil {
		t.Error("no error for an unknown feature kind")
	}
}

func TestReadTULimits(t *testing.T) {
	fsys := tuTinyFS(t)
	_, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Limits: Limits{MaxNodes: 2}})
	if err == nil || !strings.Contains(err.Error(), "TINY#1 (lines 1-3): 3 nodes exceed the limit of 2") ||
		!strings.Contains(err.Error(), "raise Limits.MaxNodes") {
		t.Errorf("error %v: want graph 1 refused, saying how to raise the limit", err)
	}
	// 9 nodes in graphs of 3, 2 and 4 cost 8·(2·9+3) = 168 bytes (distributions and row
	// pointers), and each of the 12 adjacency lines tuBytesPerEdge while reading; d features
	// 8·9·d more.
	atLimit := int64(168 + 12*tuBytesPerEdge)
	if _, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Limits: Limits{MaxDenseBytes: atLimit}}); err != nil {
		t.Errorf("exactly at the limit: %v", err)
	}
	_, err = ReadTU(fsys, "TINY", "TINY", TUOptions{Limits: Limits{MaxDenseBytes: atLimit - 1}})
	if err == nil || !strings.Contains(err.Error(), "edge lines") || !strings.Contains(err.Error(), "raise Limits.MaxDenseBytes") {
		t.Errorf("error %v: want the adjacency refused, saying how to raise the limit", err)
	}
	for _, f := range []FeatureKind{FeaturesLabels, FeaturesAttributes} {
		full, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: f})
		if err != nil {
			t.Fatal(err)
		}
		d := int64(full.Graphs[0].Dim())
		_, err = ReadTU(fsys, "TINY", "TINY", TUOptions{Features: f, Limits: Limits{MaxDenseBytes: 168 + 8*9*d - 1}})
		if err == nil || !strings.Contains(err.Error(), "feature matrices") || !strings.Contains(err.Error(), "raise Limits.MaxDenseBytes") {
			t.Errorf("%v: error %v: want the features refused", f, err)
		}
		if _, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Features: f, Limits: Limits{MaxDenseBytes: atLimit + 8*9*d}}); err != nil {
			t.Errorf("%v: exactly at the limit: %v", f, err)
		}
	}
	// A graph is refused when its dense matrices, as a solver's worker holds them, exceed the
	// limit, although it is stored sparse: 4 nodes need 128 bytes.
	_, err = ReadTU(fsys, "TINY", "TINY", TUOptions{Limits: Limits{MaxDenseBytes: 127}})
	if err == nil || !strings.Contains(err.Error(), "TINY#3") || !strings.Contains(err.Error(), "dense matrices") {
		t.Errorf("error %v: want graph 3 refused for its dense matrices", err)
	}

	// One graph of 200,000 nodes would need 320 GB of adjacency; the refusal must come from the
	// sizes alone. The allocation bound is far above the reader's bookkeeping and far below
	// the matrix.
	big := fstest.MapFS{
		"BIG_A.txt":               {Data: []byte("1, 2\n")},
		"BIG_graph_indicator.txt": {Data: bytes.Repeat([]byte("1\n"), 200_000)},
		"BIG_graph_labels.txt":    {Data: []byte("0\n")},
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = ReadTU(big, ".", "BIG", TUOptions{Limits: Limits{MaxNodes: 1 << 30}})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "raise Limits.MaxDenseBytes") {
		t.Errorf("error %v: want the big graph refused", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("refusing the big graph allocated %d bytes", alloc)
	}
}

func TestReadTUPathFolderNames(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadTUPath(dir, TUOptions{}); err == nil || !strings.Contains(err.Error(), "no NAME_A.txt") {
		t.Errorf("empty folder: error %v", err)
	}
	for _, name := range []string{"X_A.txt", "Y_A.txt.gz"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ReadTUPath(dir, TUOptions{}); err == nil || !strings.Contains(err.Error(), "several datasets (X, Y)") {
		t.Errorf("two datasets: error %v", err)
	}
	// Several datasets, one named like the folder: that one is read (and fails on its missing
	// files, which shows which was picked).
	named := filepath.Join(dir, "X")
	if err := os.Mkdir(named, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"X_A.txt", "Y_A.txt"} {
		if err := os.WriteFile(filepath.Join(named, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ReadTUPath(named, TUOptions{}); err == nil || !strings.Contains(err.Error(), "missing file "+filepath.Join(named, "X_graph_indicator.txt")) {
		t.Errorf("folder named like a dataset: error %v", err)
	}
	// Errors of ReadTUPath name the files by their OS path.
	_, err := ReadTUPath(filepath.Join("testdata", "tu", "TINY"), TUOptions{Limits: Limits{MaxNodes: 2}})
	if want := filepath.Join("testdata", "tu", "TINY", "TINY_graph_indicator.txt") + ":1:"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v does not mention %q", err, want)
	}
}

func TestParseFeatureKind(t *testing.T) {
	for _, k := range []FeatureKind{FeaturesNone, FeaturesLabels, FeaturesAttributes, FeaturesBoth, FeaturesDegrees} {
		got, err := ParseFeatureKind(strings.ToUpper(k.String()))
		if err != nil || got != k {
			t.Errorf("ParseFeatureKind(%q) = %v, %v", k.String(), got, err)
		}
	}
	if _, err := ParseFeatureKind("onehot"); err == nil || !strings.Contains(err.Error(), "none, labels, attributes, both or degrees") {
		t.Errorf("error %v", err)
	}
	if s := FeatureKind(7).String(); s != "FeatureKind(7)" {
		t.Errorf("String of an unknown kind: %q", s)
	}
}

// tuBombFS is TINY with one file replaced by a gzip stream that decompresses to size bytes of
// the repeated line (about 1000 times smaller compressed).
func tuBombFS(t *testing.T, suffix, line string, size int) fstest.MapFS {
	t.Helper()
	fsys := tuTinyFS(t)
	delete(fsys, "TINY/TINY"+suffix+".txt")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	chunk := []byte(strings.Repeat(line, 1<<16/len(line)))
	for written := 0; written < size; written += len(chunk) {
		if _, err := zw.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	fsys["TINY/TINY"+suffix+".txt.gz"] = &fstest.MapFile{Data: buf.Bytes()}
	return fsys
}

// TestReadTUGzipBombs: compressed files that expand to a graph over the limits, to more graphs
// than the limits allow or to endless empty lines are refused (the last two at the line that
// crosses the limit, long before their end; each
// decompresses to 16 MB, read only up to that line).
func TestReadTUGzipBombs(t *testing.T) {
	const size = 16 << 20
	for name, c := range map[string]struct {
		suffix, line string
		lim          Limits
		want         string
	}{
		"one huge graph":      {"_graph_indicator", "1\n", Limits{}, "nodes exceed the limit of 5000"},
		"many graphs":         {"_graph_indicator", "", Limits{MaxDenseBytes: 1 << 20}, "TINY_graph_indicator.txt.gz:43691: more than 43690 graphs"},
		"endless empty lines": {"_graph_labels", "\n", Limits{}, "more than 65536 empty lines"},
	} {
		start := time.Now()
		var fsys fstest.MapFS
		if c.line == "" {
			// Graph ids 1, 2, 3, …: one node each, so the adjacency bytes grow by 8 a line.
			var b strings.Builder
			for i := 1; i <= 1<<18; i++ {
				fmt.Fprintf(&b, "%d\n", i)
			}
			fsys = tuTinyFS(t)
			delete(fsys, "TINY/TINY_graph_indicator.txt")
			fsys["TINY/TINY_graph_indicator.txt.gz"] = &fstest.MapFile{Data: tuGzip(t, []byte(b.String()))}
		} else {
			fsys = tuBombFS(t, c.suffix, c.line, size)
		}
		_, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Limits: c.lim})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s: refused after %v", name, d)
		}
	}
}

// TestReadTUStoresSparse: 200 ring graphs of 200 nodes would need 64 MB as dense matrices; stored
// sparse they are read under an 8 MB limit (each graph's own dense matrix, 320 KB, fits it) and
// the read allocates far less than the dense matrices would take.
func TestReadTUStoresSparse(t *testing.T) {
	const graphs, nodes = 200, 200
	var ind, adj, labels bytes.Buffer
	for g := 0; g < graphs; g++ {
		fmt.Fprintf(&labels, "%d\n", g%2)
		for i := 0; i < nodes; i++ {
			fmt.Fprintf(&ind, "%d\n", g+1)
			u, v := g*nodes+i+1, g*nodes+(i+1)%nodes+1
			fmt.Fprintf(&adj, "%d, %d\n%d, %d\n", u, v, v, u)
		}
	}
	fsys := fstest.MapFS{
		"RING_A.txt":               {Data: adj.Bytes()},
		"RING_graph_indicator.txt": {Data: ind.Bytes()},
		"RING_graph_labels.txt":    {Data: labels.Bytes()},
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ds, err := ReadTU(fsys, ".", "RING", TUOptions{Limits: Limits{MaxDenseBytes: 8 << 20}})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Graphs) != graphs || ds.Graphs[7].A.NNZ() != 2*nodes || ds.Graphs[7].A.At(0, nodes-1) != 1 {
		t.Fatalf("%d graphs, graph 8 has %d entries", len(ds.Graphs), ds.Graphs[7].A.NNZ())
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
		t.Errorf("reading allocated %d bytes, about as much as the dense matrices (64 MB)", alloc)
	}
	var held int64
	for _, g := range ds.Graphs {
		held += g.Bytes()
	}
	if held > 2<<20 {
		t.Errorf("the graphs hold %d bytes", held)
	}
}
