package graphs

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestReadGMLFixtures(t *testing.T) {
	for _, want := range formatFixtures(t, ".gml") {
		path := filepath.Join(formatsDir, want.File)
		g, err := ReadFile(path, FileOptions{Features: FeaturesAttributes})
		if err != nil {
			t.Fatal(err)
		}
		checkFixture(t, g, want, true)
		if g.Name != path {
			t.Errorf("name %q, want %q", g.Name, path)
		}
		g, err = ReadFile(path, FileOptions{})
		if err != nil || g.F != nil {
			t.Errorf("%s without attributes: F %v, err %v", want.File, g.F, err)
		}
	}
}

func TestReadGML(t *testing.T) {
	// igraph's header, comments, Gephi's graphics (skipped), an edge before its nodes,
	// networkx's lists (a repeated key; a one-element list after its marker), a string
	// attribute (no feature), parallel edges that add up, "directed" after the edges, and
	// comments after the graph.
	const in = `Creator "igraph version 0.10"  # a comment
Version 1
graph [
  edge [ source 2 target 0 weight 3 ]
  node [ id 0 label "a" v 1 v 2 one "_networkx_list_start" one 5 name "x y" graphics [ x 1.0 y -2.5 fill "#FF0000" ] ]
  node [ id +1 label "b" v 3 v 4 one "_networkx_list_start" one 6 name "z" ]
  # nodes may list attributes in any order
  node [ label "c" name "w" one "_networkx_list_start" one 7 v -1.5e1 v .5 id 2 ]
  edge [ source 0 target 01 ]
  edge [ source 0 target 1 weight 0.5 ]
  edge [ source 1 target 1 weight 2 ]
  directed 1
  label 4
]
# the end
`
	g, err := ReadGML(strings.NewReader(in), "g.gml", NodeLinkOptions{Attributes: true})
	if err != nil {
		t.Fatal(err)
	}
	wantC := mat.NewDense(3, 3, []float64{0, 1.5, 0, 0, 2, 0, 3, 0, 0})
	if !mat.Equal(g.Dense(), wantC) {
		t.Errorf("C =\n%v", mat.Formatted(g.Dense()))
	}
	wantF := mat.NewDense(3, 3, []float64{5, 1, 2, 6, 3, 4, 7, -15, 0.5}) // one, v
	if g.F == nil || !mat.Equal(g.F, wantF) {
		t.Errorf("F = %v", g.F)
	}
	if !g.HasLabel || g.Label != 4 || g.Name != "g.gml" {
		t.Errorf("label %d (%v), name %q", g.Label, g.HasLabel, g.Name)
	}
	// Undirected: symmetric, a self-loop once; non-finite attributes are no error when not
	// read; networkx's quoted label.
	const undirected = `graph [ label "2" node [ id 0 x NAN ] node [ id 1 x +INF ] edge [ source 0 target 1 ] edge [ source 0 target 0 ] ]`
	g, err = ReadGML(strings.NewReader(undirected), "u.gml", NodeLinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(g.Dense(), mat.NewDense(2, 2, []float64{1, 1, 1, 0})) || g.F != nil || !g.HasLabel || g.Label != 2 {
		t.Errorf("C =\n%v, F %v, label %d (%v)", mat.Formatted(g.Dense()), g.F, g.Label, g.HasLabel)
	}
}

func TestReadGMLErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		opt      NodeLinkOptions
		want     string
	}{
		{"empty", ``, NodeLinkOptions{}, "no graph [ ... ] in the input"},
		{"xml", `<graphml/>`, NodeLinkOptions{}, `x.gml:1: not well-formed GML: "<graphml/>" is neither a key nor a number`},
		{"no nodes", `graph [ directed 0 ]`, NodeLinkOptions{}, "no nodes"},
		{"graph not a list", `graph 1`, NodeLinkOptions{}, "graph is 1, want a list"},
		{"unclosed list", "graph [\n node [ id 0 ]\n", NodeLinkOptions{}, "x.gml:3: invalid graph: the input ends inside the list opened at line 1"},
		{"unclosed string", "graph [ node [ id 0 label \"a ] ]", NodeLinkOptions{}, `not well-formed GML: string not closed`},
		{"stray close", `] graph [ node [ id 0 ] ]`, NodeLinkOptions{}, "] where a key was expected"},
		{"value where key", `graph [ 1 2 ]`, NodeLinkOptions{}, "1 where a key was expected"},
		{"key without value", `graph [ node [ id ] ]`, NodeLinkOptions{}, "key id has no value"},
		{"bare word value", `graph [ node [ id 0 kind atom ] ]`, NodeLinkOptions{}, "key kind has the value atom"},
		{"bad key", `graph [ no-de [ id 0 ] ]`, NodeLinkOptions{}, `"no-de" is not a key`},
		{"bad character", "graph [ node [ id 0 ]\n@ ]", NodeLinkOptions{}, `x.gml:2: not well-formed GML: "@" is neither a key nor a number`},
		{"long token", "graph [ node [ id 0 s \"" + strings.Repeat("a", gmlMaxToken+1) + "\" ] ]", NodeLinkOptions{}, "string longer than"},
		{"deep nesting", `graph [ node [ id 0 ` + strings.Repeat("a [ ", 40) + strings.Repeat("] ", 40) + `] ]`, NodeLinkOptions{}, "lists nested more than 32 deep"},
		{"nested graph", `graph [ node [ id 0 graph [ node [ id 1 ] ] ] ]`, NodeLinkOptions{}, "nested graphs are not supported"},
		{"node not a list", `graph [ node 1 ]`, NodeLinkOptions{}, "node is 1, want a list"},
		{"node without id", `graph [ node [ label "a" ] ]`, NodeLinkOptions{}, "node 1 has no id"},
		{"two ids", `graph [ node [ id 0 id 1 ] ]`, NodeLinkOptions{}, "node 1 has two ids"},
		{"string id", `graph [ node [ id "a" ] ]`, NodeLinkOptions{}, `node id "a" is not an integer`},
		{"real id", `graph [ node [ id 1.5 ] ]`, NodeLinkOptions{}, `node id 1.5 is not an integer`},
		{"huge id", `graph [ node [ id 99999999999999999999 ] ]`, NodeLinkOptions{}, `node id 99999999999999999999 is out of range`},
		{"duplicate id", `graph [ node [ id 0 ] node [ id 00 ] ]`, NodeLinkOptions{}, `node id "0" appears twice`},
		{"unknown target", "graph [ node [ id 0 ]\n edge [ source 0 target 1 ] ]", NodeLinkOptions{}, `x.gml:2: invalid graph: edge target "1" is not the id of a node`},
		{"edge without source", `graph [ node [ id 0 ] edge [ target 0 ] ]`, NodeLinkOptions{}, "edge 1 has no source"},
		{"two targets", `graph [ node [ id 0 ] edge [ source 0 target 0 target 0 ] ]`, NodeLinkOptions{}, "edge 1 has two targets"},
		{"negative weight", `graph [ node [ id 0 ] edge [ source 0 target 0 weight -2 ] ]`, NodeLinkOptions{}, "edge 1: invalid graph: weight -2 is not a finite non-negative number"},
		{"NaN weight", `graph [ node [ id 0 ] edge [ source 0 target 0 weight NAN ] ]`, NodeLinkOptions{}, "weight NaN is not a finite"},
		{"infinite weight", `graph [ node [ id 0 ] edge [ source 0 target 0 weight 1e999 ] ]`, NodeLinkOptions{}, "weight +Inf is not a finite"},
		{"string weight", `graph [ node [ id 0 ] edge [ source 0 target 0 weight "2" ] ]`, NodeLinkOptions{}, `weight is "2", want a number`},
		{"two weights", `graph [ node [ id 0 ] edge [ source 0 target 0 weight 1 weight 2 ] ]`, NodeLinkOptions{}, "edge 1 has two weights"},
		{"directed 2", `graph [ directed 2 node [ id 0 ] ]`, NodeLinkOptions{}, "directed is 2, want 0 or 1"},
		{"empty label", `graph [ label "" node [ id 0 ] ]`, NodeLinkOptions{}, `x.gml:1: invalid graph: graph "label": an empty class label`},
		{"real label", `graph [ label 1.0 node [ id 0 ] ]`, NodeLinkOptions{}, `graph "label": 1.0 is a real number, want an integer or a text`},
		{"missing attribute", `graph [ node [ id 0 x 1 ] node [ id 1 ] ]`, NodeLinkOptions{Attributes: true}, `node "1" lacks the numeric attribute "x" that node "0" has`},
		{"list widths", `graph [ node [ id 0 x 1 x 2 ] node [ id 1 x 1 ] ]`, NodeLinkOptions{Attributes: true}, `node "1" has 1 values of the numeric attribute "x", node "0" has 2`},
		{"NaN attribute", `graph [ node [ id 0 x NAN ] ]`, NodeLinkOptions{Attributes: true}, `node 0: invalid graph: attribute "x" is NaN`},
		{"too many nodes", `graph [ node [ id 0 ] node [ id 1 ] node [ id 2 ] ]`, NodeLinkOptions{Limits: Limits{MaxNodes: 2}}, `node "2": 3 nodes exceed the limit of 2`},
		{"too many values", `graph [ node [ id 0 ` + strings.Repeat("x 1 ", 20) + `] ]`, NodeLinkOptions{Attributes: true, Limits: Limits{MaxDenseBytes: 64}}, "the numeric node attributes hold more than 8 values"},
		{"dense bytes", `graph [ node [ id 0 ] node [ id 1 ] ]`, NodeLinkOptions{Limits: Limits{MaxDenseBytes: 16}}, "needs 32 bytes of dense matrices"},
		// One graph per file, nothing after it: a second graph or more text is not dropped.
		{"second graph", "graph [ node [ id 0 ] ]\n\ngraph [ node [ id 9 ] ]\n", NodeLinkOptions{}, "x.gml: invalid graph: holds a second graph at line 3; gwf reads one graph per GML file"},
		{"second graph after a comment", "graph [ node [ id 0 ] ] # one\ngraph [ ]", NodeLinkOptions{}, "holds a second graph at line 2"},
		{"a key after the graph", "graph [ node [ id 0 ] ]\nversion 1\n", NodeLinkOptions{}, "x.gml: invalid graph: key version at line 2, after the graph: gwf reads one graph per GML file and nothing after it"},
		{"a number after the graph", "graph [ node [ id 0 ] ] 7", NodeLinkOptions{}, "7 at line 1, after the graph"},
		{"a close after the graph", "graph [ node [ id 0 ] ] ]", NodeLinkOptions{}, "] at line 1, after the graph"},
		{"text after the graph", "graph [ node [ id 0 ] ]\n@@ trailing", NodeLinkOptions{}, `x.gml:2: not well-formed GML: "@@" is neither a key nor a number`},
		{"too large", "graph [ " + strings.Repeat("# "+strings.Repeat(" ", 1000)+"\n", 3000) + "]", NodeLinkOptions{Limits: Limits{MaxNodes: 2, MaxDenseBytes: 64}}, "input is larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadGML(strings.NewReader(tc.in), "x.gml", tc.opt)
			if err == nil {
				t.Fatalf("accepted: C =\n%v", mat.Formatted(g.Dense()))
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "x.gml") {
				t.Errorf("error %q, want x.gml...%q", err, tc.want)
			}
		})
	}
}

