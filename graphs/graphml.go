package graphs

// Reader for GraphML (http://graphml.graphdrawing.org/), as networkx's write_graphml, Gephi,
// igraph and yEd write it:
//
//	<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
//	  <key id="d0" for="node" attr.name="charge" attr.type="double"><default>0</default></key>
//	  <key id="d1" for="edge" attr.name="weight" attr.type="double"/>
//	  <key id="d2" for="graph" attr.name="label" attr.type="long"/>
//	  <graph edgedefault="undirected">
//	    <data key="d2">1</data>
//	    <node id="a"><data key="d0">0.5</data></node>
//	    <node id="b"/>
//	    <edge source="a" target="b"><data key="d1">2</data></edge>
//	  </graph>
//	</graphml>
//
// Only the first <graph> of a file is read. The nodes are rows of C in document order. An edge
// attribute named "weight" is the entry of C (1 when absent); parallel edges add up (networkx
// reads them as a multigraph). An edge attribute "label" (an integer or a text: a bond type),
// where every edge has one, is the edge's label (Graph.EdgeLabels). An edge's own
// directed="true|false" overrides edgedefault.
// Hyperedges and graphs nested in nodes or edges are refused; ports, <desc> and extension
// elements (yFiles graphics) are ignored.

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// graphmlMaxDepth bounds element nesting; GraphML with yFiles graphics needs about ten.
const graphmlMaxDepth = 64

// ReadGraphML reads the first graph of a GraphML document; name identifies the input in errors
// and becomes Graph.Name. With opt.Attributes the numeric node attributes (keys of attr.type
// int, long, float or double, by attribute name in sorted order) are the node features: every
// node must have each, from its own <data> or the key's <default>. Boolean and string
// attributes are not features; with opt.Categories the string ones are kept for ReadFolder's
// node labels. A graph attribute "label" (or "y", "class", "target", "graph_label":
// graphLabelKeys) becomes the class label (a text one is mapped to a class by ReadFolder,
// with the labels of the other files).
// The input is bounded, and the node count is checked against opt.Limits as nodes appear.
func ReadGraphML(r io.Reader, name string, opt NodeLinkOptions) (*Graph, error) {
	lim := opt.Limits.OrDefault()
	label := name
	if label == "" {
		label = "<graphml>"
	}
	p := &graphmlParser{label: label, keys: map[string]*graphmlKey{}, g: newAttrGraph(label, lim, opt)}
	p.g.categories = opt.Categories
	err := boundedRead(r, label, markupTextBound(lim), lim, func(src io.Reader) error {
		p.d = xml.NewDecoder(src)
		p.d.CharsetReader = graphmlCharset
		return p.document()
	})
	if err != nil {
		return nil, err
	}
	g, err := p.g.build(name)
	if err != nil {
		return nil, err
	}
	if p.graphLabel != nil {
		if err := g.setFileLabel(*p.graphLabel); err != nil {
			return nil, invalidf(label, `graph attribute %q: %v`, p.labelKey, err)
		}
	}
	return g, nil
}

// graphmlCharset reads the encodings other than UTF-8 that a document may declare: US-ASCII,
// a subset of it; others are refused with a hint.
func graphmlCharset(charset string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "us-ascii", "ascii":
		return r, nil
	}
	return nil, errors.New("not supported: convert the file to UTF-8")
}

// graphmlKey is a <key> declaration.
type graphmlKey struct {
	name    string // attr.name, or the key's id when it has none
	domain  string // "for": node, edge, graph, all, ...
	numeric bool   // attr.type int, long, float or double
	text    bool   // attr.type string
	def     *string
	line    int
}

// on reports whether the key applies to elements of the given kind.
func (k *graphmlKey) on(kind string) bool { return k.domain == kind || k.domain == "all" }

type graphmlParser struct {
	d          *xml.Decoder
	label      string
	keys       map[string]*graphmlKey
	order      []*graphmlKey // keys in declaration order
	g          *attrGraph
	depth      int
	edges      int
	graphLabel *string // the graph attribute of graphLabelKeys read as the class label
	labelKey   string  // its key
	weight     *string // the default weight of edges, from a "weight" key's <default>
	edgeLabel  float64 // the default edge label's code, from a "label" key's <default>
}

// setGraphLabel keeps the graph attribute key's value as the class label where key comes
// first in graphLabelKeys of those seen (a <data> replaces its own key's <default>).
func (p *graphmlParser) setGraphLabel(key string, text *string) {
	if prefersGraphLabel(key, p.labelKey) {
		p.graphLabel, p.labelKey = text, key
	}
}

// line is the input line the decoder has reached.
func (p *graphmlParser) line() int {
	line, _ := p.d.InputPos()
	return line
}

// errorf is an error at the current line.
func (p *graphmlParser) errorf(format string, args ...any) error {
	return invalidf(fmt.Sprintf("%s:%d", p.label, p.line()), format, args...)
}

