package graphs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestReadEdgeList(t *testing.T) {
	cases := []struct {
		name string
		in   string
		opt  EdgeListOptions
		want []float64 // row-major adjacency
	}{
		{"undirected", "0 1\n1 2\n", EdgeListOptions{}, []float64{
			0, 1, 0,
			1, 0, 1,
			0, 1, 0,
		}},
		{"directed", "0 1\n1 2\n", EdgeListOptions{Directed: true}, []float64{
			0, 1, 0,
			0, 0, 1,
			0, 0, 0,
		}},
		{"comments weights blanks", "# header\n\n  0\t1 2.5  # trailing\n   \n# 5 5\n2 1 0.5\r\n", EdgeListOptions{}, []float64{
			0, 2.5, 0,
			2.5, 0, 0.5,
			0, 0.5, 0,
		}},
		{"self-loop", "0 0 3\n0 1\n", EdgeListOptions{}, []float64{
			3, 1,
			1, 0,
		}},
		{"later weight wins undirected", "0 1 2\n1 0 5\n", EdgeListOptions{}, []float64{
			0, 5,
			5, 0,
		}},
		{"later weight wins directed", "0 1 2\n1 0 5\n0 1 7\n", EdgeListOptions{Directed: true}, []float64{
			0, 7,
			5, 0,
		}},
		{"isolated trailing nodes", "0 1\n", EdgeListOptions{Nodes: 3}, []float64{
			0, 1, 0,
			1, 0, 0,
			0, 0, 0,
		}},
		{"no edges with node count", "# nothing\n", EdgeListOptions{Nodes: 2}, []float64{
			0, 0,
			0, 0,
		}},
		{"zero weight and no final newline", "0 2 0\n1 0", EdgeListOptions{}, []float64{
			0, 1, 0,
			1, 0, 0,
			0, 0, 0,
		}},
		// networkx's write_edgelist writes each edge's attribute dict.
		{"networkx attribute dicts", "0 1 {}\n1 2 {'weight': 2.5, 'color': 'red'}\n2 0\t{\"weight\": 0.5}  # c\n", EdgeListOptions{}, []float64{
			0, 1, 0.5,
			1, 0, 2.5,
			0.5, 2.5, 0,
		}},
		{"networkx dict with spaces, # and nesting", "0 1 {'note': \"it's #1, {x}: [y]\", 'l': [1, {'a': (2, 3)}], 'weight': 3,}\n", EdgeListOptions{}, []float64{
			0, 3,
			3, 0,
		}},
		{"networkx dict with a numpy weight", "0 1 {'weight': np.float64(1e-05)}\n", EdgeListOptions{}, []float64{
			0, 1e-05,
			1e-05, 0,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadEdgeList(strings.NewReader(tc.in), "e.txt", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			n := g.N()
			if n*n != len(tc.want) || !mat.Equal(g.Dense(), mat.NewDense(n, n, tc.want)) {
				t.Errorf("C =\n%v\nwant %v", mat.Formatted(g.Dense()), tc.want)
			}
			if g.Name != "e.txt" || g.F != nil || g.Validate() != nil {
				t.Errorf("Name %q, F %v, Validate %v", g.Name, g.F, g.Validate())
			}
		})
	}
}

func TestReadFileEdgeList(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.edges")
	if err := os.WriteFile(path, []byte("0 1\n1 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path, FileOptions{})
	if err == nil || !strings.Contains(err.Error(), path+":2:") {
		t.Errorf("got %v, want an error at %s:2", err, path)
	}
	if _, err := ReadFile(path+".missing", FileOptions{}); err == nil || !strings.Contains(err.Error(), "g.edges.missing") {
		t.Errorf("missing file: %v", err)
	}
}

func TestReadEdgeListErrors(t *testing.T) {
	cases := []struct {
		name string
		in   string
		opt  EdgeListOptions
		want string // after the name
	}{
		{"one field beyond the nodes", "0 1\n# c\n2\n", EdgeListOptions{Nodes: 2}, ":3: node id 2"},
		{"four fields", "0 1 1 1\n", EdgeListOptions{}, ":1: 4 fields, want 1 to 3"},
		{"non-integer id", "0 1\na 1\n", EdgeListOptions{}, `:2: node id "a" is not an integer`},
		{"fractional id", "1.5 2\n", EdgeListOptions{}, `:1: node id "1.5" is not an integer`},
		{"negative id", "\n0 -1\n", EdgeListOptions{}, ":2: node id -1 is negative"},
		{"hugely negative id", "-99999999999999999999 0\n", EdgeListOptions{}, ":1: node id -99999999999999999999 is negative"},
		{"id beyond Nodes", "0 1\n1 3\n", EdgeListOptions{Nodes: 3}, ":2: node id 3 is out of range for 3 nodes"},
		{"bad weight", "0 1 heavy\n", EdgeListOptions{}, `:1: weight "heavy" is not a number`},
		{"negative weight", "0 1\n0 1 -2\n", EdgeListOptions{}, `:2: weight "-2" is not a finite non-negative number`},
		{"NaN weight", "0 1 NaN\n", EdgeListOptions{}, `:1: weight "NaN" is not a finite`},
		{"Inf weight", "0 1 +Inf\n", EdgeListOptions{}, `:1: weight "+Inf" is not a finite`},
		{"overflowing weight", "0 1 1e999\n", EdgeListOptions{}, `:1: weight "1e999" is not a finite`},
		{"empty input", "", EdgeListOptions{}, ": invalid graph: no edges"},
		{"only comments", "# a\n\n  # b\n", EdgeListOptions{}, ": invalid graph: no edges"},
		{"id over the node limit", "0 1\n0 1000000000000\n", EdgeListOptions{}, ":2: node id 1000000000000: 1000000000001 nodes exceed the limit of 5000"},
		{"id over int64", "0 99999999999999999999999\n", EdgeListOptions{}, ":1: node id 99999999999999999999999 is far beyond the limit of 5000 nodes"},
		{"id over a small limit", "0 1\n1 2\n", EdgeListOptions{Limits: Limits{MaxNodes: 2}}, ":2: node id 2: 3 nodes exceed the limit of 2"},
		{"dense bytes", "0 3\n", EdgeListOptions{Limits: Limits{MaxDenseBytes: 100}}, ":1: a graph of 4 nodes and 0 features needs 128 bytes"},
		{"Nodes over the limit", "0 1\n", EdgeListOptions{Nodes: 1 << 40}, ": 1099511627776 nodes exceed the limit of 5000"},
		{"negative Nodes", "0 1\n", EdgeListOptions{Nodes: -1}, ": EdgeListOptions.Nodes = -1 is negative"},
		{"line too long", "0 1\n" + strings.Repeat(" ", edgeListMaxLine+1) + "\n", EdgeListOptions{}, ":2: line longer than"},
		{"dict weight not a number", "0 1 {'weight': 'heavy'}\n", EdgeListOptions{}, `:1: weight "'heavy'" is not a number`},
		{"dict negative weight", "0 1 {}\n0 1 {'weight': -1}\n", EdgeListOptions{}, `:2: weight "-1" is not a finite non-negative number`},
		{"dict infinite weight", "0 1 {'weight': inf}\n", EdgeListOptions{}, `:1: weight "inf" is not a finite`},
		{"dict not closed", "0 1 {'weight': 2\n", EdgeListOptions{}, ":1: attribute dict: "},
		{"dict string not closed", "0 1 {'a: 1}\n", EdgeListOptions{}, ":1: attribute dict: string not closed"},
		{"dict brackets", "0 1 {'a': (1]}\n", EdgeListOptions{}, `:1: attribute dict: ']' where ')' was expected`},
		{"dict key without value", "0 1 {'a' 1}\n", EdgeListOptions{}, ":1: attribute dict: key 'a' 1 without a value"},
		{"text after dict", "0 1 {} x\n", EdgeListOptions{}, `:1: attribute dict: "x" after the dict`},
		{"weight and dict", "0 1 2 {}\n", EdgeListOptions{}, ":1: 4 fields, want 1 to 3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadEdgeList(strings.NewReader(tc.in), "bad.edges", tc.opt)
			if err == nil {
				t.Fatalf("accepted: %v", mat.Formatted(g.Dense()))
			}
			if !strings.Contains(err.Error(), "bad.edges"+tc.want) {
				t.Errorf("error %q lacks %q", err, "bad.edges"+tc.want)
			}
		})
	}
}

// edgeListFailing fails with errEdgeListRead after handing out its text.
type edgeListFailing struct{ text string }

var errEdgeListRead = errors.New("disk on fire")

func (f *edgeListFailing) Read(p []byte) (int, error) {
	if f.text == "" {
		return 0, errEdgeListRead
	}
	n := copy(p, f.text)
	f.text = f.text[n:]
	return n, nil
}

func TestReadEdgeListReadError(t *testing.T) {
	// The cut-off last line "1 x" must not be reported as a bad id: the read error is the cause.
	_, err := ReadEdgeList(&edgeListFailing{text: "0 1\n1 x"}, "cut.edges", EdgeListOptions{})
	if !errors.Is(err, errEdgeListRead) || !strings.Contains(err.Error(), "cut.edges: after line") {
		t.Errorf("got %v, want the read error", err)
	}
}

func TestReadEdgeListHugeIDNoAllocation(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadEdgeList(strings.NewReader("0 1\n1 999999999999\n"), "huge.edges", EdgeListOptions{})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "huge.edges:2:") {
		t.Fatalf("got %v, want a limit error at line 2", err)
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
		t.Errorf("refusing the id allocated %d bytes", d)
	}
	// The same with a claimed node count and no lines to read.
	runtime.ReadMemStats(&before)
	_, err = ReadEdgeList(io.MultiReader(), "huge.edges", EdgeListOptions{Nodes: 1e12})
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("a claimed node count of 1e12 was accepted")
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
		t.Errorf("refusing Nodes allocated %d bytes", d)
	}
}

