package graphs

// Reader for GML (Graph Modelling Language), as networkx's write_gml, igraph and Gephi write
// it:
//
//	graph [
//	  directed 0
//	  label "1"
//	  node [ id 0 label "a" charge 0.5 ]
//	  node [ id 1 label "b" charge -1.0 ]
//	  edge [ source 0 target 1 weight 2.5 ]
//	]
//
// A file is a list of key-value pairs; a value is an integer, a real, a quoted string or a
// [ ... ] list of pairs; "#" starts a comment. A file holds one top-level "graph", and
// nothing after it but whitespace and comments (a second graph is refused, not dropped). Node
// ids are integers (networkx keeps the node's name in "label"), and edges name them by id; the
// nodes are rows of C in document order. An edge's "weight" is its entry of C (1 when absent);
// parallel edges add up. An edge's "label" (an integer or a string: a bond type), where every
// edge has one, is its edge label (Graph.EdgeLabels). "directed 1" makes the graph directed. Lists inside nodes and edges
// (Gephi's "graphics") are skipped.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

const (
	// gmlMaxDepth bounds list nesting; graph, node and graphics lists need three or four.
	gmlMaxDepth = 32
	// gmlMaxToken bounds one key, number or string.
	gmlMaxToken = 1 << 20
	// gmlListStart is the string networkx writes before the value of a one-element list, so
	// that reading it back gives a list.
	gmlListStart = "_networkx_list_start"
)

// ReadGML reads the graph of a GML file, which must hold one; name identifies the input in errors and becomes
// Graph.Name. With opt.Attributes the numeric node attributes (integers and reals; a key
// repeated within a node, networkx's form of a list, gives several values), by name in sorted
// order and "id" and "label" excluded, are the node features: every node must have the same
// ones; with opt.Categories the string ones (one value, not a list) are kept for ReadFolder's
// node labels. A graph "label" (an integer, which networkx writes quoted, "1", or a text;
// or "y", "class", "target", "graph_label": graphLabelKeys) becomes the class label. The
// input, its tokens and its nesting are bounded, and the node count is checked against
// opt.Limits as nodes appear.
func ReadGML(r io.Reader, name string, opt NodeLinkOptions) (*Graph, error) {
	lim := opt.Limits.OrDefault()
	label := name
	if label == "" {
		label = "<gml>"
	}
	p := &gmlParser{label: label, g: newAttrGraph(label, lim, opt)}
	p.g.categories = opt.Categories
	err := boundedRead(r, label, markupTextBound(lim), lim, func(src io.Reader) error {
		p.lex = &gmlLexer{r: bufio.NewReader(src), line: 1}
		return p.document()
	})
	if err != nil {
		return nil, err
	}
	g, err := p.g.build(name)
	if err != nil {
		return nil, err
	}
	if t := p.graphLabel; t != nil {
		err := g.setFileLabel(t.text)
		if err == nil && t.kind == gmlReal {
			err = fmt.Errorf("%s is a real number, want an integer or a text", t)
		}
		if err != nil {
			return nil, invalidf(fmt.Sprintf("%s:%d", label, t.line), `graph %q: %v`, p.labelKey, err)
		}
	}
	return g, nil
}

type gmlKind uint8

const (
	gmlEOF gmlKind = iota
	gmlKey
	gmlInt
	gmlReal
	gmlString
	gmlOpen
	gmlClose
)

type gmlToken struct {
	kind gmlKind
	text string // without the quotes of a string
	line int
}

func (t gmlToken) String() string {
	switch t.kind {
	case gmlEOF:
		return "the end of the input"
	case gmlString:
		return strconv.Quote(t.text)
	case gmlKey:
		return "key " + t.text
	}
	return t.text
}

// gmlLexer splits GML text into tokens.
type gmlLexer struct {
	r     *bufio.Reader
	line  int
	start int // the line of the token being read, for errors
	buf   []byte
}

// gmlDelimiter reports whether c ends a key or a number.
func gmlDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '\f', '\v', '[', ']', '"', '#':
		return true
	}
	return false
}

// readErr turns a read error into the lexer's: the end of the input, or the reader's error
// (which boundedRead reports in place of this one).
func readErr(err error) (gmlToken, error) {
	if err == io.EOF {
		return gmlToken{kind: gmlEOF}, nil
	}
	return gmlToken{}, err
}

