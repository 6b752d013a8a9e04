// Package graphs holds the graph type of the project and the ways to obtain graphs: readers
// (JSON, networkx node-link JSON, edge lists, TU Dortmund datasets as folders or .zip archives,
// folders mixing one-graph files with a labels.csv) and seeded generators (Barabási–Albert,
// stochastic block model). The sub-package collection loads any of these sources from one
// description; datasets bundles five TU benchmarks; store spools a collection to one binary
// file read back graph by graph. A Source gives graphs by position (Slice: in memory; a store:
// from disk), which is how training streams a corpus larger than memory.
//
// A Graph is an adjacency matrix A, stored sparse (package csr: a corpus costs memory in
// proportion to its edges, not to Σ N²), a node distribution Mu and optional node features F,
// validated on construction (New, NewSparse, Validate).
//
// Each format has one reader, on an io.Reader: ReadJSON (gwf's JSON form), ReadNodeLink
// (networkx node-link JSON), ReadEdgeList, ReadAdjList, ReadGraphML, ReadGML, ReadGEXF and
// ReadGraph6; their name argument labels the input in errors and becomes Graph.Name. A path
// has one entry point per kind of source: ReadFile for one graph file (the reader chosen by the
// extension or FileOptions.Format; gzip-compressed files and NumPy adjacency matrices too),
// ReadFolder for a folder of graph files and their class labels, and ReadTUPath for a TU
// dataset, a folder or a .zip archive (ReadTU for one in an fs.FS). Every reader checks sizes
// against Limits before it allocates (the graphs as stored, and each graph's dense N×N matrix,
// which a solver's worker holds while it works on the graph), so a corrupt or hostile file is
// refused with an error naming the input (and line, where there are lines) instead of
// exhausting memory. A graph that fails validation (not square, a negative or non-finite
// weight, no nodes, ...) is refused with an error that wraps ErrInvalid.
//
// Node features (one-hot TU node labels or a folder's string node attributes, attributes,
// optionally standardized) are made by the readers; a Dataset's FeatureEncoding records how, so
// that a model trained on it can have new graphs encoded the same way (TUOptions.NodeLabels,
// FolderOptions.NodeLabelNames, ApplyStandardization).
//
// Data flows one way: graphs → layers → training. This package knows nothing of optimal
// transport or Gorgonia; it only produces valid graphs for the packages above it.
package graphs
