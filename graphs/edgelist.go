package graphs

// Edge-list text format: one edge a line, "u v" or "u v w", fields separated by spaces or tabs,
// node ids 0-based by default (see EdgeIDs), weight 1 when absent. "#" starts a comment, on its own line or after an
// edge; blank lines are ignored. Example:
//
//	# a triangle with one heavy edge
//	0 1
//	1 2 2.5
//	2 0   # closes the triangle
//
// The third field may also be the Python dict of the edge's attributes that networkx's
// write_edgelist writes by default: "0 1 {}" (weight 1) or "1 2 {'weight': 2.5, 'color': 'red'}";
// its 'weight' is the weight and the other attributes are ignored. A line with one id is a node
// on its own (networkx's write_adjlist writes isolated nodes so, write_edgelist drops them): it
// counts among the nodes without adding an edge.

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// EdgeIDs says what the node ids of an edge list are.
type EdgeIDs int

const (
	// ZeroBased ids are 0, 1, ..., N−1: node i is row i of C. A file whose smallest id is above
	// 0 is refused unless EdgeListOptions.Nodes is given, since it is most likely 1-based and
	// would otherwise gain isolated nodes.
	ZeroBased EdgeIDs = iota
	// OneBased ids are 1, ..., N: node i is row i−1 of C.
	OneBased
	// NodeNames are any tokens without spaces ("alice", "42"): the nodes are the names that
	// appear, ordered by number when every name is an integer and by first appearance
	// otherwise. EdgeListOptions.Nodes must be 0 (a node in no edge is named on a line of
	// its own).
	NodeNames
)

// ParseEdgeIDs reads the name of an EdgeIDs: "zero", "one" or "names" (any case).
func ParseEdgeIDs(s string) (EdgeIDs, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "zero":
		return ZeroBased, nil
	case "one":
		return OneBased, nil
	case "names":
		return NodeNames, nil
	}
	return 0, fmt.Errorf("graphs: edge-list ids %q: want zero, one or names", s)
}

// ErrNoNodeZero is wrapped by the error of a ZeroBased read whose smallest id is above 0 (the
// file is most likely 1-based): callers can point to their own way of choosing the ids.
var ErrNoNodeZero = errors.New("no edge has node 0")

// EdgeListOptions tells ReadEdgeList how to read the edges.
type EdgeListOptions struct {
	// IDs says how node ids map to rows of C; the zero value is ZeroBased.
	IDs EdgeIDs
	// Directed makes "u v w" set only C[u][v]; by default the graph is undirected and both
	// C[u][v] and C[v][u] are set.
	Directed bool
	// Nodes is the number of nodes; 0 means the largest id in the input (plus one when ids are
	// ZeroBased). Give it to keep isolated nodes at the end, or to have ids checked against it.
	Nodes int
	// Limits bounds the node count and memory; the zero value means DefaultLimits.
	Limits Limits
}

// edgeListMaxLine bounds one line; it only stops a corrupt file from growing the buffer.
const edgeListMaxLine = 1 << 20

