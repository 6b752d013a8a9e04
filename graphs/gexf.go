package graphs

// Reader for GEXF (https://gexf.net), the XML format of Gephi, versions 1.1 to 1.3, as Gephi
// and networkx's write_gexf write it:
//
//	<gexf xmlns="http://gexf.net/1.3" version="1.3">
//	  <meta><creator>NetworkX</creator></meta>
//	  <graph defaultedgetype="undirected" mode="static">
//	    <attributes class="node">
//	      <attribute id="0" title="charge" type="double"><default>0</default></attribute>
//	      <attribute id="1" title="kind" type="string"/>
//	    </attributes>
//	    <nodes>
//	      <node id="a" label="a">
//	        <attvalues><attvalue for="0" value="0.5"/><attvalue for="1" value="C"/></attvalues>
//	      </node>
//	      <node id="b" label="b"/>
//	    </nodes>
//	    <edges>
//	      <edge id="0" source="a" target="b" weight="2"/>
//	    </edges>
//	  </graph>
//	</gexf>
//
// As with GraphML, the nodes are rows of C in document order, an edge's weight is the entry of C
// (1 when absent), and parallel edges add up (networkx reads them as a multigraph). An edge's own
// type overrides the graph's defaultedgetype; "mutual" is undirected, and so is a graph without
// defaultedgetype, as the GEXF schema says. Node attributes are named by their title. A node's
// label is its string attribute "label" (networkx writes a node's "label" there) unless every
// node's label is its id (networkx's and Gephi's default: a display name, no label), and an
// edge's label is its edge label where every edge has one (networkx writes an edge's "label"
// there). Edge attributes, visual (viz:) elements, <meta> and dynamic data are ignored:
// spells are skipped, and of an attribute given several times (with time bounds) the last
// value counts. Hierarchies (nodes inside nodes) are refused. No class label is read from a
// GEXF file: give those in a folder's labels.csv.

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// ReadGEXF reads the graph of a GEXF document; name identifies the input in errors and becomes
// Graph.Name. With opt.Attributes the numeric node attributes (attributes of class "node" and
// type integer, long, float or double, or 1.3's short and byte, by title in sorted order) are
// the node features: every node must have each, from its own <attvalue> or the attribute's
// <default>. Other types are not features; with opt.Categories the string ones, and the
// nodes' labels (see above), are kept for ReadFolder's node labels. The input is bounded, and
// the node count is checked against opt.Limits as nodes appear.
func ReadGEXF(r io.Reader, name string, opt NodeLinkOptions) (*Graph, error) {
	lim := opt.Limits.OrDefault()
	label := name
	if label == "" {
		label = "<gexf>"
	}
	p := &gexfParser{x: &graphmlParser{label: label}, g: newAttrGraph(label, lim, opt), attrs: map[string]*gexfAttr{}}
	p.g.categories = opt.Categories
	err := boundedRead(r, label, markupTextBound(lim), lim, func(src io.Reader) error {
		p.x.d = xml.NewDecoder(src)
		p.x.d.CharsetReader = graphmlCharset
		return p.document()
	})
	if err != nil {
		return nil, err
	}
	p.keepNodeLabels()
	return p.g.build(name)
}

// gexfAttr is an <attribute> of class "node".
type gexfAttr struct {
	title   string // or the id when it has none
	numeric bool   // type integer, long, float or double (and GEXF 1.3's short and byte)
	text    bool   // type string
}

type gexfParser struct {
	// x walks the XML as the GraphML reader does (next, inside, skip, text, errorf), with its
	// bounded depth and errors by line; its GraphML fields stay unused.
	x     *graphmlParser
	g     *attrGraph
	attrs map[string]*gexfAttr // the node attributes by id
	edges int
	// The nodes' label attributes, kept while reading when string attributes are
	// (attrGraph.categories), and whether any differs from its node's id.
	labels    []gexfLabel
	notTheIDs bool
}

// gexfLabel is the label attribute of the node in a slot.
type gexfLabel struct {
	slot  int32
	label string
}