// next is the decoder's next token, with the nesting depth tracked and bounded.
func (p *graphmlParser) next() (xml.Token, error) {
	tok, err := p.d.Token()
	if err == io.EOF {
		return nil, io.EOF
	}
	if err != nil {
		var syn *xml.SyntaxError
		if errors.As(err, &syn) {
			return nil, fmt.Errorf("%s:%d: not well-formed XML: %s", p.label, syn.Line, syn.Msg)
		}
		return nil, fmt.Errorf("%s:%d: %w", p.label, p.line(), err)
	}
	switch tok.(type) {
	case xml.StartElement:
		p.depth++
		if p.depth > graphmlMaxDepth {
			return nil, p.errorf("elements nested more than %d deep", graphmlMaxDepth)
		}
	case xml.EndElement:
		p.depth--
	}
	return tok, nil
}

// inside calls child for each element directly inside the element just started, and returns
// at its end. Text between the children is ignored.
func (p *graphmlParser) inside(child func(xml.StartElement) error) error {
	level := p.depth
	for {
		tok, err := p.next()
		if err == io.EOF {
			return p.errorf("unexpected end of input") // the decoder reports unclosed tags itself
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := child(t); err != nil {
				return err
			}
			if p.depth != level {
				return fmt.Errorf("%s: internal error: <%s> left unfinished", p.label, t.Name.Local)
			}
		case xml.EndElement:
			if p.depth < level {
				return nil
			}
		}
	}
}

// skip consumes the rest of the element just started.
func (p *graphmlParser) skip(xml.StartElement) error {
	return p.inside(p.skip)
}

// text is the character data of the element just started; complex is true when it has child
// elements (yFiles graphics in a <data>), whose text is left out.
func (p *graphmlParser) text() (text string, complex bool, err error) {
	level := p.depth
	var b strings.Builder
	for {
		tok, err := p.next()
		if err == io.EOF {
			return "", false, p.errorf("unexpected end of input")
		}
		if err != nil {
			return "", false, err
		}
		switch t := tok.(type) {
		case xml.CharData:
			if p.depth == level {
				b.Write(t)
			}
		case xml.StartElement:
			complex = true
		case xml.EndElement:
			if p.depth < level {
				return b.String(), complex, nil
			}
		}
	}
}

