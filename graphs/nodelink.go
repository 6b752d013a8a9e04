package graphs

// Reader for networkx's node-link JSON (networkx.node_link_data / json_graph):
//
//	{"directed": false, "multigraph": false, "graph": {"label": 1},
//	 "nodes": [{"id": "a", "charge": 0.5}, {"id": "b", "charge": -1}],
//	 "links": [{"source": "a", "target": "b", "weight": 2}]}
//
// Node ids are any JSON value (strings, numbers); the nodes are rows of C in the order of
// "nodes". "edges" is accepted for "links" (networkx ≥ 3.4 can write either), and so is
// networkx's adjacency JSON (networkx.adjacency_data): "adjacency" lists, for each node in the
// order of "nodes", its neighbours as {"id": ..., "weight": ...}, and "graph" is a list of
// [key, value] pairs. A link's
// "weight" is its entry of C (1 when absent); in a multigraph the weights of parallel links
// add up. A link's "label" (an integer or a text: a bond type), where every link has one, is
// its edge label (Graph.EdgeLabels; the last of parallel links wins). Numeric node attributes are features (NodeLinkOptions.Attributes), string ones
// ReadFolder's node labels (NodeLinkOptions.Categories); other fields are ignored: node-link
// files carry arbitrary attributes.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// NodeLinkOptions tells ReadNodeLink what to read besides the structure.
type NodeLinkOptions struct {
	// Attributes makes the numeric node attributes (numbers and arrays of numbers, by attribute
	// name in sorted order; "id", and "label" where it is an integer, excluded) the node
	// features F. Every node must have the same numeric attributes. Without it, or when the
	// nodes have none, F is nil.
	Attributes bool
	// OmitPartialAttributes, with Attributes, leaves out a numeric attribute that some nodes
	// lack (GraphML, GML: and no default gives) instead of refusing the graph; ReadFolder leaves
	// it out of every graph and says so (FolderOptions.OmitPartialAttributes).
	OmitPartialAttributes bool
	// Categories keeps the string node attributes, and integer ones named "label" (node labels
	// of networkx graphs made from TU data), for ReadFolder to one-hot encode (FeaturesLabels
	// over a folder's values); a single graph does not use them. GraphML keys and GEXF
	// attributes named "label" of an integer type are categories too.
	Categories bool
	// Limits bounds the node count and memory; the zero value means DefaultLimits.
	Limits Limits
}

// nodeLink is the JSON form; attributes stay raw until they are needed.
type nodeLink struct {
	Directed   bool                                    `json:"directed"`
	Multigraph bool                                    `json:"multigraph"`
	Graph      nodeLinkGraphAttrs                      `json:"graph"` // an object, or adjacency_data's [key, value] pairs
	Nodes      limitedList[map[string]json.RawMessage] `json:"nodes"`
	Links      limitedList[nodeLinkLink]               `json:"links"`
	Edges      limitedList[nodeLinkLink]               `json:"edges"`
	// Adjacency is adjacency_data's: per node, the raw list of its neighbours, decoded one
	// node at a time (nodeLinkAdjacency).
	Adjacency limitedList[json.RawMessage] `json:"adjacency"`
}

type nodeLinkLink struct {
	Source json.RawMessage `json:"source"`
	Target json.RawMessage `json:"target"`
	Weight *float64        `json:"weight"`
	Label  json.RawMessage `json:"label"` // an edge label (bond type): an integer or a text
}

// ReadNodeLink reads one graph in networkx's node-link JSON; name identifies the input in
// errors and becomes Graph.Name. A "label" in the "graph" object (an integer or a text; or
// "y", "class", "target", "graph_label": graphLabelKeys) becomes the graph's class label. The input is bounded like ReadJSON's, and the node count is checked against
// the limits before any matrix is built.
func ReadNodeLink(r io.Reader, name string, opt NodeLinkOptions) (*Graph, error) {
	lim := opt.Limits.OrDefault()
	label := name
	if label == "" {
		label = "<node-link json>"
	}
	b, err := readJSONText(r, label, lim)
	if err != nil {
		return nil, err
	}
	return readNodeLinkText(b, name, label, opt)
}