// edgeListCompactMin is the number of held edges at which repeated pairs are first merged.
const edgeListCompactMin = 1 << 16

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
// line, before any matrix is allocated. The edges are held in memory until the end (24 bytes
// each) because the node count is known only then; repeated pairs are merged whenever the held
// edges double, so that a file repeating one edge for ever holds no more than the distinct
// pairs, at most (largest id + 1)², whose dense matrix the limits allow.
func ReadEdgeList(r io.Reader, name string, opt EdgeListOptions) (*Graph, error) {
	lim := opt.Limits.OrDefault()
	label := name
	if label == "" {
		label = "<edge list>"
	}
	switch {
	case opt.Nodes < 0:
		return nil, fmt.Errorf("%s: EdgeListOptions.Nodes = %d is negative", label, opt.Nodes)
	case opt.IDs < ZeroBased || opt.IDs > NodeNames:
		return nil, fmt.Errorf("%s: EdgeListOptions.IDs = %d is not one of ZeroBased, OneBased, NodeNames", label, int(opt.IDs))
	case opt.IDs == NodeNames && opt.Nodes != 0:
		return nil, fmt.Errorf("%s: EdgeListOptions.Nodes must be 0 with NodeNames ids (a node in no edge has no name)", label)
	}
	if opt.Nodes > 0 {
		if err := checkDenseSize(label, opt.Nodes, 0, lim); err != nil {
			return nil, err
		}
	}
	base := 0
	if opt.IDs == OneBased {
		base = 1
	}
	var names *nodeNames
	if opt.IDs == NodeNames {
		names = &nodeNames{index: map[string]int{}, lim: lim}
	}
	er := &edgeListReader{r: r}
	sc := bufio.NewScanner(er)
	sc.Buffer(make([]byte, 0, 64<<10), edgeListMaxLine)
	var edges []edgeListEdge
	minID, maxID, line := math.MaxInt, -1, 0
	compactAt := edgeListCompactMin
	for sc.Scan() {
		line++
		fields, err := edgeLineFields(sc.Text())
		if err == nil && len(fields) == 0 {
			continue
		}
		var e edgeListEdge
		declared := false
		switch {
		case err == nil && len(fields) == 1:
			// A node on its own line (networkx's write_adjlist writes isolated nodes so): it
			// counts for the node ids, with no edge.
			var id int
			if id, err = parseNodeField(fields[0], opt.Nodes, base, names, lim); err == nil {
				e, declared = edgeListEdge{u: id, v: id}, true
			}
		case err == nil:
			e, err = parseEdge(fields, opt.Nodes, base, names, lim)
		}
		if err != nil {
			if er.err != nil {
				// The scanner hands out what it had before a read error as a last line, which
				// may be cut short: the read error is the one to report.
				break
			}
			return nil, fmt.Errorf("%s:%d: %w", label, line, err)
		}
		minID = min(minID, e.u, e.v)
		if id := max(e.u, e.v); id > maxID {
			maxID = id
			if opt.Nodes == 0 {
				if err := checkDenseSize(fmt.Sprintf("%s:%d", label, line), maxID+1, 0, lim); err != nil {
					return nil, err
				}
			}
		}
		if declared {
			continue
		}
		edges = append(edges, e)
		if len(edges) >= compactAt {
			edges = compactEdges(edges, opt.Directed)
			compactAt = max(2*len(edges), edgeListCompactMin)
		}
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
		if opt.IDs == ZeroBased && minID > 0 {
			// Hand-written files and many tools number nodes from 1; reading such a file as
			// 0-based would add an isolated node 0 that changes every GW distance.
			return nil, fmt.Errorf("%s: %w (the smallest id is %d): the ids look %d-based; read them as OneBased or NodeNames ids, or give EdgeListOptions.Nodes to keep isolated nodes",
				label, ErrNoNodeZero, minID, minID)
		}
		n = maxID + 1
		if err := checkDenseSize(label, n, 0, lim); err != nil {
			return nil, err
		}
	}
	if names != nil {
		names.renumber(edges)
	}
	// Assignments in file order, as Set on a dense matrix would make them.
	entries := make([]csr.Entry, 0, 2*len(edges))
	for _, e := range edges {
		entries = append(entries, csr.Entry{Row: e.u, Col: e.v, Val: e.w})
		if !opt.Directed {
			entries = append(entries, csr.Entry{Row: e.v, Col: e.u, Val: e.w})
		}
	}
	return structureGraph(label, name, n, entries)
}

// structureGraph builds the graph of n nodes whose adjacency has entries (csr.Build's rules),
// uniform masses and no features; label names it in errors, name becomes Graph.Name.
func structureGraph(label, name string, n int, entries []csr.Entry) (*Graph, error) {
	c, err := csr.Build(n, entries)
	if err != nil {
		return nil, invalidf(label, "%v", err)
	}
	g, err := NewSparse(label, c, nil, nil)
	if err != nil {
		return nil, err
	}
	g.Name = name
	return g, nil
}

// nodeNames numbers the node names of an edge list in order of first appearance.
type nodeNames struct {
	index map[string]int
	names []string
	lim   Limits
}

// id is the number of name, a new one for a name not seen before.
func (nn *nodeNames) id(name string) (int, error) {
	if k, ok := nn.index[name]; ok {
		return k, nil
	}
	if err := nn.lim.checkNodes(fmt.Sprintf("node %q", name), len(nn.names)+1); err != nil {
		return 0, err
	}
	nn.index[name] = len(nn.names)
	nn.names = append(nn.names, name)
	return len(nn.names) - 1, nil
}