// keepNodeLabels makes the nodes' labels their string attribute "label" unless every label is
// its node's id or an attribute of that title is declared.
func (p *gexfParser) keepNodeLabels() {
	if !p.notTheIDs {
		return
	}
	for _, a := range p.attrs {
		if a.title == "label" {
			return
		}
	}
	for _, l := range p.labels {
		p.g.setCategory(l.slot, "label", l.label)
	}
}

func (p *gexfParser) document() error {
	for {
		tok, err := p.x.next()
		if err == io.EOF {
			return invalidf(p.x.label, "no <gexf> element: not a GEXF file")
		}
		if err != nil {
			return err
		}
		if t, ok := tok.(xml.StartElement); ok {
			if t.Name.Local != "gexf" {
				return p.x.errorf("the document element is <%s>, want <gexf>", t.Name.Local)
			}
			return p.gexf()
		}
	}
}

func (p *gexfParser) gexf() error {
	err := p.x.inside(func(e xml.StartElement) error {
		if e.Name.Local != "graph" {
			return p.x.skip(e) // <meta>
		}
		if err := p.graph(e); err != nil {
			return err
		}
		return errFirstGraph // a GEXF file holds one graph: what follows is not read
	})
	if err == errFirstGraph {
		return nil
	}
	if err == nil {
		err = p.x.errorf("no <graph> in the <gexf> element")
	}
	return err
}

// gexfEdgeTypes are the values of defaultedgetype and of an edge's type; a mutual edge sets
// both entries of C, as an undirected one does.
var gexfEdgeTypes = map[string]edgeKind{"directed": edgeDirected, "undirected": edgeUndirected, "mutual": edgeUndirected}

func (p *gexfParser) graph(e xml.StartElement) error {
	if v, ok := attr(e, "defaultedgetype"); ok {
		kind, known := gexfEdgeTypes[v]
		if !known {
			return p.x.errorf(`defaultedgetype=%q, want "directed", "undirected" or "mutual"`, v)
		}
		p.g.directed = kind == edgeDirected
	}
	return p.x.inside(func(c xml.StartElement) error {
		switch c.Name.Local {
		case "attributes":
			return p.attributes(c)
		case "nodes":
			return p.x.inside(func(n xml.StartElement) error {
				if n.Name.Local != "node" {
					return p.x.skip(n)
				}
				return p.node(n)
			})
		case "edges":
			return p.x.inside(func(n xml.StartElement) error {
				if n.Name.Local != "edge" {
					return p.x.skip(n)
				}
				return p.edge(n)
			})
		}
		return p.x.skip(c) // spells, extensions
	})
}

// attributes reads the declarations of node attributes; those of edges are not used.
func (p *gexfParser) attributes(e xml.StartElement) error {
	if class, _ := attr(e, "class"); class != "node" {
		return p.x.skip(e)
	}
	return p.x.inside(func(c xml.StartElement) error {
		if c.Name.Local != "attribute" {
			return p.x.skip(c)
		}
		return p.attribute(c)
	})
}

func (p *gexfParser) attribute(e xml.StartElement) error {
	id, ok := attr(e, "id")
	if !ok {
		return p.x.errorf("<attribute> without an id")
	}
	if _, dup := p.attrs[id]; dup {
		return p.x.errorf("node attribute %q declared twice", id)
	}
	a := &gexfAttr{title: id}
	if v, ok := attr(e, "title"); ok {
		a.title = v
	}
	switch v, _ := attr(e, "type"); v {
	case "integer", "long", "short", "byte":
		a.numeric, a.text = a.title != labelAttribute, a.title == labelAttribute // integer node labels are categories
	case "float", "double":
		a.numeric = true
	case "string":
		a.text = true
	}
	p.attrs[id] = a
	return p.x.inside(func(c xml.StartElement) error {
		if c.Name.Local != "default" {
			return p.x.skip(c) // <options>
		}
		text, _, err := p.x.text()
		if err != nil {
			return err
		}
		switch {
		case a.numeric && p.g.attributes:
			x, err := number(&text)
			if err != nil {
				return p.x.errorf("default of attribute %q: %v", a.title, err)
			}
			if err := p.g.setDefault(a.title, x); err != nil {
				return fmt.Errorf("%s:%d: attribute %q: %w", p.x.label, p.x.line(), a.title, err)
			}
		case a.text:
			p.g.setCategoryDefault(a.title, strings.TrimSpace(text))
		}
		return nil
	})
}

