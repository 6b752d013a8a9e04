package graphs

import (
	"encoding/json"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// edgeLabels sets g's EdgeLabels from the links' "label" (an integer, EdgeLabelCode; or a
// text, textLabelCode) when every link has one. Links without one, or with another kind of
// value, leave the graph without edge labels: "label" is a free attribute of node-link files,
// not always a bond type. Links of zero weight are no edges and keep none.
func (nl *nodeLink) edgeLabels(g *Graph, index map[string]int, label string) error {
	links := nl.Links.list
	if links == nil {
		links = nl.Edges.list
	}
	if len(links) == 0 {
		return nil
	}
	// Bounded as the links are (limitedList), which the adjacency has already taken.
	entries := make([]csr.Entry, 0, 2*len(links))
	for _, l := range links {
		code, ok := edgeLabelCodeOf(l.Label)
		if !ok {
			return nil
		}
		// The ends were checked when the adjacency was built.
		src, _ := nodeLinkKey(l.Source)
		dst, _ := nodeLinkKey(l.Target)
		u, v := index[src], index[dst]
		entries = append(entries, csr.Entry{Row: u, Col: v, Val: code})
		if !nl.Directed {
			entries = append(entries, csr.Entry{Row: v, Col: u, Val: code})
		}
	}
	return g.setEdgeLabels(label, entries)
}

// edgeLabelCodeOf is the code of an edge label given as an integer (EdgeLabelCode) or a text
// (edgeLabelText: "1" is the integer's code, as GraphML's and GML's texts); ok is false for
// anything else (absent, null, a float, an object).
func edgeLabelCodeOf(raw json.RawMessage) (code float64, ok bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, false
	}
	var n int
	if json.Unmarshal(raw, &n) == nil {
		return EdgeLabelCode(n), true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		code := edgeLabelText(&s)
		return code, code != 0
	}
	return 0, false
}

// edgeLabelText is the code of an edge label given as text (GraphML's <data>, GML's value):
// an integer's EdgeLabelCode, else the text's textLabelCode; 0 (none) for no text.
func edgeLabelText(text *string) float64 {
	if text == nil {
		return 0
	}
	t := strings.TrimSpace(*text)
	if t == "" {
		return 0
	}
	if n, err := strconv.Atoi(t); err == nil {
		return EdgeLabelCode(n)
	}
	return textLabelCode(t)
}

// textLabelCode codes a text edge label by a 52-bit hash, negative so that it never equals
// an integer label's code (which is positive); the same text has the same code in every file.
func textLabelCode(s string) float64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return -float64(h.Sum64()>>(64-codeBits) + 1)
}
