package graphs

// What the GraphML and GML readers share: the bound on the text they read, and attrGraph, the
// graph they collect. Both formats name nodes by id, may name a node in an edge before
// declaring it, and carry numeric node attributes.

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// textBytesPerEntry is a generous size of one adjacency entry in GraphML or GML text: an
// edge element with its weight, or half of one for an undirected edge.
const textBytesPerEntry = 128

// markupTextBound bounds a GraphML, GML, GEXF or adjacency list input: room for a
// MaxNodes×MaxNodes adjacency with features, and lim's share of memory for markup. The
// readers stream, but one token may be as long as the input.
func markupTextBound(lim Limits) textBound {
	n := int64(lim.OrDefault().MaxNodes)
	return newTextBound(lim, satMul(textBytesPerEntry, satMul(n, n+jsonFeatureAllowance)), markupTextShare)
}

// countingReader counts the bytes read and keeps the first read error other than io.EOF.
type countingReader struct {
	r   io.Reader
	n   int64
	err error
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return k, err
}

// boundedRead runs parse on r cut at bound.bytes+1 bytes and turns what went wrong into one
// error naming label: input too large, a read error, or parse's own.
func boundedRead(r io.Reader, label string, bound textBound, lim Limits, parse func(io.Reader) error) error {
	src := &countingReader{r: io.LimitReader(r, bound.bytes+1)}
	err := parse(src)
	switch {
	case src.n > bound.bytes:
		return bound.tooLarge(label, lim)
	case src.err != nil:
		return readError(label, src.err)
	}
	return err
}

// edgeKind says which entries of C an edge sets.
type edgeKind uint8

const (
	edgeByGraph    edgeKind = iota // as the graph says (GraphML edgedefault, GML directed)
	edgeDirected                   // C[u][v]
	edgeUndirected                 // C[u][v] and C[v][u]
)

// attrEntry is one edge held until the node count is known, its ends as slots.
type attrEntry struct {
	u, v  int32
	kind  edgeKind
	w     float64
	label float64 // the edge label's code (EdgeLabelCode, textLabelCode); 0: none
}

// attrNode is a node id met in the input.
type attrNode struct {
	id      string
	rank    int32  // position among the declared nodes; -1 while only edges name it
	refLine int    // the first edge that named it before its declaration
	refEnd  string // "source" or "target"
	attrs   map[string][]float64
}

// attrGraph collects a graph read by id and builds the Graph at the end. Ids get slots in
// order of first mention, so that an edge may come before its nodes; the rows of C are the
// declared nodes in document order.
type attrGraph struct {
	label       string
	lim         Limits
	attributes  bool // collect numeric node attributes
	omitPartial bool // leave out those some nodes lack (NodeLinkOptions.OmitPartialAttributes)
	directed    bool // how edgeByGraph edges set C
	index       map[string]int32
	nodes       []attrNode // by slot
	declared    int32
	entries     []attrEntry
	unlabelled  bool // an edge came without an edge label: the graph has none
	compactAt   int
	values      int64                // numeric attribute values held, bounded by MaxDenseBytes
	defaults    map[string][]float64 // values of nodes without the attribute (GraphML <default>)
	// With categories, the string node attributes by slot, and their defaults.
	categories  bool
	catValues   []map[string]string
	catDefaults map[string]string
}

func newAttrGraph(label string, lim Limits, opt NodeLinkOptions) *attrGraph {
	return &attrGraph{label: label, lim: lim, attributes: opt.Attributes, omitPartial: opt.OmitPartialAttributes,
		index: map[string]int32{}, compactAt: edgeListCompactMin}
}

// invalid is a structural error; callers add the input's name and line.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// slot is the slot of id, a new one for an id not met before; the ids met count against the
// node limit, so that a file naming too many is refused before it is all read.
func (g *attrGraph) slot(id string) (int32, error) {
	if s, ok := g.index[id]; ok {
		return s, nil
	}
	if err := g.lim.checkNodes(fmt.Sprintf("node %q", id), len(g.nodes)+1); err != nil {
		return 0, err
	}
	if len(g.nodes) >= math.MaxInt32 {
		return 0, fmt.Errorf("node %q: more than %d nodes", id, math.MaxInt32)
	}
	s := int32(len(g.nodes))
	g.index[id] = s
	g.nodes = append(g.nodes, attrNode{id: id, rank: -1})
	return s, nil
}