func (l *gmlLexer) next() (gmlToken, error) {
	var c byte
	for { // whitespace and comments
		var err error
		if c, err = l.r.ReadByte(); err != nil {
			t, err := readErr(err)
			t.line = l.line
			return t, err
		}
		if c == '\n' {
			l.line++
		}
		if c == '#' {
			for c != '\n' {
				if c, err = l.r.ReadByte(); err != nil {
					t, err := readErr(err)
					t.line = l.line
					return t, err
				}
			}
			l.line++
		}
		if !gmlDelimiter(c) || c == '[' || c == ']' || c == '"' {
			break
		}
	}
	line := l.line
	l.start = line
	switch c {
	case '[':
		return gmlToken{kind: gmlOpen, text: "[", line: line}, nil
	case ']':
		return gmlToken{kind: gmlClose, text: "]", line: line}, nil
	case '"':
		l.buf = l.buf[:0]
		for {
			c, err := l.r.ReadByte()
			if err == io.EOF {
				return gmlToken{}, errors.New(`string not closed by a "`)
			}
			if err != nil {
				return gmlToken{}, err
			}
			if c == '"' {
				return gmlToken{kind: gmlString, text: string(l.buf), line: line}, nil
			}
			if c == '\n' {
				l.line++
			}
			if len(l.buf) == gmlMaxToken {
				return gmlToken{}, fmt.Errorf("string longer than %d bytes", gmlMaxToken)
			}
			l.buf = append(l.buf, c)
		}
	}
	l.buf = append(l.buf[:0], c)
	for {
		c, err := l.r.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return gmlToken{}, err
		}
		if gmlDelimiter(c) {
			l.r.UnreadByte()
			break
		}
		if len(l.buf) == gmlMaxToken {
			return gmlToken{}, fmt.Errorf("token longer than %d bytes", gmlMaxToken)
		}
		l.buf = append(l.buf, c)
	}
	return gmlWord(string(l.buf), line)
}

// gmlWord classifies a key or a number.
func gmlWord(w string, line int) (gmlToken, error) {
	c := w[0]
	if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
		for i := 1; i < len(w); i++ {
			if c := w[i]; !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
				return gmlToken{}, fmt.Errorf("%q is not a key (letters, digits and _)", w)
			}
		}
		return gmlToken{kind: gmlKey, text: w, line: line}, nil
	}
	digits := strings.TrimLeft(w, "+-")
	if len(w)-len(digits) <= 1 && digits != "" && strings.Trim(digits, "0123456789") == "" {
		return gmlToken{kind: gmlInt, text: w, line: line}, nil
	}
	// Reals, with networkx's +INF, -INF and NAN; ParseFloat also takes forms GML has not
	// (hexadecimal), which do no harm.
	if _, err := strconv.ParseFloat(w, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		return gmlToken{kind: gmlReal, text: w, line: line}, nil
	}
	return gmlToken{}, fmt.Errorf("%q is neither a key nor a number", w)
}

type gmlParser struct {
	lex        *gmlLexer
	label      string
	g          *attrGraph
	depth      int
	nodes      int
	edges      int
	graphLabel *gmlToken // the graph attribute of graphLabelKeys read as the class label
	labelKey   string    // its key
}

// errorf is an error at the given line.
func (p *gmlParser) errorf(line int, format string, args ...any) error {
	return invalidf(fmt.Sprintf("%s:%d", p.label, line), format, args...)
}

// wrap names the input in an error of the builder, at the given line.
func (p *gmlParser) wrap(line int, err error) error {
	return fmt.Errorf("%s:%d: %w", p.label, line, err)
}

// token is the lexer's next token; its errors are syntax errors at the token's line.
func (p *gmlParser) token() (gmlToken, error) {
	t, err := p.lex.next()
	if err != nil {
		return t, fmt.Errorf("%s:%d: not well-formed GML: %w", p.label, p.lex.start, err)
	}
	return t, nil
}

