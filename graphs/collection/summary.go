package collection

import "github.com/gwf-graphs/gwf/graphs"

// Summary describes a loaded collection. Edges count unique undirected edges: a pair i<j
// joined in either direction counts once (as the TU and GWF statistics do).
type Summary struct {
	Name               string
	Graphs, Classes    int // Classes is 0 for unlabelled data
	Nodes, Edges       int
	AvgNodes, AvgEdges float64
	MinNodes, MaxNodes int
	// FeatureDim is the width of the node features read (0: none).
	FeatureDim int
}

// Summarize computes the summary of ds.
func Summarize(ds *graphs.Dataset) Summary {
	s := Summary{Name: ds.Name, Graphs: len(ds.Graphs), Classes: ds.NumClasses()}
	for i, g := range ds.Graphs {
		n := g.N()
		s.Nodes += n
		s.Edges += g.UndirectedEdges()
		if i == 0 || n < s.MinNodes {
			s.MinNodes = n
		}
		s.MaxNodes = max(s.MaxNodes, n)
		s.FeatureDim = max(s.FeatureDim, g.Dim())
	}
	if s.Graphs > 0 {
		s.AvgNodes = float64(s.Nodes) / float64(s.Graphs)
		s.AvgEdges = float64(s.Edges) / float64(s.Graphs)
	}
	return s
}
