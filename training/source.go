package training

import (
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
)

// dataInfo is what one pass over a source learns: the common feature dimension, the
// fingerprint and every graph's node count.
type dataInfo struct {
	dim         int
	fingerprint string
	nodes       []int
}

// describe reads src through once, checking it (checkGraphs) and computing its fingerprint.
func describe(src graphs.Source) (dataInfo, error) {
	if src == nil {
		return dataInfo{}, fmt.Errorf("no graphs to learn from")
	}
	var fp graphs.Fingerprinter
	nodes := make([]int, 0, src.Len())
	dim, err := checkGraphs(src, func(g *graphs.Graph) {
		fp.Add(g)
		nodes = append(nodes, g.N())
	})
	if err != nil {
		return dataInfo{}, err
	}
	return dataInfo{dim: dim, fingerprint: fp.Sum(), nodes: nodes}, nil
}

// checkData is checkGraphs of graphs in memory.
func checkData(data []*graphs.Graph) (int, error) { return checkGraphs(graphs.Slice(data), nil) }

// checkGraphs verifies that the graphs of src can be factorised together: at least one graph,
// every graph with nodes, and all with node features of one dimension or all without. It
// returns that dimension, and passes each graph to each (when not nil) in order.
func checkGraphs(src graphs.Source, each func(*graphs.Graph)) (int, error) {
	if src.Len() == 0 {
		return 0, fmt.Errorf("no graphs to learn from")
	}
	var first *graphs.Graph
	for i := 0; i < src.Len(); i++ {
		g, err := src.Graph(i)
		if err != nil {
			return 0, err
		}
		if g == nil {
			return 0, fmt.Errorf("nil graph in the data")
		}
		if g.N() == 0 {
			return 0, fmt.Errorf("graph %q has no nodes", g.Name)
		}
		if first == nil {
			first = g
		}
		if g.Dim() != first.Dim() {
			return 0, fmt.Errorf("graph %q has %d-dimensional features, graph %q has %d", g.Name, g.Dim(), first.Name, first.Dim())
		}
		if each != nil {
			each(g)
		}
	}
	return first.Dim(), nil
}

// TrainedOn reports whether src holds the graphs m was trained on, in the same order: as many
// as m.Z has rows, with the same Fingerprint (src is read through once only when the counts
// agree). m.Z then holds their embeddings.
func (m *Model) TrainedOn(src graphs.Source) (bool, error) {
	if r, _ := m.Z.Dims(); r != src.Len() {
		return false, nil
	}
	fp, err := fingerprintSource(src)
	return err == nil && fp == m.Fingerprint, err
}

// fingerprintSource is Fingerprint of the graphs of src (read through once).
func fingerprintSource(src graphs.Source) (string, error) {
	var fp graphs.Fingerprinter
	for i := 0; i < src.Len(); i++ {
		g, err := src.Graph(i)
		if err != nil {
			return "", err
		}
		fp.Add(g)
	}
	return fp.Sum(), nil
}
