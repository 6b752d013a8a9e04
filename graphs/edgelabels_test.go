package graphs

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// edgeTinyFS is TINY with an edge label per adjacency line: the repeated line "2, 3" (line 7)
// has another label than line 4, which must not win.
func edgeTinyFS(t *testing.T, labels string) fstest.MapFS {
	t.Helper()
	fsys := tuTinyFS(t)
	fsys["TINY/TINY_edge_labels.txt"] = &fstest.MapFile{Data: []byte(labels)}
	return fsys
}

const edgeTinyLabels = "0\n1\n0\n2\n1\n2\n9\n-1\n3\n3\n0\n0\n"

func TestReadTUEdgeLabels(t *testing.T) {
	fsys := edgeTinyFS(t, edgeTinyLabels)
	ds, err := ReadTU(fsys, "TINY", "TINY", TUOptions{EdgeLabels: true})
	if err != nil {
		t.Fatal(err)
	}
	if !ds.Encoding.EdgeLabels || slices.Contains(ds.Unread, "edge labels") {
		t.Errorf("encoding edge labels %v, unread %v: want read", ds.Encoding.EdgeLabels, ds.Unread)
	}
	c := EdgeLabelCode
	want := [][]float64{
		{0, c(0), c(1),
			c(0), 0, c(2),
			c(1), c(2), 0},
		{0, c(-1),
			0, 0},
		{0, c(3), 0, 0,
			c(3), 0, c(0), 0,
			0, c(0), 0, 0,
			0, 0, 0, 0},
	}
	for g, gr := range ds.Graphs {
		if gr.EdgeLabels == nil {
			t.Fatalf("%s: no edge labels", gr.Name)
		}
		if got := tuDense(gr.EdgeLabels.Dense()); !slices.Equal(got, want[g]) {
			t.Errorf("%s: edge labels %v, want %v", gr.Name, got, want[g])
		}
		if err := gr.Validate(); err != nil {
			t.Error(err)
		}
	}

	plain, err := ReadTU(fsys, "TINY", "TINY", TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Encoding.EdgeLabels || !slices.Contains(plain.Unread, "edge labels") || plain.Graphs[0].EdgeLabels != nil {
		t.Errorf("without the option: encoding %v, unread %v, labels %v", plain.Encoding.EdgeLabels, plain.Unread, plain.Graphs[0].EdgeLabels != nil)
	}

	// A dataset without the file reads without edge labels, and that is no error.
	none, err := ReadTU(tuTinyFS(t), "TINY", "TINY", TUOptions{EdgeLabels: true})
	if err != nil || none.Encoding.EdgeLabels || none.Graphs[0].EdgeLabels != nil {
		t.Errorf("no edge label file: %v, encoding %v", err, none != nil && none.Encoding.EdgeLabels)
	}

	// The kept graphs of a selection get their own lines' labels.
	sel, err := ReadTU(fsys, "TINY", "TINY", TUOptions{EdgeLabels: true, Select: func(int) []int { return []int{2} }})
	if err != nil {
		t.Fatal(err)
	}
	if got := tuDense(sel.Graphs[0].EdgeLabels.Dense()); !slices.Equal(got, want[2]) {
		t.Errorf("selected graph: edge labels %v, want %v", got, want[2])
	}
}

func TestReadTUEdgeLabelErrors(t *testing.T) {
	for _, tc := range []struct{ name, labels, want string }{
		{"short", "0\n1\n0\n", "no edge label for this line"},
		{"long", edgeTinyLabels + "4\n", "13 edge labels for the 12 lines"},
		{"text", strings.Replace(edgeTinyLabels, "9", "x", 1), "not an integer"},
		{"columns", "1,2\n" + strings.Repeat("1\n", 11), "want 2 as on the first line"},
		{"empty line", "0\n\n1\n", "empty line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTU(edgeTinyFS(t, tc.labels), "TINY", "TINY", TUOptions{EdgeLabels: true})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "TINY") {
				t.Errorf("error %v, want one naming the file and %q", err, tc.want)
			}
		})
	}
	// The memory limit counts the labels: a limit that the adjacency alone meets refuses them.
	fsys := edgeTinyFS(t, edgeTinyLabels)
	plain, err := ReadTU(fsys, "TINY", "TINY", TUOptions{Limits: Limits{MaxNodes: 10, MaxDenseBytes: 168 + 12*tuBytesPerEdge}})
	if err != nil {
		t.Fatalf("adjacency within the limit: %v", err)
	}
	_ = plain
	_, err = ReadTU(fsys, "TINY", "TINY", TUOptions{EdgeLabels: true, Limits: Limits{MaxNodes: 10, MaxDenseBytes: 168 + 12*tuBytesPerEdge}})
	if err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("edge labels over the limit: %v", err)
	}
}