// TestReadEdgeListOneBased: a 1-based file read as 0-based would gain an isolated node 0; it
// is refused with a message saying so, and reads as intended with OneBased or NodeNames ids.
func TestReadEdgeListOneBased(t *testing.T) {
	const in = "1 2\n2 3\n"
	_, err := ReadEdgeList(strings.NewReader(in), "one.txt", EdgeListOptions{})
	if err == nil || !strings.Contains(err.Error(), "one.txt: no edge has node 0") || !strings.Contains(err.Error(), "1-based") {
		t.Fatalf("0-based read of a 1-based file: error %v", err)
	}
	// An explicit node count keeps the isolated node 0, as asked.
	g, err := ReadEdgeList(strings.NewReader(in), "one.txt", EdgeListOptions{Nodes: 4})
	if err != nil || g.N() != 4 {
		t.Fatalf("with Nodes 4: %v", err)
	}
	path := mat.NewDense(3, 3, []float64{0, 1, 0, 1, 0, 1, 0, 1, 0})
	for _, ids := range []EdgeIDs{OneBased, NodeNames} {
		g, err := ReadEdgeList(strings.NewReader(in), "one.txt", EdgeListOptions{IDs: ids})
		if err != nil {
			t.Fatalf("IDs %d: %v", ids, err)
		}
		if !mat.Equal(g.Dense(), path) {
			t.Errorf("IDs %d: C =\n%v", ids, mat.Formatted(g.Dense()))
		}
	}
	for _, tc := range []struct {
		in, want string
		opt      EdgeListOptions
	}{
		{"0 1\n", "node id 0 is below 1 (ids are 1-based)", EdgeListOptions{IDs: OneBased}},
		{"1 4\n", "node id 4 is out of range for 3 nodes", EdgeListOptions{IDs: OneBased, Nodes: 3}},
		{"a b\n", "Nodes must be 0 with NodeNames", EdgeListOptions{IDs: NodeNames, Nodes: 2}},
		{"a b\nc d\n", `node "c": 3 nodes exceed the limit of 2`, EdgeListOptions{IDs: NodeNames, Limits: Limits{MaxNodes: 2}}},
		{"a b\n", "EdgeListOptions.IDs = 7", EdgeListOptions{IDs: 7}},
	} {
		if _, err := ReadEdgeList(strings.NewReader(tc.in), "bad.txt", tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q %+v: error %v, want %q", tc.in, tc.opt, err, tc.want)
		}
	}
}