// declare makes id the next node (row) of the graph.
func (g *attrGraph) declare(id string) (int32, error) {
	s, err := g.slot(id)
	if err != nil {
		return 0, err
	}
	if g.nodes[s].rank >= 0 {
		return 0, invalid("node id %q appears twice", id)
	}
	g.nodes[s].rank = g.declared
	g.declared++
	return s, nil
}

// addValues counts k more (or, negative, fewer) attribute values against the memory limit.
func (g *attrGraph) addValues(k int) error {
	g.values += int64(k)
	if g.values > g.lim.MaxDenseBytes/8 {
		return fmt.Errorf("the numeric node attributes hold more than %d values, more than node features within the limit of %d bytes can have (raise Limits.MaxDenseBytes, or --max-memory on the command line)",
			g.lim.MaxDenseBytes/8, g.lim.MaxDenseBytes)
	}
	return nil
}

// finite refuses a non-finite attribute value: it would make a feature that no solver can use.
func finite(name string, xs []float64) error {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return invalid("attribute %q is %v, not a finite number", name, x)
		}
		if math.Abs(x) > MaxValue {
			return invalid("attribute %q is %s", name, tooLargeValue(x))
		}
	}
	return nil
}

// setAttr sets a numeric attribute of the node in slot s (only when attributes are read).
func (g *attrGraph) setAttr(s int32, name string, xs []float64) error {
	if !g.attributes {
		return nil
	}
	if err := finite(name, xs); err != nil {
		return err
	}
	n := &g.nodes[s]
	if n.attrs == nil {
		n.attrs = map[string][]float64{}
	}
	if err := g.addValues(len(xs) - len(n.attrs[name])); err != nil {
		return err
	}
	n.attrs[name] = xs
	return nil
}

// setCategory sets a string attribute of the node in slot s (only when categories are kept).
func (g *attrGraph) setCategory(s int32, name, value string) {
	if !g.categories {
		return
	}
	for int(s) >= len(g.catValues) {
		g.catValues = append(g.catValues, nil)
	}
	if g.catValues[s] == nil {
		g.catValues[s] = map[string]string{}
	}
	g.catValues[s][name] = value
}

// setCategoryDefault sets the value of a string attribute for the nodes that lack it.
func (g *attrGraph) setCategoryDefault(name, value string) {
	if !g.categories {
		return
	}
	if g.catDefaults == nil {
		g.catDefaults = map[string]string{}
	}
	g.catDefaults[name] = value
}

// nodeCategories are the kept string attributes in row order (slotOf: the slot of each row).
func (g *attrGraph) nodeCategories(slotOf []int32) nodeCategories {
	if !g.categories || (len(g.catValues) == 0 && len(g.catDefaults) == 0) {
		return nil
	}
	c := nodeCategories{}
	for row, s := range slotOf {
		var own map[string]string
		if int(s) < len(g.catValues) {
			own = g.catValues[s]
		}
		for name, v := range own {
			if v != "" {
				c.set(name, row, len(slotOf), v)
			}
		}
		for name, v := range g.catDefaults {
			if _, ok := own[name]; !ok && v != "" {
				c.set(name, row, len(slotOf), v)
			}
		}
	}
	return c
}

// setDefault sets the value of an attribute for the nodes that lack it.
func (g *attrGraph) setDefault(name string, x float64) error {
	if err := finite(name, []float64{x}); err != nil {
		return err
	}
	if g.defaults == nil {
		g.defaults = map[string][]float64{}
	}
	if _, ok := g.defaults[name]; !ok {
		if err := g.addValues(1); err != nil {
			return err
		}
	}
	g.defaults[name] = []float64{x}
	return nil
}