// edgeGraph builds a graph from an undirected edge list with labels and node labels (one-hot
// over 2 values).
func edgeGraph(t *testing.T, n int, edges [][3]int, nodeLabels []int) *Graph {
	t.Helper()
	a := mat.NewDense(n, n, nil)
	e := mat.NewDense(n, n, nil)
	for _, uvl := range edges {
		u, v, l := uvl[0], uvl[1], uvl[2]
		a.Set(u, v, 1)
		a.Set(v, u, 1)
		e.Set(u, v, EdgeLabelCode(l))
		e.Set(v, u, EdgeLabelCode(l))
	}
	f := mat.NewDense(n, 2, nil)
	for v, l := range nodeLabels {
		f.Set(v, l, 1)
	}
	g, err := New("g", a, nil, f)
	if err != nil {
		t.Fatal(err)
	}
	if g.EdgeLabels, err = csr.FromDense(e); err != nil {
		t.Fatal(err)
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	return g
}

// partition is the equivalence of nodes by equal codes in column t: for each node, the
// smallest node with its code.
func partition(codes *mat.Dense, t int) []int {
	r, _ := codes.Dims()
	out := make([]int, r)
	for v := range r {
		for u := 0; u <= v; u++ {
			if codes.At(u, t) == codes.At(v, t) {
				out[v] = u
				break
			}
		}
	}
	return out
}

func TestWLCodesWithEdges(t *testing.T) {
	// A path 0-1-2 of one node label: with one edge single (0) and the other double (1), the
	// two ends differ after one iteration; plain WL cannot tell them apart.
	g := edgeGraph(t, 3, [][3]int{{0, 1, 0}, {1, 2, 1}}, []int{0, 0, 0})
	with, err := WLCodesWithEdges(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := WLCodes(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	if plain.At(0, 1) != plain.At(2, 1) || with.At(0, 1) == with.At(2, 1) {
		t.Errorf("ends of a path with two bond types: plain %v %v (want equal), with edges %v %v (want different)",
			plain.At(0, 1), plain.At(2, 1), with.At(0, 1), with.At(2, 1))
	}
	if with.At(0, 0) != plain.At(0, 0) {
		t.Error("iteration 0 depends on edge labels")
	}

	// One edge label everywhere refines as plain WL does (the same partition at every step).
	ring := [][3]int{{0, 1, 5}, {1, 2, 5}, {2, 3, 5}, {3, 4, 5}, {4, 0, 5}, {4, 5, 5}}
	r := edgeGraph(t, 6, ring, []int{0, 1, 0, 0, 1, 1})
	w, _ := WLCodesWithEdges(r, 3)
	p, _ := WLCodes(r, 3)
	for it := range 4 {
		if !slices.Equal(partition(w, it), partition(p, it)) {
			t.Errorf("iteration %d: partition %v with one edge label, %v plain", it, partition(w, it), partition(p, it))
		}
	}

	// Relabelling the nodes permutes the codes (the codes depend on the labelled graph alone).
	perm := []int{3, 5, 0, 1, 4, 2}
	var pe [][3]int
	for _, e := range [][3]int{{0, 1, 0}, {1, 2, 1}, {2, 3, 0}, {3, 4, 2}, {4, 0, 1}, {4, 5, 0}} {
		pe = append(pe, [3]int{perm[e[0]], perm[e[1]], e[2]})
	}
	nl := []int{0, 1, 0, 0, 1, 1}
	pnl := make([]int, 6)
	for v, l := range nl {
		pnl[perm[v]] = l
	}
	orig := edgeGraph(t, 6, [][3]int{{0, 1, 0}, {1, 2, 1}, {2, 3, 0}, {3, 4, 2}, {4, 0, 1}, {4, 5, 0}}, nl)
	moved := edgeGraph(t, 6, pe, pnl)
	a, _ := WLCodesWithEdges(orig, 3)
	b, _ := WLCodesWithEdges(moved, 3)
	for v := range 6 {
		if !slices.Equal(a.RawRowView(v), b.RawRowView(perm[v])) {
			t.Errorf("node %d: codes %v, its image %d has %v", v, a.RawRowView(v), perm[v], b.RawRowView(perm[v]))
		}
	}

	g.EdgeLabels = nil
	if _, err := WLCodesWithEdges(g, 1); err == nil {
		t.Error("no error without edge labels")
	}
}

func TestJSONEdgeLabels(t *testing.T) {
	g := edgeGraph(t, 3, [][3]int{{0, 1, 0}, {1, 2, 7}}, []int{0, 1, 0})
	var buf bytes.Buffer
	if err := WriteJSON(&buf, g); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(&buf, "g", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if back.EdgeLabels == nil || !mat.Equal(back.EdgeLabels.Dense(), g.EdgeLabels.Dense()) {
		t.Errorf("round trip lost the edge labels: %v", back.EdgeLabels)
	}
	for _, tc := range []struct{ text, want string }{
		{`{"adjacency": [[0, 1], [1, 0]], "edge_labels": [[0, 2], [0, 0]]}`, "exactly on the edges"},
		{`{"adjacency": [[0, 1], [1, 0]], "edge_labels": [[0, 2]]}`, "1 rows for 2 nodes"},
		{`{"adjacency": [[0, 1], [1, 0]], "edge_labels": [[0, 2], [3]]}`, "row 1 has 1 entries"},
	} {
		if _, err := ReadJSON(strings.NewReader(tc.text), "bad", Limits{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

func TestFolderEdgeLabels(t *testing.T) {
	files := map[string]string{}
	for i, edges := range [][][3]int{{{0, 1, 0}, {1, 2, 1}}, {{0, 1, 1}, {1, 2, 1}}} {
		var buf bytes.Buffer
		if err := WriteJSON(&buf, edgeGraph(t, 3, edges, []int{0, 0, 1})); err != nil {
			t.Fatal(err)
		}
		files[[]string{"a.json", "b.json"}[i]] = buf.String()
	}
	dir := writeFiles(t, files)
	ds, err := ReadFolder(dir, FolderOptions{EdgeLabels: true})
	if err != nil {
		t.Fatal(err)
	}
	if !ds.Encoding.EdgeLabels || !HasEdgeLabels(ds.Graphs) || len(ds.Unread) > 0 {
		t.Errorf("kept: encoding %v, graphs %v, unread %q", ds.Encoding.EdgeLabels, HasEdgeLabels(ds.Graphs), ds.Unread)
	}
	ds, err = ReadFolder(dir, FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Encoding.EdgeLabels || ds.Graphs[0].EdgeLabels != nil {
		t.Error("edge labels kept without the option")
	}
	if !slices.Equal(ds.Unread, []string{"edge labels"}) { // as a TU source says them
		t.Errorf("unread %q, want the edge labels", ds.Unread)
	}
}

// TestFolderLeftOut: edge labels that only some graphs of a folder have are left out, and node
// labels that some graphs lack entirely are kept; Dataset.LeftOut says each, naming a graph.
func TestFolderLeftOut(t *testing.T) {
	link := func(nodes, edge string) string {
		return `{"nodes": [` + nodes + `], "links": [{"source": 0, "target": 1` + edge + `}]}`
	}
	dir := writeFiles(t, map[string]string{
		"a.json": link(`{"id": 0, "element": "C"}, {"id": 1, "element": "O"}`, `, "label": 2`),
		"b.json": link(`{"id": 0}, {"id": 1}`, ``),
		"c.json": link(`{"id": 0, "element": "N"}, {"id": 1}`, `, "label": 1`),
	})
	ds, err := ReadFolder(dir, FolderOptions{Features: FeaturesLabels, EdgeLabels: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"edge labels left out: 2 of the 3 graphs have them, not b.json (they are compared where every graph has them)",
		"node labels missing: 1 of the 3 graphs have none, b.json first (their nodes match no label)",
	}
	if ds.Encoding.EdgeLabels || HasEdgeLabels(ds.Graphs[:1]) || !slices.Equal(ds.LeftOut, want) {
		t.Errorf("edge labels kept %v, left out %q; want %q", ds.Encoding.EdgeLabels, ds.LeftOut, want)
	}
	// Not asked for: nothing is said of edge labels, which not every graph has. A model's
	// columns that know none of c's labels: c has labels (unknown ones), so only b has none.
	ds, err = ReadFolder(dir, FolderOptions{Features: FeaturesLabels, NodeLabelNames: []string{"element=C"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := want[1:]; !slices.Equal(ds.LeftOut, want) || ds.UnknownNodeLabels != 2 || len(ds.Unread) > 0 {
		t.Errorf("left out %q, %d unknown; want %q, 2 (a's O, c's N)", ds.LeftOut, ds.UnknownNodeLabels, want)
	}
	var buf bytes.Buffer
	if err := WriteDescriptions(&buf, []Description{Describe(ds, "")}); err != nil || !strings.Contains(buf.String(), "\n"+filepath.Base(dir)+": node labels missing: 1 of the 3") {
		t.Errorf("description %q (%v)", buf.String(), err)
	}
}

func TestNodeLinkEdgeLabels(t *testing.T) {
	read := func(text string) *Graph {
		t.Helper()
		g, err := ReadNodeLink(strings.NewReader(text), "g.json", NodeLinkOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g := read(`{"directed": false, "multigraph": false, "graph": {}, "nodes": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
		"links": [{"source": "a", "target": "b", "label": 2}, {"source": "b", "target": "c", "label": "double"}, {"source": "a", "target": "c", "label": 2, "weight": 0}]}`)
	if g.EdgeLabels == nil {
		t.Fatal("no edge labels")
	}
	want := []float64{
		0, EdgeLabelCode(2), 0,
		EdgeLabelCode(2), 0, textLabelCode("double"),
		0, textLabelCode("double"), 0}
	if got := tuDense(g.EdgeLabels.Dense()); !slices.Equal(got, want) {
		t.Errorf("edge labels %v, want %v (the zero-weight link is no edge)", got, want)
	}
	if textLabelCode("double") >= 0 || textLabelCode("double") == textLabelCode("single") {
		t.Error("text codes must be negative and tell texts apart")
	}
	// "1" as a text is the integer 1, as GraphML and GML give every label as text.
	if c, ok := edgeLabelCodeOf([]byte(`" 1"`)); !ok || c != EdgeLabelCode(1) {
		t.Errorf(`"1" coded %v (%v), want the integer's %v`, c, ok, EdgeLabelCode(1))
	}
	// A link without a label, or a label of another kind, leaves the graph without edge labels.
	for _, links := range []string{
		`[{"source": "a", "target": "b", "label": 2}, {"source": "b", "target": "c"}]`,
		`[{"source": "a", "target": "b", "label": 2.5}, {"source": "b", "target": "c", "label": 1}]`,
		`[{"source": "a", "target": "b", "label": {"x": 1}}]`,
	} {
		if g := read(`{"nodes": [{"id": "a"}, {"id": "b"}, {"id": "c"}], "links": ` + links + `}`); g.EdgeLabels != nil {
			t.Errorf("%s: edge labels %v", links, g.EdgeLabels.Dense())
		}
	}
	// Directed: only the written direction.
	d := read(`{"directed": true, "nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 1, "label": 0}]}`)
	if got := tuDense(d.EdgeLabels.Dense()); !slices.Equal(got, []float64{0, EdgeLabelCode(0), 0, 0}) {
		t.Errorf("directed: %v", got)
	}
}

// GraphML's and GML's edge attribute "label", where every edge has one, is the edge label;
// the last of parallel edges wins; an edge without one leaves the graph without edge labels.
func TestGraphMLAndGMLEdgeLabels(t *testing.T) {
	graphml := func(edges string) string {
		return `<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="d0" for="edge" attr.name="label" attr.type="string"/>
  <key id="d1" for="edge" attr.name="weight" attr.type="double"/>
  <graph edgedefault="undirected"><node id="a"/><node id="b"/><node id="c"/>` + edges + `</graph></graphml>`
	}
	gml := func(edges string) string {
		return `graph [ node [ id 0 ] node [ id 1 ] node [ id 2 ] ` + edges + ` ]`
	}
	want := []float64{
		0, textLabelCode("double"), 0,
		textLabelCode("double"), 0, EdgeLabelCode(1),
		0, EdgeLabelCode(1), 0}
	for _, tc := range []struct {
		name, text string
		read       func(string) (*Graph, error)
		want       []float64
	}{
		{"graphml", graphml(`<edge source="a" target="b"><data key="d0">single</data></edge>
			<edge source="b" target="a"><data key="d0">double</data></edge>
			<edge source="b" target="c"><data key="d0"> 1 </data></edge>
			<edge source="a" target="c"><data key="d0">x</data><data key="d1">0</data></edge>`), readGraphMLString, want},
		{"graphml, one edge without", graphml(`<edge source="a" target="b"><data key="d0">single</data></edge>
			<edge source="b" target="c"/>`), readGraphMLString, nil},
		{"gml", gml(`edge [ source 0 target 1 label "single" ] edge [ source 1 target 0 label "double" ]
			edge [ source 1 target 2 label 1 ]`), readGMLString, want},
		{"gml, one edge without", gml(`edge [ source 0 target 1 label "single" ] edge [ source 1 target 2 ]`), readGMLString, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := tc.read(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if g.EdgeLabels != nil {
					t.Errorf("edge labels %v", tuDense(g.EdgeLabels.Dense()))
				}
				return
			}
			if g.EdgeLabels == nil {
				t.Fatal("no edge labels")
			}
			if got := tuDense(g.EdgeLabels.Dense()); !slices.Equal(got, tc.want) {
				t.Errorf("edge labels %v, want %v", got, tc.want)
			}
		})
	}
}

func readGraphMLString(s string) (*Graph, error) {
	return ReadGraphML(strings.NewReader(s), "g.graphml", NodeLinkOptions{})
}

func readGMLString(s string) (*Graph, error) {
	return ReadGML(strings.NewReader(s), "g.gml", NodeLinkOptions{})
}

// A bad edge-label line is called an edge label in the message.
func TestReadTUEdgeLabelWording(t *testing.T) {
	_, err := ReadTU(edgeTinyFS(t, strings.Repeat("1,2,3,4,5,6,7,8,9\n", 12)), "TINY", "TINY", TUOptions{EdgeLabels: true})
	if err == nil || !strings.Contains(err.Error(), "edge labels, want at most") || !strings.Contains(err.Error(), "TINY_edge_labels.txt:1") {
		t.Errorf("error %v, want one about edge labels naming the file", err)
	}
}
