package graphs_test

import (
	"fmt"
	"log"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

func ExampleReadJSON() {
	in := `{
  "adjacency": [[0, 1, 1], [1, 0, 0], [1, 0, 0]],
  "features": [[0.5], [1.5], [2.5]],
  "label": 3
}`
	g, err := graphs.ReadJSON(strings.NewReader(in), "star.json", graphs.Limits{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Name, g.N(), "nodes,", g.Dim(), "feature, label", g.Label)
	fmt.Printf("mu = %.3f\n", g.Mu)

	// A row too short is refused, with the file named.
	_, err = graphs.ReadJSON(strings.NewReader(`{"adjacency": [[0, 1], [1]]}`), "bad.json", graphs.Limits{})
	fmt.Println(err)
	// Output:
	// star.json 3 nodes, 1 feature, label 3
	// mu = [0.333 0.333 0.333]
	// bad.json: invalid graph: "adjacency" row 1 has 1 entries, want 2 (one per node)
}

func ExampleReadEdgeList() {
	in := `# a weighted triangle and an isolated node 3
0 1
1 2 2.5
2 0   # closes the triangle
`
	g, err := graphs.ReadEdgeList(strings.NewReader(in), "triangle.edges", graphs.EdgeListOptions{Nodes: 4})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%v\n", mat.Formatted(g.Dense()))

	_, err = graphs.ReadEdgeList(strings.NewReader("0 1\n1 two\n"), "bad.edges", graphs.EdgeListOptions{})
	fmt.Println(err)
	// Output:
	// ⎡  0    1    1    0⎤
	// ⎢  1    0  2.5    0⎥
	// ⎢  1  2.5    0    0⎥
	// ⎣  0    0    0    0⎦
	// bad.edges:2: node id "two" is not an integer
}

func ExampleBarabasiAlbert() {
	rng := rand.New(rand.NewPCG(1, 2)) // same seed, same graph
	g, err := graphs.BarabasiAlbert(50, 2, rng)
	if err != nil {
		log.Fatal(err)
	}
	edges, minDeg := 0.0, float64(g.N())
	for i := 0; i < g.N(); i++ {
		d := mat.Sum(g.Dense().RowView(i))
		edges += d / 2
		minDeg = min(minDeg, d)
	}
	// A clique on 3 nodes (3 edges), then 2 edges for each of the 47 other nodes.
	fmt.Println(g.Name, "has", edges, "edges, smallest degree", minDeg)
	// Output:
	// BA(n=50,m=2) has 97 edges, smallest degree 2
}