func (p *gmlParser) document() error {
	err := p.list(1, true, func(k, v gmlToken) error {
		if k.text != "graph" {
			return p.skip(v)
		}
		if v.kind != gmlOpen {
			return p.errorf(v.line, "graph is %s, want a list [ ... ]", v)
		}
		if err := p.list(v.line, false, p.graph); err != nil {
			return err
		}
		return errFirstGraph
	})
	switch err {
	case errFirstGraph:
		return p.end()
	case nil:
		return invalidf(p.label, "no graph [ ... ] in the input: not a GML file")
	}
	return err
}

// end reads what follows the graph, which may be only whitespace and comments: a second
// graph would otherwise be dropped without a word (networkx refuses such a file), and so
// would text after the graph.
func (p *gmlParser) end() error {
	t, err := p.token()
	switch {
	case err != nil:
		return err
	case t.kind == gmlEOF:
		return nil
	case t.kind == gmlKey && t.text == "graph":
		return invalidf(p.label, "holds a second graph at line %d; gwf reads one graph per GML file (write each graph to a file of its own)", t.line)
	}
	return invalidf(p.label, "%s at line %d, after the graph: gwf reads one graph per GML file and nothing after it", t, t.line)
}

// list calls pair with each key and value of a list, up to its "]" (the end of the input at
// the top level). A value that is a list has been opened; pair must read it (p.list, p.skip).
func (p *gmlParser) list(open int, top bool, pair func(k, v gmlToken) error) error {
	for {
		k, err := p.token()
		if err != nil {
			return err
		}
		switch {
		case k.kind == gmlEOF && top:
			return nil
		case k.kind == gmlEOF:
			return p.errorf(k.line, "the input ends inside the list opened at line %d", open)
		case k.kind == gmlClose && !top:
			p.depth--
			return nil
		case k.kind != gmlKey:
			return p.errorf(k.line, "%s where a key was expected", k)
		}
		v, err := p.token()
		if err != nil {
			return err
		}
		switch v.kind {
		case gmlEOF, gmlClose:
			return p.errorf(v.line, "key %s has no value", k.text)
		case gmlKey:
			// networkx writes non-finite reals as NAN and +INF; a bare INF reads as a key.
			if u := strings.ToUpper(v.text); u != "NAN" && u != "INF" {
				return p.errorf(v.line, "key %s has the value %s: want a number, a quoted string or a list", k.text, v.text)
			}
			v.kind = gmlReal
		case gmlOpen:
			p.depth++
			if p.depth > gmlMaxDepth {
				return p.errorf(v.line, "lists nested more than %d deep", gmlMaxDepth)
			}
		}
		if err := pair(k, v); err != nil {
			return err
		}
	}
}

// skip reads a value that is not used.
func (p *gmlParser) skip(v gmlToken) error {
	if v.kind != gmlOpen {
		return nil
	}
	return p.list(v.line, false, func(_, v gmlToken) error { return p.skip(v) })
}

func (p *gmlParser) graph(k, v gmlToken) error {
	switch k.text {
	case "node":
		return p.node(v)
	case "edge":
		return p.edge(v)
	case "directed":
		if v.kind != gmlInt || (v.text != "0" && v.text != "1") {
			return p.errorf(v.line, "directed is %s, want 0 or 1", v)
		}
		p.g.directed = v.text == "1"
	default:
		if !prefersGraphLabel(k.text, p.labelKey) {
			break
		}
		if v.kind == gmlOpen {
			return p.errorf(v.line, `graph %q is a list, want an integer or a text`, k.text)
		}
		p.graphLabel, p.labelKey = &v, k.text
	}
	return p.skip(v)
}

// gmlID is the id of a node, or the source or target of an edge: an integer.
func (p *gmlParser) gmlID(what string, v gmlToken) (string, error) {
	if v.kind != gmlInt {
		if v.kind == gmlOpen {
			return "", p.errorf(v.line, "%s is a list, want an integer", what)
		}
		return "", p.errorf(v.line, "%s %s is not an integer", what, v)
	}
	id, err := strconv.ParseInt(v.text, 10, 64)
	if err != nil {
		return "", p.errorf(v.line, "%s %s is out of range", what, v.text)
	}
	return strconv.FormatInt(id, 10), nil // "+1" and "01" are 1
}