func TestReadEdgeListNames(t *testing.T) {
	// String names in order of first appearance; the weight of the later line wins.
	g, err := ReadEdgeList(strings.NewReader("bob alice 2\nalice carol\n# x y\ncarol bob 0.5\n"), "n.txt", EdgeListOptions{IDs: NodeNames})
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(3, 3, []float64{
		0, 2, 0.5, // bob
		2, 0, 1, // alice
		0.5, 1, 0, // carol
	})
	if !mat.Equal(g.Dense(), want) {
		t.Errorf("C =\n%v", mat.Formatted(g.Dense()))
	}
	// Integer names are ordered by value, whatever order they appear in, with gaps closed.
	g, err = ReadEdgeList(strings.NewReader("30 10\n10 20\n"), "n.txt", EdgeListOptions{IDs: NodeNames, Directed: true})
	if err != nil {
		t.Fatal(err)
	}
	want = mat.NewDense(3, 3, []float64{
		0, 1, 0, // 10
		0, 0, 0, // 20
		1, 0, 0, // 30
	})
	if !mat.Equal(g.Dense(), want) {
		t.Errorf("integer names: C =\n%v", mat.Formatted(g.Dense()))
	}
}

// TestReadEdgeListRepeatedEdges: repeated pairs are merged as the file is read (the last
// line of each pair wins, as without merging), so a file that repeats a few edges a million
// times holds a few edges, not a million.
func TestReadEdgeListRepeatedEdges(t *testing.T) {
	const reps = 200_000
	var b strings.Builder
	for i := range reps {
		fmt.Fprintf(&b, "0 1 %d\n1 0 2\n2 %d\n", i%7, i%3)
	}
	b.WriteString("0 1 5\n")
	text := b.String()
	g, err := ReadEdgeList(strings.NewReader(text), "rep.edges", EdgeListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(3, 3, []float64{0, 5, 1, 5, 0, 1, 1, 1, 1})
	if !mat.Equal(g.Dense(), want) {
		t.Errorf("undirected: %v", mat.Formatted(g.Dense()))
	}
	d, err := ReadEdgeList(strings.NewReader(text), "rep.edges", EdgeListOptions{Directed: true})
	if err != nil {
		t.Fatal(err)
	}
	want = mat.NewDense(3, 3, []float64{0, 5, 0, 2, 0, 0, 1, 1, 1})
	if !mat.Equal(d.Dense(), want) {
		t.Errorf("directed: %v", mat.Formatted(d.Dense()))
	}
	// The merge itself: one edge per pair, the last line's.
	edges := []edgeListEdge{{0, 1, 1}, {1, 0, 2}, {2, 2, 3}, {0, 1, 4}, {2, 2, 5}}
	got := compactEdges(slices.Clone(edges), false)
	if len(got) != 2 || got[0] != (edgeListEdge{0, 1, 4}) || got[1] != (edgeListEdge{2, 2, 5}) {
		t.Errorf("undirected merge: %v", got)
	}
	got = compactEdges(slices.Clone(edges), true)
	if len(got) != 3 || got[0] != (edgeListEdge{0, 1, 4}) || got[1] != (edgeListEdge{1, 0, 2}) {
		t.Errorf("directed merge: %v", got)
	}
}

// networkx's default edge lists ("u v {attributes}") of testdata/formats, read as a graph
// folder reads edge lists.
func TestReadEdgeListNetworkxFixtures(t *testing.T) {
	for _, want := range formatFixtures(t, ".edgelist") {
		g, err := ReadFile(filepath.Join(formatsDir, want.File), FileOptions{EdgeList: EdgeListOptions{IDs: NodeNames, Directed: want.Directed}})
		if err != nil {
			t.Fatal(err)
		}
		checkFixture(t, g, want, false)
	}
}

// TestReadEdgeListIsolatedNodes: a node on its own line is a node without edges, for every
// kind of id, in its place among the others.
func TestReadEdgeListIsolatedNodes(t *testing.T) {
	for _, c := range []struct {
		name, text string
		ids        EdgeIDs
		n          int
		isolated   int // the row with no entry
	}{
		{"zero-based", "0 1\n1 2\n3\n", ZeroBased, 4, 3},
		{"one-based", "1 2\n4\n2 3\n", OneBased, 4, 3},
		{"names", "a b\nc\nb d\n", NodeNames, 4, 2},
		{"numeric names", "10 20\n5\n", NodeNames, 3, 0},
		{"declared and in an edge", "0 1\n1\n", ZeroBased, 2, -1},
	} {
		g, err := ReadEdgeList(strings.NewReader(c.text), c.name, EdgeListOptions{IDs: c.ids})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if g.N() != c.n {
			t.Fatalf("%s: %d nodes, want %d", c.name, g.N(), c.n)
		}
		for v := range g.N() {
			cols, _ := g.A.Row(v)
			if (len(cols) == 0) != (v == c.isolated) {
				t.Errorf("%s: node %d has %d entries", c.name, v, len(cols))
			}
		}
	}
}