func TestReadGMLReadError(t *testing.T) {
	_, err := ReadGML(&edgeListFailing{text: "graph [ node [ id 0 ]"}, "f.gml", NodeLinkOptions{})
	if !errors.Is(err, errEdgeListRead) || !strings.Contains(err.Error(), "f.gml: reading") {
		t.Errorf("error %v, want the read error", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.gml"), FileOptions{}); err == nil || !strings.Contains(err.Error(), "missing.gml") {
		t.Errorf("missing file: %v", err)
	}
}

// Parallel edges beyond the first merge of the held edges still add up, in both orders of an
// undirected pair.
func TestReadGMLManyParallelEdges(t *testing.T) {
	var b strings.Builder
	b.WriteString("graph [ node [ id 0 ] node [ id 1 ]\n")
	const k = 3 * edgeListCompactMin
	for i := range k {
		if i%2 == 0 {
			b.WriteString("edge [ source 0 target 1 weight 0.5 ]\n")
		} else {
			b.WriteString("edge [ source 1 target 0 weight 0.5 ]\n")
		}
	}
	b.WriteString("edge [ source 1 target 1 ] ]")
	g, err := ReadGML(strings.NewReader(b.String()), "p.gml", NodeLinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := mat.NewDense(2, 2, []float64{0, k / 2, k / 2, 1}); !mat.Equal(g.Dense(), want) {
		t.Errorf("C =\n%v", mat.Formatted(g.Dense()))
	}
}