func (p *gmlParser) node(v gmlToken) error {
	p.nodes++
	if v.kind != gmlOpen {
		return p.errorf(v.line, "node is %s, want a list [ ... ]", v)
	}
	var id string
	hasID := false
	attrs := map[string][]float64{}
	text := map[string]bool{}     // attributes with a value that is not a number
	strs := map[string][]string{} // their string values
	values := 0
	numeric := map[string]bool{}
	err := p.list(v.line, false, func(k, v gmlToken) error {
		if v.kind == gmlInt || v.kind == gmlReal {
			numeric[k.text] = true
		}
		switch {
		case k.text == "id":
			if hasID {
				return p.errorf(k.line, "node %d has two ids", p.nodes)
			}
			var err error
			id, err = p.gmlID("node id", v)
			hasID = true
			return err
		case k.text == "label": // the node's name in networkx
		case k.text == "graph" && v.kind == gmlOpen:
			return p.errorf(v.line, "node %d holds a graph: nested graphs are not supported", p.nodes)
		case v.kind == gmlString:
			if v.text != gmlListStart {
				text[k.text] = true
				if p.g.categories && len(strs[k.text]) < 2 { // two make a list: no category
					strs[k.text] = append(strs[k.text], v.text)
				}
			}
		case (v.kind == gmlInt || v.kind == gmlReal) && p.g.attributes:
			x, _ := strconv.ParseFloat(v.text, 64) // ±Inf when out of range, refused below
			// Counted as they come, so that a node repeating a key for ever is refused.
			if err := p.g.addValues(1); err != nil {
				return p.wrap(v.line, err)
			}
			values++
			attrs[k.text] = append(attrs[k.text], x)
		}
		return p.skip(v)
	})
	if err != nil {
		return err
	}
	if !hasID {
		return p.errorf(v.line, "node %d has no id", p.nodes)
	}
	slot, err := p.g.declare(id)
	if err != nil {
		return p.wrap(v.line, err)
	}
	if err := p.g.addValues(-values); err != nil { // setAttr counts them again
		return p.wrap(v.line, err)
	}
	for name, vs := range strs {
		if len(vs) == 1 && !numeric[name] {
			p.g.setCategory(slot, name, vs[0])
		}
	}
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		xs := attrs[name]
		if text[name] {
			continue // a list of numbers and strings is no feature
		}
		if err := p.g.setAttr(slot, name, xs); err != nil {
			return fmt.Errorf("%s:%d: node %s: %w", p.label, v.line, id, err)
		}
	}
	return nil
}

func (p *gmlParser) edge(v gmlToken) error {
	p.edges++
	if v.kind != gmlOpen {
		return p.errorf(v.line, "edge is %s, want a list [ ... ]", v)
	}
	var ends [2]string
	var has [2]bool
	var weight *gmlToken
	label := 0.0
	err := p.list(v.line, false, func(k, v gmlToken) error {
		switch k.text {
		case "label":
			if v.kind == gmlInt || v.kind == gmlString {
				label = edgeLabelText(&v.text)
			}
		case "source", "target":
			i := 0
			if k.text == "target" {
				i = 1
			}
			if has[i] {
				return p.errorf(k.line, "edge %d has two %ss", p.edges, k.text)
			}
			var err error
			ends[i], err = p.gmlID("edge "+k.text, v)
			has[i] = true
			return err
		case "weight":
			if weight != nil {
				return p.errorf(k.line, "edge %d has two weights", p.edges)
			}
			if v.kind != gmlInt && v.kind != gmlReal {
				return p.errorf(v.line, "edge %d: weight is %s, want a number", p.edges, v)
			}
			weight = &v
		}
		return p.skip(v)
	})
	if err != nil {
		return err
	}
	for i, what := range []string{"source", "target"} {
		if !has[i] {
			return p.errorf(v.line, "edge %d has no %s", p.edges, what)
		}
	}
	w := 1.0
	if weight != nil {
		w, _ = strconv.ParseFloat(weight.text, 64) // ±Inf when out of range, refused by edge
	}
	if err := p.g.edge(ends[0], ends[1], w, edgeByGraph, v.line, label); err != nil {
		return fmt.Errorf("%s:%d: edge %d: %w", p.label, v.line, p.edges, err)
	}
	return nil
}
