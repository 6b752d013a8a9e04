package graphs

// Adjacency-list text format, as networkx's write_adjlist writes it: one line a node, the
// node's id first, then the ids of its neighbours, separated by spaces or tabs; "#" starts a
// comment. Node ids are names (EdgeIDs NodeNames). An undirected graph lists each edge once,
// on the line of the node written first; a node without neighbours is a line of its own.
//
//	# a path and an isolated node
//	a b
//	b c
//	c
//	d

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ReadAdjList reads a graph in the adjacency-list format above: each line "u v1 v2 ..." is
// the node u and the edges (u, v1), (u, v2), ... of weight 1, read as ReadEdgeList reads
// them with NodeNames ids (opt.IDs and opt.Nodes must be left zero); name identifies the
// input in errors and becomes Graph.Name. The input is bounded as the attribute formats are.
func ReadAdjList(r io.Reader, name string, opt EdgeListOptions) (*Graph, error) {
	label := name
	if label == "" {
		label = "<adjacency list>"
	}
	if opt.IDs != ZeroBased || opt.Nodes != 0 {
		return nil, fmt.Errorf("%s: an adjacency list names its nodes: leave EdgeListOptions.IDs and Nodes zero", label)
	}
	lim := opt.Limits.OrDefault()
	var edges bytes.Buffer
	err := boundedRead(r, label, markupTextBound(lim), lim, func(src io.Reader) error {
		sc := bufio.NewScanner(src)
		sc.Buffer(make([]byte, 0, 64<<10), edgeListMaxLine)
		line := 0
		for sc.Scan() {
			line++
			text := sc.Text()
			if i := strings.IndexByte(text, '#'); i >= 0 {
				text = text[:i]
			}
			fields := strings.Fields(text)
			if len(fields) == 0 {
				continue
			}
			// The node itself, then an edge to each neighbour: the edge-list lines of the
			// same graph.
			edges.WriteString(fields[0])
			edges.WriteByte('\n')
			for _, v := range fields[1:] {
				if strings.HasPrefix(v, "{") {
					return fmt.Errorf("%s:%d: %q: attributes are not part of an adjacency list (networkx's write_adjlist writes none)", label, line, v)
				}
				edges.WriteString(fields[0] + " " + v + "\n")
			}
		}
		if errors.Is(sc.Err(), bufio.ErrTooLong) {
			return fmt.Errorf("%s:%d: line longer than %d bytes", label, line+1, edgeListMaxLine)
		}
		return sc.Err()
	})
	if err != nil {
		return nil, err
	}
	opt.IDs = NodeNames
	return ReadEdgeList(&edges, name, opt)
}