// edge holds an edge of weight w between two ids; line is where it is, for the error of an id
// that no node declares; label is its edge label's code, 0 for none (every edge needs one for
// the graph to have edge labels).
func (g *attrGraph) edge(source, target string, w float64, kind edgeKind, line int, label float64) error {
	if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
		return invalid("weight %v is not a finite non-negative number", w)
	}
	if w > MaxValue {
		return invalid("the edge from %q to %q: weight %s", source, target, tooLargeValue(w))
	}
	var ends [2]int32
	for i, id := range []string{source, target} {
		s, err := g.slot(id)
		if err != nil {
			return err
		}
		if n := &g.nodes[s]; n.rank < 0 && n.refLine == 0 {
			n.refLine, n.refEnd = line, []string{"source", "target"}[i]
		}
		ends[i] = s
	}
	g.entries = append(g.entries, attrEntry{u: ends[0], v: ends[1], kind: kind, w: w, label: label})
	g.unlabelled = g.unlabelled || label == 0
	if len(g.entries) >= g.compactAt {
		g.entries = sumEntries(g.entries)
		g.compactAt = max(2*len(g.entries), edgeListCompactMin)
	}
	return nil
}

// sumEntries merges the entries of one edge (the same ends and kind; either order for an
// undirected one) into one whose weight is their sum, so that parallel edges add up and a
// file repeating an edge holds no more than the distinct ones. The stable sort sums in file
// order, as adding them one at a time would.
func sumEntries(entries []attrEntry) []attrEntry {
	key := func(e attrEntry) (edgeKind, int32, int32) {
		if e.kind == edgeUndirected && e.v < e.u {
			return e.kind, e.v, e.u
		}
		return e.kind, e.u, e.v
	}
	slices.SortStableFunc(entries, func(a, b attrEntry) int {
		ak, au, av := key(a)
		bk, bu, bv := key(b)
		return cmp.Or(cmp.Compare(ak, bk), cmp.Compare(au, bu), cmp.Compare(av, bv))
	})
	out := entries[:0]
	for _, e := range entries {
		if k := len(out) - 1; k >= 0 {
			pk, pu, pv := key(out[k])
			if ek, eu, ev := key(e); ek == pk && eu == pu && ev == pv {
				out[k].w += e.w
				out[k].label = e.label // the last parallel edge's label
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// build makes the Graph: every id an edge names must be a declared node.
func (g *attrGraph) build(name string) (*Graph, error) {
	for _, n := range g.nodes {
		if n.rank < 0 {
			return nil, invalidf(fmt.Sprintf("%s:%d", g.label, n.refLine), "edge %s %q is not the id of a node", n.refEnd, n.id)
		}
	}
	n := int(g.declared)
	if n == 0 {
		return nil, invalidf(g.label, "no nodes: a graph needs at least one node")
	}
	// Slots are in order of first mention, which an edge naming a node early changes.
	slotOf := make([]int32, n)
	for s, node := range g.nodes {
		slotOf[node.rank] = int32(s)
	}
	var f *mat.Dense
	var cols []attrColumn
	var omitted []omittedAttr
	if g.attributes {
		var err error
		if f, cols, omitted, err = g.features(slotOf); err != nil {
			return nil, err
		}
	}
	if f == nil {
		if err := checkDenseSize(g.label, n, 0, g.lim); err != nil {
			return nil, err
		}
	}
	g.entries = sumEntries(g.entries)
	entries := make([]csr.Entry, 0, 2*len(g.entries))
	for _, e := range g.entries {
		entries = g.appendEntries(entries, e, e.w)
	}
	// An edge may be there as directed and as undirected, or in both orders: sum once more by
	// position, in place of csr.Build's last-wins.
	slices.SortStableFunc(entries, func(a, b csr.Entry) int {
		return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col))
	})
	out := entries[:0]
	for _, e := range entries {
		if k := len(out) - 1; k >= 0 && out[k].Row == e.Row && out[k].Col == e.Col {
			out[k].Val += e.Val
		} else {
			out = append(out, e)
		}
	}
	for _, e := range out {
		if e.Val > MaxValue {
			return nil, invalidf(g.label, "the weights of the edges from %q to %q add up to %s", g.nodes[slotOf[e.Row]].id, g.nodes[slotOf[e.Col]].id, tooLargeValue(e.Val))
		}
	}
	c, err := csr.Build(n, out)
	if err != nil {
		return nil, invalidf(g.label, "%v", err)
	}
	gr, err := NewSparse(g.label, c, nil, f)
	if err != nil {
		return nil, err
	}
	gr.Name = name
	gr.attrColumns, gr.omittedAttrs = cols, omitted
	gr.categories = g.nodeCategories(slotOf)
	if err := g.edgeLabels(gr); err != nil {
		return nil, err
	}
	return gr, nil
}

// appendEntries appends the matrix entries of edge e with value x: (u, v), and (v, u) when
// the edge is undirected.
func (g *attrGraph) appendEntries(out []csr.Entry, e attrEntry, x float64) []csr.Entry {
	u, v := int(g.nodes[e.u].rank), int(g.nodes[e.v].rank)
	out = append(out, csr.Entry{Row: u, Col: v, Val: x})
	if u != v && (e.kind == edgeUndirected || e.kind == edgeByGraph && !g.directed) {
		out = append(out, csr.Entry{Row: v, Col: u, Val: x})
	}
	return out
}

// edgeLabels sets gr's EdgeLabels when every edge came with a label: at each entry of the
// adjacency, the label of the last edge there.
func (g *attrGraph) edgeLabels(gr *Graph) error {
	if g.unlabelled || len(g.entries) == 0 {
		return nil
	}
	labels := make([]csr.Entry, 0, 2*len(g.entries))
	for _, e := range g.entries {
		labels = g.appendEntries(labels, e, e.label)
	}
	return gr.setEdgeLabels(g.label, labels)
}

// features makes F of the numeric attributes, by name in sorted order, and names its
// columns: every node must have each that any node has (or a default gives), with the same
// number of values; with omitPartial, one that some node lacks is left out instead, and
// said in omitted. nil when there are none.
func (g *attrGraph) features(slotOf []int32) (*mat.Dense, []attrColumn, []omittedAttr, error) {
	type column struct {
		attrColumn
		first string // the first node with it, for errors
	}
	seen := map[string]bool{}
	var cols []column
	for _, s := range slotOf {
		node := &g.nodes[s]
		for _, a := range slices.Sorted(maps.Keys(node.attrs)) {
			if !seen[a] {
				seen[a] = true
				cols = append(cols, column{attrColumn{a, len(node.attrs[a])}, node.id})
			}
		}
	}
	for _, a := range slices.Sorted(maps.Keys(g.defaults)) {
		if !seen[a] {
			seen[a] = true
			cols = append(cols, column{attrColumn{a, len(g.defaults[a])}, ""})
		}
	}
	slices.SortFunc(cols, func(a, b column) int { return strings.Compare(a.name, b.name) })
	// values is node i's values of column c, false where it lacks them.
	values := func(i int, c column) ([]float64, bool) {
		node := &g.nodes[slotOf[i]]
		if xs, ok := node.attrs[c.name]; ok {
			return xs, true
		}
		xs, ok := g.defaults[c.name]
		return xs, ok
	}
	var kept []attrColumn
	var omitted []omittedAttr
	d := 0
	for _, c := range cols {
		lacking := ""
		for i, s := range slotOf {
			xs, ok := values(i, c)
			id := g.nodes[s].id
			switch {
			case !ok && g.omitPartial:
				lacking = id
			case !ok:
				return nil, nil, nil, invalidf(g.label, "node %q lacks the numeric attribute %q that node %q has: every node needs the same ones to make features (%s)", id, c.name, c.first, partialAttrHint)
			case len(xs) != c.width:
				return nil, nil, nil, invalidf(g.label, "node %q has %d values of the numeric attribute %q, node %q has %d: every node needs the same ones to make features (or leave them out with --features labels or none)", id, len(xs), c.name, c.first, c.width)
			}
			if lacking != "" {
				break
			}
		}
		if lacking != "" {
			omitted = append(omitted, omittedAttr{name: c.name, node: strconv.Quote(lacking), has: strconv.Quote(c.first)})
			continue
		}
		kept = append(kept, c.attrColumn)
		d += c.width
	}
	if d == 0 {
		return nil, nil, omitted, nil
	}
	n := len(slotOf)
	if err := checkDenseSize(g.label, n, d, g.lim); err != nil {
		return nil, nil, nil, err
	}
	f := mat.NewDense(n, d, nil)
	for i := range slotOf {
		row := f.RawRowView(i)[:0]
		for _, c := range kept {
			xs, _ := values(i, column{attrColumn: c})
			row = append(row, xs...)
		}
	}
	return f, kept, omitted, nil
}