// readNodeLinkText decodes b, node-link JSON (ReadNodeLink), in place.
func readNodeLinkText(b []byte, name, label string, opt NodeLinkOptions) (*Graph, error) {
	lim := opt.Limits.OrDefault()
	// Lists are counted in the text before they are decoded (see limitedList): a node is a map
	// of a few hundred bytes, so 30 MB of "{}," would otherwise take 600 MB before the node
	// limit is checked. A graph within the limits has at most MaxNodes² distinct links, whose
	// decoded form (about 64 bytes each) must also fit in MaxDenseBytes.
	maxLinks := int(min(int64(lim.MaxNodes)*int64(lim.MaxNodes), lim.MaxDenseBytes/64, math.MaxInt32))
	nl := nodeLink{
		Nodes: limitedList[map[string]json.RawMessage]{field: "nodes", nodes: true, max: lim.MaxNodes},
		Links: limitedList[nodeLinkLink]{field: "links", max: maxLinks},
		Edges: limitedList[nodeLinkLink]{field: "edges", max: maxLinks},
		// One list per node: as many as the nodes.
		Adjacency: limitedList[json.RawMessage]{field: "adjacency", nodes: true, max: lim.MaxNodes},
	}
	if err := json.Unmarshal(b, &nl); err != nil {
		return nil, jsonDecodeError(label, b, err)
	}
	g, err := nl.graph(name, label, opt)
	if err == nil && opt.Categories {
		g.categories = nodeLinkCategories(nl.Nodes.list)
	}
	return g, err
}

// nodeLinkKey is the canonical text of a JSON value, so that "a" and "a" with other spacing
// are one id while "1" and 1 stay two (as in networkx).
func nodeLinkKey(raw json.RawMessage) (string, bool) {
	var b bytes.Buffer
	if len(raw) == 0 || json.Compact(&b, raw) != nil || b.String() == "null" {
		return "", false
	}
	return b.String(), true
}

func (nl *nodeLink) graph(name, label string, opt NodeLinkOptions) (*Graph, error) {
	lim := opt.Limits.OrDefault()
	if nl.Nodes.list == nil {
		return nil, invalidf(label, `no "nodes" array; want networkx node-link JSON such as {"nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 1}]}`)
	}
	n := len(nl.Nodes.list)
	if n == 0 {
		return nil, invalidf(label, `"nodes" is empty: a graph needs at least one node`)
	}
	if err := lim.checkNodes(label, n); err != nil {
		return nil, err
	}
	index := make(map[string]int, n)
	for i, node := range nl.Nodes.list {
		key, ok := nodeLinkKey(node["id"])
		if !ok {
			return nil, invalidf(label, `node %d has no "id"`, i)
		}
		if j, dup := index[key]; dup {
			return nil, invalidf(label, "nodes %d and %d have the same id %s", j, i, key)
		}
		index[key] = i
	}
	var f *mat.Dense
	var cols []attrColumn
	var omitted []omittedAttr
	if opt.Attributes {
		var err error
		if f, cols, omitted, err = nodeLinkFeatures(nl.Nodes.list, label, opt); err != nil {
			return nil, err
		}
	}
	if f == nil {
		if err := checkDenseSize(label, n, 0, lim); err != nil {
			return nil, err
		}
	}
	c := mat.NewDense(n, n, nil)
	var err error
	if nl.Links.list == nil && nl.Edges.list == nil && nl.Adjacency.list != nil {
		err = nl.adjacency(c, index, label)
	} else {
		err = nl.links(c, index, label)
	}
	if err != nil {
		return nil, err
	}
	g, err := New(label, c, nil, f)
	if err != nil {
		return nil, err
	}
	if err := nl.edgeLabels(g, index, label); err != nil {
		return nil, err
	}
	g.Name = name
	g.attrColumns, g.omittedAttrs = cols, omitted
	if nl.Graph.err != nil {
		return nil, invalidf(label, "%v", nl.Graph.err)
	}
	if err := g.setNodeLinkLabel(nl.Graph.attrs); err != nil {
		return nil, invalidf(label, "%v", err)
	}
	return g, nil
}

