package graphs

// Summary describes a collection of graphs: how many, of how many classes, and their sizes.
// Edges count unique undirected edges: a pair i<j joined in either direction counts once (as the
// TU and GWF statistics do).
type Summary struct {
	Name     string  `json:"name"`
	Graphs   int     `json:"graphs"`
	Classes  int     `json:"classes"` // 0 for unlabelled data
	Nodes    int     `json:"nodes"`
	Edges    int     `json:"edges"`
	AvgNodes float64 `json:"avg_nodes"`
	AvgEdges float64 `json:"avg_edges"`
	MinNodes int     `json:"min_nodes"`
	MaxNodes int     `json:"max_nodes"`
	// FeatureDim is the width of the node features read (0: none).
	FeatureDim int `json:"feature_dim"`
	// Unlabelled counts the graphs without a class label where others have one (a folder
	// read with PartialLabelsKept).
	Unlabelled int `json:"unlabelled,omitempty"`
}

// Summarize computes the summary of ds.
func Summarize(ds *Dataset) Summary {
	s := Summary{Name: ds.Name, Graphs: len(ds.Graphs), Classes: ds.NumClasses()}
	if n := ds.Unlabelled(); n < len(ds.Graphs) {
		s.Unlabelled = n
	}
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
