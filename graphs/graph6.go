package graphs

// graph6 (https://users.cecs.anu.edu.au/~bdm/data/formats.txt), the compact format of nauty,
// networkx's write_graph6 and the House of Graphs: an undirected, unweighted graph as
// printable characters, N(n) and then the upper triangle of the adjacency matrix column by
// column, six bits a character (character = 63 + bits). A file holds one graph here (one line,
// optionally after the header ">>graph6<<"); sparse6 and digraph6 are refused.

import (
	"bytes"
	"io"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// graph6Header is the optional header of a graph6 file.
const graph6Header = ">>graph6<<"

// ReadGraph6 reads one graph in graph6; name identifies the input in errors and becomes
// Graph.Name. The node count is checked against opt.Limits before anything is allocated.
func ReadGraph6(r io.Reader, name string, lim Limits) (*Graph, error) {
	label := name
	if label == "" {
		label = "<graph6>"
	}
	lim = lim.OrDefault()
	// n nodes take about n²/12 bytes: bound the read by the largest graph the limits allow.
	n := int64(lim.MaxNodes)
	bound := textBound{bytes: n*n/12 + 64, flag: "--max-nodes"}
	var b []byte
	err := boundedRead(r, label, bound, lim, func(src io.Reader) error {
		var err error
		b, err = io.ReadAll(src)
		return err
	})
	if err != nil {
		return nil, err
	}
	b = bytes.TrimPrefix(bytes.TrimSpace(b), []byte(graph6Header))
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		return nil, invalidf(label, "more than one line: this reads one graph (in a graph folder, a file of several graph6 lines is read as a collection)")
	}
	switch {
	case len(b) == 0:
		return nil, invalidf(label, "empty: no graph6 graph")
	case b[0] == ':':
		return nil, invalidf(label, "sparse6 (a line starting with ':') is not supported: write graph6 (networkx: write_graph6)")
	case b[0] == '&':
		return nil, invalidf(label, "digraph6 (a line starting with '&') is not supported: write graph6 or an edge list")
	}
	for i, c := range b {
		if c < 63 || c > 126 {
			return nil, invalidf(label, "byte %d is %q: graph6 uses the characters ? to ~ only", i, c)
		}
	}
	nodes, rest := graph6Size(b)
	if nodes < 0 {
		return nil, invalidf(label, "the node count is cut short")
	}
	if nodes == 0 {
		return nil, invalidf(label, "0 nodes: a graph needs at least one node")
	}
	if err := lim.checkNodes(label, int(min(nodes, 1<<40))); err != nil {
		return nil, err
	}
	if err := checkDenseSize(label, int(nodes), 0, lim); err != nil {
		return nil, err
	}
	nn := int(nodes)
	bits := nn * (nn - 1) / 2
	if want := (bits + 5) / 6; len(rest) != want {
		return nil, invalidf(label, "%d characters of edges for %d nodes, want %d", len(rest), nn, want)
	}
	var entries []csr.Entry
	k := 0
	for j := 1; j < nn; j++ {
		for i := range j {
			if (rest[k/6]-63)>>(5-k%6)&1 == 1 {
				entries = append(entries, csr.Entry{Row: i, Col: j, Val: 1}, csr.Entry{Row: j, Col: i, Val: 1})
			}
			k++
		}
	}
	return structureGraph(label, name, nn, entries)
}

// graph6Size decodes N(n) at the start of b: the node count and the bytes after it, or −1
// when b ends inside it.
func graph6Size(b []byte) (int64, []byte) {
	width := 1
	switch {
	case b[0] != 126:
		return int64(b[0] - 63), b[1:]
	case len(b) > 1 && b[1] == 126:
		b, width = b[2:], 6
	default:
		b, width = b[1:], 3
	}
	if len(b) < width {
		return -1, nil
	}
	var n int64
	for _, c := range b[:width] {
		n = n<<6 | int64(c-63)
	}
	return n, b[width:]
}