// setNodeLinkLabel sets the class label from the first of graphLabelKeys in the "graph"
// attributes: an integer or a text, or a list of one (PyTorch Geometric's y of one graph).
func (g *Graph) setNodeLinkLabel(attrs map[string]graphAttrValue) error {
	for _, key := range graphLabelKeys {
		v, ok := attrs[key]
		if !ok {
			continue
		}
		if v.raw == nil {
			return fmt.Errorf(`"graph" %q is %d bytes long, want an integer or a text (or give labels in a labels.csv)`, key, v.size)
		}
		raw := v.raw
		var y int
		var text string
		var one []json.RawMessage
		if json.Unmarshal(raw, &one) == nil && len(one) == 1 {
			raw = one[0]
		}
		switch {
		case json.Unmarshal(raw, &y) == nil:
			g.Label, g.HasLabel = y, true
		case json.Unmarshal(raw, &text) == nil && g.setFileLabel(text) == nil:
		default:
			return fmt.Errorf(`"graph" %q is %s, want an integer or a text (or give labels in a labels.csv)`, key, v.raw)
		}
		return nil
	}
	return nil
}

// links sets the entries of c from "links" (or "edges").
func (nl *nodeLink) links(c *mat.Dense, index map[string]int, label string) error {
	links, key := nl.Links.list, "links"
	if links == nil {
		links, key = nl.Edges.list, "edges"
	}
	for k, l := range links {
		var end [2]int
		for e, raw := range []json.RawMessage{l.Source, l.Target} {
			id, ok := nodeLinkKey(raw)
			if !ok {
				return invalidf(label, `%s[%d] has no "%s"`, key, k, []string{"source", "target"}[e])
			}
			i, ok := index[id]
			if !ok {
				return invalidf(label, `%s[%d]: %s %s is not the id of a node`, key, k, []string{"source", "target"}[e], id)
			}
			end[e] = i
		}
		if err := nl.addEdge(c, end[0], end[1], l.Weight, label, fmt.Sprintf("%s[%d]", key, k)); err != nil {
			return err
		}
	}
	return nil
}

// adjacency sets the entries of c from adjacency_data's "adjacency": node i's list names its
// neighbours. An undirected graph lists each edge under both ends: the entry is set once per
// end (in a multigraph, each end sums its own parallel edges), so nothing is counted twice.
func (nl *nodeLink) adjacency(c *mat.Dense, index map[string]int, label string) error {
	if len(nl.Adjacency.list) != len(nl.Nodes.list) {
		return invalidf(label, `"adjacency" has %d lists for %d nodes`, len(nl.Adjacency.list), len(nl.Nodes.list))
	}
	for i, raw := range nl.Adjacency.list {
		var nbrs []struct {
			ID     json.RawMessage `json:"id"`
			Weight *float64        `json:"weight"`
		}
		if err := json.Unmarshal(raw, &nbrs); err != nil {
			return invalidf(label, `adjacency[%d]: want a list of neighbours such as [{"id": 1}]: %v`, i, err)
		}
		for k, nb := range nbrs {
			id, ok := nodeLinkKey(nb.ID)
			if !ok {
				return invalidf(label, `adjacency[%d][%d] has no "id"`, i, k)
			}
			j, ok := index[id]
			if !ok {
				return invalidf(label, `adjacency[%d][%d]: %s is not the id of a node`, i, k, id)
			}
			w, err := nodeLinkWeight(nb.Weight, label, fmt.Sprintf("adjacency[%d][%d]", i, k))
			if err != nil {
				return err
			}
			if nl.Multigraph {
				if w += c.At(i, j); w > MaxValue {
					return invalidf(label, "adjacency[%d][%d]: the weights of the parallel edges add up to %s", i, k, tooLargeValue(w))
				}
			}
			c.Set(i, j, w)
		}
	}
	if !nl.Directed { // a file that lists an edge under one end only
		for i := range len(nl.Nodes.list) {
			for j := range i {
				w := max(c.At(i, j), c.At(j, i))
				c.Set(i, j, w)
				c.Set(j, i, w)
			}
		}
	}
	return nil
}

