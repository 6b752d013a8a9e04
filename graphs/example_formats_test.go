package graphs_test

import (
	"fmt"
	"log"
	"path/filepath"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
)

// A graph in networkx's node-link JSON, as json.dumps(nx.node_link_data(G)) writes it: string
// ids, a weighted link, a numeric node attribute that becomes the node feature.
func ExampleReadNodeLink() {
	in := `{"directed": false, "multigraph": false, "graph": {},
	  "nodes": [{"id": "hub", "charge": 1}, {"id": "a", "charge": 0}, {"id": "b", "charge": -1}],
	  "links": [{"source": "hub", "target": "a"}, {"source": "hub", "target": "b", "weight": 2}]}`
	g, err := graphs.ReadNodeLink(strings.NewReader(in), "star.json", graphs.NodeLinkOptions{Attributes: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.N(), "nodes, row of hub:", g.Dense().RawRowView(0), "features:", g.F.RawMatrix().Data)
	// Output:
	// 3 nodes, row of hub: [0 1 2] features: [1 0 -1]
}

// A graph in GraphML, as networkx's write_graphml writes it: a weighted edge, a numeric node
// attribute that becomes the node feature (the string one does not), a graph label.
func ExampleReadGraphML() {
	in := `<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="d3" for="edge" attr.name="weight" attr.type="double"/>
  <key id="d2" for="node" attr.name="element" attr.type="string"/>
  <key id="d1" for="node" attr.name="charge" attr.type="double"/>
  <key id="d0" for="graph" attr.name="label" attr.type="long"/>
  <graph edgedefault="undirected">
    <data key="d0">1</data>
    <node id="hub"><data key="d1">1</data><data key="d2">C</data></node>
    <node id="a"><data key="d1">0</data><data key="d2">O</data></node>
    <node id="b"><data key="d1">-1</data><data key="d2">N</data></node>
    <edge source="hub" target="a"/>
    <edge source="hub" target="b"><data key="d3">2</data></edge>
  </graph>
</graphml>`
	g, err := graphs.ReadGraphML(strings.NewReader(in), "star.graphml", graphs.NodeLinkOptions{Attributes: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.N(), "nodes, row of hub:", g.Dense().RawRowView(0), "features:", g.F.RawMatrix().Data, "label:", g.Label)
	// Output:
	// 3 nodes, row of hub: [0 1 2] features: [1 0 -1] label: 1
}

// A folder mixing the JSON form, node-link JSON and edge lists (one with 1-based ids, one with
// names), labelled by its labels.csv.
func ExampleReadFolder() {
	ds, err := graphs.ReadFolder(filepath.Join("testdata", "mixed"), graphs.FolderOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, g := range ds.Graphs {
		fmt.Printf("%-19s %d nodes, class %s\n", g.Name, g.N(), ds.ClassName(g))
	}
	// Output:
	// friends.edges       4 nodes, class tree
	// path.nodelink.json  4 nodes, class tree
	// pentagon.txt        5 nodes, class cycle
	// square.json         4 nodes, class cycle
	// star.nodelink.json  4 nodes, class tree
	// triangle.json       3 nodes, class cycle
}

// One graph file, its reader chosen by the extension: here the Petersen graph in graph6, as
// networkx's write_graph6 writes it. FileOptions.Format names the reader where the extension
// does not.
func ExampleReadFile() {
	g, err := graphs.ReadFile(filepath.Join("testdata", "formats", "petersen.g6"), graphs.FileOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.N(), "nodes,", g.UndirectedEdges(), "edges, symmetric:", g.A.Symmetric())
	// Output:
	// 10 nodes, 15 edges, symmetric: true
}

// A TU dataset in a folder (a .zip archive as the TU site distributes it reads the same way):
// the graphs, their classes and the one-hot node labels.
func ExampleReadTUPath() {
	ds, err := graphs.ReadTUPath(filepath.Join("testdata", "tu", "TINY"), graphs.TUOptions{Features: graphs.FeaturesLabels})
	if err != nil {
		log.Fatal(err)
	}
	for _, g := range ds.Graphs {
		fmt.Printf("%s: %d nodes, class %s, %d feature columns\n", g.Name, g.N(), ds.ClassName(g), g.Dim())
	}
	// Output:
	// TINY#1: 3 nodes, class 2, 3 feature columns
	// TINY#2: 2 nodes, class -1, 3 feature columns
	// TINY#3: 4 nodes, class 2, 3 feature columns
}
