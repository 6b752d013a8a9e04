package graphs

// Edge-list text format: one edge a line, "u v" or "u v w", fields separated by spaces or tabs,
// 0-based node ids, weight 1 when absent. "#" starts a comment, on its own line or after an
// edge; blank lines are ignored. Example:
//
//	# a triangle with one heavy edge
//	0 1
//	1 2 2.5
//	2 0   # closes the triangle

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// EdgeListOptions tells ReadEdgeList how to read the edges.
type EdgeListOptions struct {
	// Directed makes "u v w" set only C[u][v]; by default the graph is undirected and both
	// C[u][v] and C[v][u] are set.
	Directed bool
	// Nodes is the number of nodes; 0 means one more than the largest id in the input. Give it
	// to keep isolated nodes at the end, or to have ids checked against it.
	Nodes int
	// Limits bounds the node count and memory; the zero value means DefaultLimits.
	Limits Limits
}

// edgeListMaxLine bounds one line; it only stops a corrupt file from growing the buffer.
const edgeListMaxLine = 1 << 20

// edgeListEdge is one parsed line.
type edgeListEdge struct {
	u, v int
	w    float64
}

// ReadEdgeList reads a graph in the edge-list format above; name identifies the input in
// errors ("name:LINE: ...") and becomes Graph.Name. The node distribution is uniform, there
// are no features. Self-loops are kept. When an edge appears more than once, the last line
// wins: its weight replaces the earlier one (in an undirected graph "1 0 w" replaces "0 1"
// too). Ids are checked against opt.Limits as they are read, so a huge id is refused at its
// line, before any matrix is allocated; the edges are held in memory until the end (24 bytes
// each) because the node count is known only then.
func ReadEdgeList(r io.Reader, name string, opt EdgeListOptions) (*Graph, error) {
	lim := opt.Limits.orDefault()
	label := name
	if label == "" {
		label = "<edge list>"
	}
	if opt.Nodes < 0 {
		return nil, fmt.Errorf("%s: EdgeListOptions.Nodes = %d is negative", label, opt.Nodes)
	}
	if opt.Nodes > 0 {
		if err := checkDenseSize(label, opt.Nodes, 0, lim); err != nil {
			return nil, err
		}
	}
	er := &edgeListReader{r: r}
	sc := bufio.NewScanner(er)
	sc.Buffer(make([]byte, 0, 64<<10), edgeListMaxLine)
	var edges []edgeListEdge
	maxID, line := -1, 0
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
		e, err := parseEdge(fields, opt.Nodes, lim)
		if err != nil {
			if er.err != nil {
				// The scanner hands out what it had before a read error as a last line, which
				// may be cut short: the read error is the one to report.
				break
			}
			return nil, fmt.Errorf("%s:%d: %w", label, line, err)
		}
		maxID = max(maxID, e.u, e.v)
		edges = append(edges, e)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", label, line+1, edgeListMaxLine)
		}
		return nil, fmt.Errorf("%s: after line %d: %w", label, line, err)
	}
	if er.err != nil {
		return nil, fmt.Errorf("%s: after line %d: %w", label, line, er.err)
	}
	n := opt.Nodes
	if n == 0 {
		if maxID < 0 {
			return nil, fmt.Errorf("%s: %w: no edges and no node count (EdgeListOptions.Nodes): the graph would be empty", label, ErrInvalid)
		}
		n = maxID + 1
		if err := checkDenseSize(label, n, 0, lim); err != nil {
			return nil, err
		}
	}
	c := mat.NewDense(n, n, nil)
	for _, e := range edges {
		c.Set(e.u, e.v, e.w)
		if !opt.Directed {
			c.Set(e.v, e.u, e.w)
		}
	}
	g, err := New(label, c, nil, nil)
	if err != nil {
		return nil, err
	}
	g.Name = name
	return g, nil
}

// ReadEdgeListFile reads the edge-list file at path; the path names the graph.
func ReadEdgeListFile(path string, opt EdgeListOptions) (*Graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err // *fs.PathError names the file already
	}
	defer f.Close()
	return ReadEdgeList(f, path, opt)
}

// parseEdge parses the fields of one non-blank line.
func parseEdge(fields []string, nodes int, lim Limits) (edgeListEdge, error) {
	if len(fields) != 2 && len(fields) != 3 {
		return edgeListEdge{}, fmt.Errorf("%d fields, want 2 or 3 (u v [weight])", len(fields))
	}
	u, err := parseNodeID(fields[0], nodes, lim)
	if err != nil {
		return edgeListEdge{}, err
	}
	v, err := parseNodeID(fields[1], nodes, lim)
	if err != nil {
		return edgeListEdge{}, err
	}
	e := edgeListEdge{u: u, v: v, w: 1}
	if len(fields) == 3 {
		e.w, err = strconv.ParseFloat(fields[2], 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return edgeListEdge{}, fmt.Errorf("weight %q is not a number", fields[2])
		}
		// ParseFloat accepts "NaN" and "Inf", and turns "1e999" into +Inf with ErrRange.
		if err != nil || math.IsNaN(e.w) || math.IsInf(e.w, 0) || e.w < 0 {
			return edgeListEdge{}, fmt.Errorf("weight %q is not a finite non-negative number", fields[2])
		}
	}
	return e, nil
}

// parseNodeID parses a 0-based node id and checks it against the node count and the limits.
func parseNodeID(s string, nodes int, lim Limits) (int, error) {
	id, err := strconv.Atoi(s)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(s, "-") {
			return 0, fmt.Errorf("node id %s is far beyond the limit of %d nodes (Limits.MaxNodes)", s, lim.MaxNodes)
		}
		if !errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("node id %q is not an integer", s)
		}
		id = -1 // a negative number out of range
	}
	if id < 0 {
		return 0, fmt.Errorf("node id %s is negative (ids are 0-based)", s)
	}
	if nodes > 0 && id >= nodes {
		return 0, fmt.Errorf("node id %d is out of range for %d nodes (EdgeListOptions.Nodes; ids are 0-based)", id, nodes)
	}
	need := id
	if need < math.MaxInt {
		need++
	}
	return id, lim.checkNodes(fmt.Sprintf("node id %d", id), need)
}

// edgeListReader keeps the first read error other than io.EOF.
type edgeListReader struct {
	r   io.Reader
	err error
}

func (e *edgeListReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}