// addEdge sets (or in a multigraph adds to) the entry u, v of c, and v, u when undirected.
func (nl *nodeLink) addEdge(c *mat.Dense, u, v int, weight *float64, label, where string) error {
	w, err := nodeLinkWeight(weight, label, where)
	if err != nil {
		return err
	}
	if nl.Multigraph {
		if w += c.At(u, v); w > MaxValue {
			return invalidf(label, "%s: the weights of the parallel edges add up to %s", where, tooLargeValue(w))
		}
	}
	c.Set(u, v, w)
	if !nl.Directed {
		c.Set(v, u, w)
	}
	return nil
}

// nodeLinkWeight is an edge's weight: 1 when absent, else a finite non-negative number.
func nodeLinkWeight(weight *float64, label, where string) (float64, error) {
	if weight == nil {
		return 1, nil
	}
	if w := *weight; math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
		return 0, invalidf(label, "%s: weight %v is not a finite non-negative number", where, w)
	}
	if *weight > MaxValue {
		return 0, invalidf(label, "%s: weight %s", where, tooLargeValue(*weight))
	}
	return *weight, nil
}

// nodeLinkGraphAttrs are the attributes of "graph": an object (node-link) or a list of
// [key, value] pairs (adjacency_data); absent or null, none. Values are kept only where short
// enough to be a class label (graphAttrValue). A "graph" of another form is err, for the
// reader to refuse as an invalid graph.
type nodeLinkGraphAttrs struct {
	attrs map[string]graphAttrValue
	err   error
}

func (a *nodeLinkGraphAttrs) UnmarshalJSON(data []byte) error {
	a.attrs, a.err = nil, nil
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return nil
	}
	if data[0] == '[' {
		var pairs [][]graphAttrValue
		if err := json.Unmarshal(data, &pairs); err != nil {
			a.err = fmt.Errorf(`"graph" is a list but not of [key, value] pairs: %v`, err)
			return nil
		}
		a.attrs = make(map[string]graphAttrValue, len(pairs))
		for k, p := range pairs {
			var key string
			if len(p) != 2 || p[0].first != '"' {
				a.err = fmt.Errorf(`"graph"[%d] is not a [key, value] pair with a string key`, k)
				return nil
			}
			if p[0].raw != nil && json.Unmarshal(p[0].raw, &key) == nil { // a long key is no label's
				a.attrs[key] = p[1]
			}
		}
		return nil
	}
	if err := json.Unmarshal(data, &a.attrs); err != nil {
		a.err = fmt.Errorf(`"graph" is neither an object nor a list of [key, value] pairs: %v`, err)
	}
	return nil
}

// graphAttrMaxBytes is the longest graph attribute value kept: a class label is an integer or
// a short text.
const graphAttrMaxBytes = 4 << 10

// graphAttrValue is the value of a graph attribute, its text kept only when it is at most
// graphAttrMaxBytes long: a long one (an embedding, a list of thousands of numbers) is not
// copied.
type graphAttrValue struct {
	raw   json.RawMessage // nil for a long value
	size  int             // the length of its text
	first byte            // its first byte: '"' for a text
}

func (v *graphAttrValue) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	*v = graphAttrValue{size: len(data)}
	if len(data) > 0 {
		v.first = data[0]
	}
	if len(data) <= graphAttrMaxBytes {
		v.raw = append(json.RawMessage(nil), data...)
	}
	return nil
}

// nodeLinkCategories are the string attributes of the nodes ("id" aside), nil when none has
// any.
func nodeLinkCategories(nodes []map[string]json.RawMessage) nodeCategories {
	var c nodeCategories
	for i, node := range nodes {
		for name, raw := range node {
			var v string
			switch {
			case name == labelAttribute && integerLiteral(raw):
				v = string(bytes.TrimSpace(raw)) // a node label written as an integer
			case name == "id" || len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &v) != nil || v == "":
				continue
			}
			if c == nil {
				c = nodeCategories{}
			}
			c.set(name, i, len(nodes), v)
		}
	}
	return c
}