// attr is the value of the attribute named local, and whether it is there.
func attr(e xml.StartElement, local string) (string, bool) {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

func (p *graphmlParser) document() error {
	for {
		tok, err := p.next()
		if err == io.EOF {
			return invalidf(p.label, "no <graphml> element: not a GraphML file")
		}
		if err != nil {
			return err
		}
		if t, ok := tok.(xml.StartElement); ok {
			if t.Name.Local != "graphml" {
				return p.errorf("the document element is <%s>, want <graphml>", t.Name.Local)
			}
			return p.graphml()
		}
	}
}

// errFirstGraph ends the reading at the end of the first graph.
var errFirstGraph = errors.New("first graph read")

func (p *graphmlParser) graphml() error {
	err := p.inside(func(e xml.StartElement) error {
		switch e.Name.Local {
		case "key":
			return p.key(e)
		case "graph":
			if err := p.graph(e); err != nil {
				return err
			}
			return errFirstGraph
		}
		return p.skip(e)
	})
	if err == errFirstGraph {
		return nil
	}
	if err == nil {
		err = p.errorf("no <graph> in the <graphml> element")
	}
	return err
}

func (p *graphmlParser) key(e xml.StartElement) error {
	id, ok := attr(e, "id")
	if !ok {
		return p.errorf("<key> without an id")
	}
	if _, dup := p.keys[id]; dup {
		return p.errorf("key %q declared twice", id)
	}
	k := &graphmlKey{name: id, domain: "all", line: p.line()}
	if v, ok := attr(e, "attr.name"); ok {
		k.name = v
	}
	if v, ok := attr(e, "for"); ok {
		k.domain = v
	}
	switch v, _ := attr(e, "attr.type"); {
	case (v == "int" || v == "long") && k.name == labelAttribute:
		k.text = true // integer node labels (networkx's from TU data) are categories
	case v == "int" || v == "long" || v == "float" || v == "double":
		k.numeric = true
	case v == "string":
		k.text = true
	}
	p.keys[id] = k
	p.order = append(p.order, k)
	return p.inside(func(c xml.StartElement) error {
		if c.Name.Local != "default" {
			return p.skip(c)
		}
		text, _, err := p.text()
		k.def = &text
		return err
	})
}

// data reads a <data> element: its key and text. Text with child elements is nil.
func (p *graphmlParser) data(e xml.StartElement) (*graphmlKey, *string, error) {
	id, ok := attr(e, "key")
	if !ok {
		return nil, nil, p.errorf("<data> without a key")
	}
	k, ok := p.keys[id]
	if !ok {
		return nil, nil, p.errorf("<data key=%q>: no <key> declares %q", id, id)
	}
	text, complex, err := p.text()
	if complex {
		return k, nil, err
	}
	return k, &text, err
}

// number parses the text of a numeric attribute, a weight or a default.
func number(text *string) (float64, error) {
	if text == nil {
		return 0, errors.New("holds elements, not a number")
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(*text), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%q is not a number", *text)
	}
	return x, nil
}

func (p *graphmlParser) graph(e xml.StartElement) error {
	switch v, ok := attr(e, "edgedefault"); {
	case !ok:
		return p.errorf(`<graph> without edgedefault: say edgedefault="directed" or "undirected"`)
	case v == "directed":
		p.g.directed = true
	case v != "undirected":
		return p.errorf(`edgedefault=%q, want "directed" or "undirected"`, v)
	}
	for _, k := range p.order {
		if k.name == "weight" && k.on("edge") && k.def != nil && p.weight == nil {
			p.weight = k.def
		}
		if k.name == "label" && k.on("edge") && k.def != nil && p.edgeLabel == 0 {
			p.edgeLabel = edgeLabelText(k.def)
		}
		if k.numeric && k.on("node") && k.def != nil && p.g.attributes {
			x, err := number(k.def)
			if err != nil {
				return invalidf(fmt.Sprintf("%s:%d", p.label, k.line), "default of key %q: %v", k.name, err)
			}
			if err := p.g.setDefault(k.name, x); err != nil {
				return fmt.Errorf("%s:%d: key %q: %w", p.label, k.line, k.name, err)
			}
		}
		if k.on("graph") && k.def != nil {
			p.setGraphLabel(k.name, k.def)
		}
		if k.text && k.on("node") && k.def != nil {
			p.g.setCategoryDefault(k.name, strings.TrimSpace(*k.def))
		}
	}
	return p.inside(func(c xml.StartElement) error {
		switch c.Name.Local {
		case "node":
			return p.node(c)
		case "edge":
			return p.edge(c)
		case "hyperedge":
			return p.errorf("hyperedges are not supported")
		case "data":
			k, text, err := p.data(c)
			if err == nil && text != nil {
				p.setGraphLabel(k.name, text)
			}
			return err
		}
		return p.skip(c)
	})
}

func (p *graphmlParser) node(e xml.StartElement) error {
	id, ok := attr(e, "id")
	if !ok {
		return p.errorf("<node> without an id")
	}
	slot, err := p.g.declare(id)
	if err != nil {
		return fmt.Errorf("%s:%d: %w", p.label, p.line(), err)
	}
	return p.inside(func(c xml.StartElement) error {
		switch c.Name.Local {
		case "graph":
			return p.errorf("node %q holds a nested <graph>: nested graphs are not supported", id)
		case "data":
			k, text, err := p.data(c)
			if err == nil && k.text && k.on("node") && text != nil {
				p.g.setCategory(slot, k.name, strings.TrimSpace(*text))
			}
			if err != nil || !k.numeric || !k.on("node") || !p.g.attributes {
				return err
			}
			x, err := number(text)
			if err != nil {
				return p.errorf("node %q: numeric attribute %q: %v", id, k.name, err)
			}
			if err := p.g.setAttr(slot, k.name, []float64{x}); err != nil {
				return fmt.Errorf("%s:%d: node %q: %w", p.label, p.line(), id, err)
			}
			return nil
		}
		return p.skip(c)
	})
}

func (p *graphmlParser) edge(e xml.StartElement) error {
	line := p.line()
	p.edges++
	var ends [2]string
	for i, name := range []string{"source", "target"} {
		v, ok := attr(e, name)
		if !ok {
			return p.errorf("edge %d has no %s", p.edges, name)
		}
		ends[i] = v
	}
	kind := edgeByGraph
	switch v, ok := attr(e, "directed"); {
	case !ok:
	case v == "true":
		kind = edgeDirected
	case v == "false":
		kind = edgeUndirected
	default:
		return p.errorf(`edge %d: directed=%q, want "true" or "false"`, p.edges, v)
	}
	weight, label := p.weight, p.edgeLabel
	err := p.inside(func(c xml.StartElement) error {
		switch c.Name.Local {
		case "graph":
			return p.errorf("edge %d holds a nested <graph>: nested graphs are not supported", p.edges)
		case "data":
			k, text, err := p.data(c)
			if err == nil && k.name == "weight" {
				if text == nil {
					return p.errorf("edge %d: weight holds elements, not a number", p.edges)
				}
				weight = text
			}
			if err == nil && k.name == "label" && k.on("edge") {
				label = edgeLabelText(text)
			}
			return err
		}
		return p.skip(c)
	})
	if err != nil {
		return err
	}
	w := 1.0
	if weight != nil {
		if w, err = number(weight); err != nil {
			return p.errorf("edge %d: weight %v", p.edges, err)
		}
	}
	if err := p.g.edge(ends[0], ends[1], w, kind, line, label); err != nil {
		return fmt.Errorf("%s:%d: edge %d: %w", p.label, line, p.edges, err)
	}
	return nil
}