// renumber puts the nodes in numeric order when every name is an integer, so that "3 1" and
// "1 3" give the same matrix and integer ids keep their order.
func (nn *nodeNames) renumber(edges []edgeListEdge) {
	vals := make([]int, len(nn.names))
	for i, s := range nn.names {
		v, err := strconv.Atoi(s)
		if err != nil {
			return
		}
		vals[i] = v
	}
	order := make([]int, len(vals))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return vals[a] - vals[b] })
	rank := make([]int, len(vals))
	for r, i := range order {
		rank[i] = r
	}
	for k := range edges {
		edges[k].u, edges[k].v = rank[edges[k].u], rank[edges[k].v]
	}
}

// parseEdge parses the fields of one non-blank line: ids minus base, or numbered by names
// when it is not nil.
func parseEdge(fields []string, nodes, base int, names *nodeNames, lim Limits) (edgeListEdge, error) {
	if len(fields) != 2 && len(fields) != 3 {
		return edgeListEdge{}, fmt.Errorf("%d fields, want 1 to 3 (u v [weight], u v {attributes} as networkx writes, or a node on its own)", len(fields))
	}
	var ids [2]int
	for i := range ids {
		var err error
		if ids[i], err = parseNodeField(fields[i], nodes, base, names, lim); err != nil {
			return edgeListEdge{}, err
		}
	}
	u, v := ids[0], ids[1]
	var err error
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
		if e.w > MaxValue {
			return edgeListEdge{}, fmt.Errorf("weight %s", tooLargeValue(e.w))
		}
	}
	return e, nil
}

// parseNodeField is the node of one field: numbered by names when it is not nil, else parsed
// from base (parseNodeID).
func parseNodeField(field string, nodes, base int, names *nodeNames, lim Limits) (int, error) {
	if names != nil {
		return names.id(field)
	}
	return parseNodeID(field, nodes, base, lim)
}

// parseNodeID parses a node id numbered from base (0 or 1), checks it against the node count
// and the limits, and returns it 0-based.
func parseNodeID(s string, nodes, base int, lim Limits) (int, error) {
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
		return 0, fmt.Errorf("node id %s is negative (ids are %d-based)", s, base)
	}
	if id < base {
		return 0, fmt.Errorf("node id %d is below %d (ids are %d-based)", id, base, base)
	}
	row := id - base
	if nodes > 0 && row >= nodes {
		return 0, fmt.Errorf("node id %d is out of range for %d nodes (EdgeListOptions.Nodes; ids are %d-based)", id, nodes, base)
	}
	need := row
	if need < math.MaxInt {
		need++
	}
	return row, lim.checkNodes(fmt.Sprintf("node id %d", id), need)
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

// compactEdges keeps, for each pair of nodes (unordered in an undirected graph), the last of
// its lines: the one whose weight the matrix ends up with. It reorders the edges, which
// matters only between lines of the same pair.
func compactEdges(edges []edgeListEdge, directed bool) []edgeListEdge {
	key := func(e edgeListEdge) (int, int) {
		if !directed && e.v < e.u {
			return e.v, e.u
		}
		return e.u, e.v
	}
	// A stable sort keeps the lines of one pair in file order, so the last of a run is the
	// last line.
	slices.SortStableFunc(edges, func(a, b edgeListEdge) int {
		au, av := key(a)
		bu, bv := key(b)
		return cmp.Or(cmp.Compare(au, bu), cmp.Compare(av, bv))
	})
	out := edges[:0]
	for i, e := range edges {
		if i+1 < len(edges) {
			u, v := key(e)
			if nu, nv := key(edges[i+1]); u == nu && v == nv {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// edgeLineFields splits a line into its fields, its comment left out. When the text after two
// fields opens with "{", it is networkx's attribute dict, which may hold spaces and "#": its
// 'weight' comes back as the third field, and without one there are two.
func edgeLineFields(text string) ([]string, error) {
	if i := strings.IndexByte(text, '{'); i > 0 {
		head := text[:i]
		if fields := strings.Fields(head); len(fields) == 2 && !strings.Contains(head, "#") && strings.TrimRight(head, " \t") != head {
			w, ok, err := pyDictWeight(text[i:])
			if err != nil {
				return nil, fmt.Errorf("attribute dict: %w", err)
			}
			if ok {
				fields = append(fields, w)
			}
			return fields, nil
		}
	}
	if i := strings.IndexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	return strings.Fields(text), nil
}