// nodeLinkFeatures builds F from the numeric attributes of the nodes, by name in sorted
// order, and names its columns: every node must have each that any node has, with the same
// number of values; with opt.OmitPartialAttributes, one that some node lacks is left out
// instead, and said in omitted. nil when the nodes have none.
func nodeLinkFeatures(nodes []map[string]json.RawMessage, label string, opt NodeLinkOptions) (*mat.Dense, []attrColumn, []omittedAttr, error) {
	lim := opt.Limits.OrDefault()
	// id names node i in messages by its id, as the file writes it.
	id := func(i int) string {
		key, _ := nodeLinkKey(nodes[i]["id"]) // checked
		return key
	}
	// The values of each node's numeric attributes (numbers, arrays of numbers; "id", and
	// "label" where it is an integer, excluded), counted against the memory limit before an
	// array is decoded, and the attributes by name, with the first node that has each.
	values := make([]map[string][]float64, len(nodes))
	first := map[string]int{}
	total := int64(0)
	for i, node := range nodes {
		for k, raw := range node {
			if k == "id" || (k == labelAttribute && integerLiteral(raw)) {
				continue
			}
			if n, ok := jsonArrayLen(raw); ok {
				if total += int64(n); total > lim.MaxDenseBytes/8 {
					return nil, nil, nil, invalidf(label, "the numeric node attributes hold more than %d values, more than node features within the limit of %d bytes can have (raise Limits.MaxDenseBytes, or --max-memory on the command line)",
						lim.MaxDenseBytes/8, lim.MaxDenseBytes)
				}
			}
			xs, ok := nodeLinkNumeric(raw)
			if !ok {
				continue
			}
			for _, x := range xs {
				if math.Abs(x) > MaxValue {
					return nil, nil, nil, invalidf(label, "node %s: attribute %q is %s", id(i), k, tooLargeValue(x))
				}
			}
			if values[i] == nil {
				values[i] = map[string][]float64{}
			}
			values[i][k] = xs
			if _, seen := first[k]; !seen {
				first[k] = i
			}
		}
	}
	var kept []attrColumn
	var omitted []omittedAttr
	d := 0
	for _, name := range slices.Sorted(maps.Keys(first)) {
		f := first[name]
		c := attrColumn{name, len(values[f][name])}
		lacking := -1
		for i := range nodes {
			xs, ok := values[i][name]
			switch {
			case !ok && opt.OmitPartialAttributes:
				lacking = i
			case !ok:
				return nil, nil, nil, invalidf(label, "node %s lacks the numeric attribute %q that node %s has: every node needs the same ones to make features (%s)", id(i), name, id(f), partialAttrHint)
			case len(xs) != c.width:
				return nil, nil, nil, invalidf(label, "node %s has %d values of the numeric attribute %q, node %s has %d: every node needs the same ones to make features (or leave them out with --features labels or none)", id(i), len(xs), name, id(f), c.width)
			}
			if lacking >= 0 {
				break
			}
		}
		if lacking >= 0 {
			omitted = append(omitted, omittedAttr{name: name, node: id(lacking), has: id(f)})
			continue
		}
		kept = append(kept, c)
		d += c.width
	}
	if d == 0 {
		return nil, nil, omitted, nil
	}
	if err := checkDenseSize(label, len(nodes), d, lim); err != nil {
		return nil, nil, nil, err
	}
	f := mat.NewDense(len(nodes), d, nil)
	for i := range nodes {
		row := f.RawRowView(i)[:0]
		for _, c := range kept {
			row = append(row, values[i][c.name]...)
		}
	}
	return f, kept, omitted, nil
}

// nodeLinkNumeric parses a node attribute that is a number or a non-empty array of numbers;
// ok is false for other values.
func nodeLinkNumeric(raw json.RawMessage) ([]float64, bool) {
	if string(bytes.TrimSpace(raw)) == "null" {
		return nil, false // Unmarshal accepts null as any type
	}
	var x float64
	if json.Unmarshal(raw, &x) == nil {
		return []float64{x}, true
	}
	var xs []float64
	if json.Unmarshal(raw, &xs) == nil && len(xs) > 0 {
		return xs, true
	}
	return nil, false
}

// labelAttribute is the node attribute that holds node labels where they are integers
// (networkx graphs made from TU data: G.nodes[v]["label"] = 3): a category, as a text label
// is, not a number to compare by size.
const labelAttribute = "label"

// integerLiteral reports whether raw is a JSON integer: digits, with an optional minus.
func integerLiteral(raw json.RawMessage) bool {
	t := bytes.TrimPrefix(bytes.TrimSpace(raw), []byte("-"))
	if len(t) == 0 {
		return false
	}
	for _, b := range t {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}
