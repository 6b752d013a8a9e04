package graphs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/matfile"
)

// TestReadRefusesValuesPastMaxValue: an edge weight or node feature larger in magnitude than
// MaxValue is refused as the file is read, the error naming the file, the edge (or node) and
// the bound, in every format that carries values. Before, a weight of 1e308 passed 'gwf
// datasets' and failed in the solver as +Inf (shortest paths) or NaN (adjacency). Values at
// the bound read.
func TestReadRefusesValuesPastMaxValue(t *testing.T) {
	const bound = "larger in magnitude than 1e+100, the most gwf accepts"
	nl := func(attr, weight string) string {
		return `{"nodes": [{"id": "a"` + attr + `}, {"id": "b"` + attr + `}], "links": [{"source": "a", "target": "b", "weight": ` + weight + `}]}`
	}
	graphml := func(w string) string {
		return `<graphml><key id="w" for="edge" attr.name="weight" attr.type="double"/><graph edgedefault="undirected"><node id="a"/><node id="b"/><edge source="a" target="b"><data key="w">` + w + `</data></edge></graph></graphml>`
	}
	for _, tc := range []struct {
		name, text string
		want       string // with the bound, in the error; "": it reads
	}{
		{"a.json", nl("", "1e308"), `a.json: invalid graph: links[0]: weight 1e+308, ` + bound},
		{"b.json", nl(`, "charge": -1e200`, "1"), `b.json: invalid graph: node "a": attribute "charge" is -1e+200, ` + bound},
		{"c.json", `{"adjacency": [[0, 1e308], [1e308, 0]]}`, `c.json: invalid graph: adjacency[0][1] is 1e+308, ` + bound},
		{"d.json", `{"adjacency": [[0, 1], [1, 0]], "features": [[1], [3e150]]}`, `d.json: invalid graph: features[1][0] is 3e+150, ` + bound},
		{"e.edgelist", "a b 1e308\n", `e.edgelist:1: weight 1e+308, ` + bound},
		{"f.graphml", graphml("1e308"), `f.graphml:1: edge 1: invalid graph: the edge from "a" to "b": weight 1e+308, ` + bound},
		{"g.gml", "graph [ node [ id 0 ] node [ id 1 ] edge [ source 0 target 1 weight 1e308 ] ]", `the edge from "0" to "1": weight 1e+308, ` + bound},
		{"h.json", nl(`, "charge": -1e100`, "1e100"), ""},
		{"i.graphml", graphml("1e100"), ""},
	} {
		dir := writeFiles(t, map[string]string{tc.name: tc.text})
		_, err := ReadFolder(dir, FolderOptions{Features: FeaturesAttributes})
		switch {
		case tc.want == "" && err != nil && !strings.Contains(err.Error(), "no numeric node attributes"):
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// A NumPy adjacency matrix.
	p := filepath.Join(t.TempDir(), "m.npy")
	f, _ := matfile.FormatOf(p)
	var buf bytes.Buffer
	if err := matfile.Write(&buf, f, mat.NewDense(2, 2, []float64{0, 1e300, 1e300, 0}), nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(p, FileOptions{}); err == nil || !strings.Contains(err.Error(), "m.npy: invalid graph: entry (0, 1) is 1e+300, "+bound) {
		t.Errorf("m.npy: %v", err)
	}
}