func (p *gexfParser) node(e xml.StartElement) error {
	id, ok := attr(e, "id")
	if !ok {
		return p.x.errorf("<node> without an id")
	}
	slot, err := p.g.declare(id)
	if err != nil {
		return fmt.Errorf("%s:%d: %w", p.x.label, p.x.line(), err)
	}
	if label, ok := attr(e, "label"); ok && p.g.categories {
		p.labels = append(p.labels, gexfLabel{slot, strings.TrimSpace(label)})
		p.notTheIDs = p.notTheIDs || label != id
	}
	return p.x.inside(func(c xml.StartElement) error {
		switch c.Name.Local {
		case "nodes", "edges":
			return p.x.errorf("node %q holds <%s>: hierarchical graphs are not supported", id, c.Name.Local)
		case "attvalues":
			return p.x.inside(func(v xml.StartElement) error {
				if v.Name.Local != "attvalue" {
					return p.x.skip(v)
				}
				if err := p.attvalue(slot, id, v); err != nil {
					return err
				}
				return p.x.skip(v)
			})
		}
		return p.x.skip(c) // viz:*, spells, parents
	})
}

// attvalue sets a node's value of an attribute from an <attvalue> element just started.
func (p *gexfParser) attvalue(slot int32, node string, e xml.StartElement) error {
	id, ok := attr(e, "for")
	if !ok {
		return p.x.errorf("node %q: <attvalue> without for", node)
	}
	a, ok := p.attrs[id]
	if !ok {
		return p.x.errorf(`node %q: <attvalue for=%q>: no <attributes class="node"> declares %q`, node, id, id)
	}
	value, ok := attr(e, "value")
	if !ok {
		return p.x.errorf("node %q: <attvalue for=%q> without a value", node, id)
	}
	switch {
	case a.text:
		p.g.setCategory(slot, a.title, strings.TrimSpace(value))
	case a.numeric && p.g.attributes:
		x, err := number(&value)
		if err != nil {
			return p.x.errorf("node %q: numeric attribute %q: %v", node, a.title, err)
		}
		if err := p.g.setAttr(slot, a.title, []float64{x}); err != nil {
			return fmt.Errorf("%s:%d: node %q: %w", p.x.label, p.x.line(), node, err)
		}
	}
	return nil
}

func (p *gexfParser) edge(e xml.StartElement) error {
	line := p.x.line()
	p.edges++
	var ends [2]string
	for i, name := range []string{"source", "target"} {
		v, ok := attr(e, name)
		if !ok {
			return p.x.errorf("edge %d has no %s", p.edges, name)
		}
		ends[i] = v
	}
	kind := edgeByGraph
	if v, ok := attr(e, "type"); ok {
		if kind, ok = gexfEdgeTypes[v]; !ok {
			return p.x.errorf(`edge %d: type=%q, want "directed", "undirected" or "mutual"`, p.edges, v)
		}
	}
	w := 1.0
	if v, ok := attr(e, "weight"); ok {
		var err error
		if w, err = number(&v); err != nil {
			return p.x.errorf("edge %d: weight %v", p.edges, err)
		}
	}
	label := 0.0 // none
	if v, ok := attr(e, "label"); ok {
		label = edgeLabelText(&v)
	}
	if err := p.x.skip(e); err != nil { // attvalues, viz:*, spells
		return err
	}
	if err := p.g.edge(ends[0], ends[1], w, kind, line, label); err != nil {
		return fmt.Errorf("%s:%d: edge %d: %w", p.x.label, line, p.edges, err)
	}
	return nil
}
