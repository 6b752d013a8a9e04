package graphs

// JSON form of one graph:
//
//	{"adjacency": [[0, 1], [1, 0]], "features": [[0.5], [1.5]], "mu": [0.5, 0.5], "label": 3}
//
// Only "adjacency" is required. Without "mu" the node distribution is uniform; without
// "features" the graph has none; without "label" HasLabel is false. "edge_labels", an N×N
// array like the adjacency, gives each edge a non-zero label code (0 where there is no edge;
// equal codes are the same label: Graph.EdgeLabels). Other fields are refused,
// so that a misspelt "feature" or "labels" is an error rather than silently ignored.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/jsonread"
	"github.com/gwf-graphs/gwf/layers/csr"
)

// jsonGraph is the JSON form; the matrices decode under the limits (see jsonMatrix), and
// absent or null fields stay nil (or not present).
type jsonGraph struct {
	Adjacency *jsonMatrix `json:"adjacency"`
	Features  *jsonMatrix `json:"features"`
	Mu        *jsonMatrix `json:"mu"`
	Label     *int        `json:"label"`
	Edges     *jsonMatrix `json:"edge_labels"`
}

// newJSONGraph prepares the fields' decoders: the adjacency holds at most MaxNodes rows of
// MaxNodes entries, the features MaxNodes rows, mu MaxNodes entries, and the adjacency and
// features together at most MaxDenseBytes.
func newJSONGraph(lim Limits) *jsonGraph {
	budget := &jsonBudget{max: lim.MaxDenseBytes}
	return &jsonGraph{
		Adjacency: &jsonMatrix{field: "adjacency", maxRows: lim.MaxNodes, maxCols: lim.MaxNodes, budget: budget},
		Features:  &jsonMatrix{field: "features", maxRows: lim.MaxNodes, budget: budget},
		Mu:        &jsonMatrix{field: "mu", vector: true, maxRows: lim.MaxNodes},
		Edges:     &jsonMatrix{field: "edge_labels", maxRows: lim.MaxNodes, maxCols: lim.MaxNodes, budget: budget},
	}
}

// matrix is the rows of a decoded field, nil when it was absent or null.
func (m *jsonMatrix) matrix() [][]float64 {
	if m == nil || !m.present {
		return nil
	}
	if m.rows == nil {
		return [][]float64{}
	}
	return m.rows
}

// vector is the entries of a decoded vector field, nil when it was absent or null.
func (m *jsonMatrix) values() []float64 {
	if m == nil || !m.present {
		return nil
	}
	return m.vec
}

const (
	// jsonBytesPerNumber is a generous size of one number in the text: 17 significant digits,
	// sign, point, exponent, separator and some whitespace.
	jsonBytesPerNumber = 32
	// jsonFeatureAllowance is how many features per node the size bound leaves room for.
	jsonFeatureAllowance = 64
	// jsonSlack covers brackets, field names, indentation and small graphs with wide features.
	jsonSlack = 1 << 20
)

// jsonTextBound bounds a JSON input. The reader holds the whole text in memory and decodes it
// before the node count can be checked, so the text itself must be bounded: by room for a
// MaxNodes×MaxNodes adjacency (plus features) at jsonBytesPerNumber bytes a number, and by
// lim's share of memory for JSON (newTextBound).
func jsonTextBound(lim Limits) textBound {
	n := int64(lim.OrDefault().MaxNodes)
	return newTextBound(lim, satMul(jsonBytesPerNumber, satMul(n, 2*n+jsonFeatureAllowance)), jsonTextShare) // adjacency, edge labels
}

// satMul is a·b for non-negative a and b, saturating at math.MaxInt64.
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// ReadJSON reads one graph in the JSON form above; name identifies the input in errors and
// becomes Graph.Name. Inputs larger than a graph of lim.MaxNodes nodes could need, or than
// lim's share of memory for text, are refused after reading that much, and the node count is
// checked against lim before the dense matrices are built.
func ReadJSON(r io.Reader, name string, lim Limits) (*Graph, error) {
	lim = lim.OrDefault()
	label := name
	if label == "" {
		label = "<json>"
	}
	b, err := readJSONText(r, label, lim)
	if err != nil {
		return nil, err
	}
	keys, err := jsonKeys(b, label)
	if err != nil {
		return nil, err
	}
	return readJSONForm(b, keys, name, label, lim)
}

// readJSONText reads all of r, within jsonTextBound(lim). encoding/json's Decoder would hold
// the whole text as well, in a buffer of its own; read once, it is decoded in place.
func readJSONText(r io.Reader, label string, lim Limits) ([]byte, error) {
	bound := jsonTextBound(lim)
	b, err := jsonread.All(r, bound.bytes)
	switch {
	case errors.Is(err, jsonread.ErrTooLarge):
		return nil, bound.tooLarge(label, lim)
	case err != nil:
		return nil, readError(label, err)
	}
	return b, nil
}

// jsonKeys are the fields of the JSON object b, read without copying their values; the error
// of b that is not a JSON object says where.
func jsonKeys(b []byte, label string) (map[string]jsonPresent, error) {
	var keys map[string]jsonPresent
	if err := json.Unmarshal(b, &keys); err != nil {
		return nil, jsonDecodeError(label, b, err)
	}
	return keys, nil
}

// jsonPresent records that a field is there, without keeping its value.
type jsonPresent struct{}

func (*jsonPresent) UnmarshalJSON([]byte) error { return nil }

// jsonFormFields are the fields of the JSON form (jsonGraph).
var jsonFormFields = []string{"adjacency", "features", "mu", "label", "edge_labels"}

// readJSONForm decodes b, a JSON object with the fields keys, in the JSON form. Other fields
// are refused, as encoding/json's DisallowUnknownFields would (its names match a field
// whatever the case).
func readJSONForm(b []byte, keys map[string]jsonPresent, name, label string, lim Limits) (*Graph, error) {
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if !slices.ContainsFunc(jsonFormFields, func(f string) bool { return strings.EqualFold(f, k) }) {
			return nil, fmt.Errorf("%s: json: unknown field %q (the known fields are adjacency, features, mu, label and edge_labels)", label, k)
		}
	}
	jg := newJSONGraph(lim)
	if err := json.Unmarshal(b, jg); err != nil {
		return nil, jsonDecodeError(label, b, err)
	}
	return jg.graph(name, label, lim)
}

// jsonDecodeError turns an error of json.Unmarshal on text into a message with the position
// and a hint.
func jsonDecodeError(label string, text []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn) && syn.Offset >= int64(len(text)) && len(bytes.TrimSpace(text)) == 0:
		return fmt.Errorf(`%s: empty input, want a JSON object such as {"adjacency": [[0, 1], [1, 0]]}`, label)
	case errors.As(err, &syn) && syn.Offset >= int64(len(text)): // "unexpected end of JSON input"
		return fmt.Errorf("%s: truncated JSON: the input ends inside a value, at %s: %w", label, textPosition(text, int64(len(text))), err)
	case errors.As(err, &syn) && strings.HasSuffix(syn.Error(), "after top-level value"):
		// A second value after the object is a concatenation or editing accident, not a graph.
		end := len(bytes.TrimRight(text[:syn.Offset-1], " \t\r\n"))
		return fmt.Errorf("%s: unexpected data after the JSON object, which ends at %s", label, textPosition(text, int64(end)))
	case errors.As(err, &syn):
		// Offset counts the offending byte; point at it.
		hint := ""
		if msg := syn.Error(); strings.Contains(msg, "character 'N'") || strings.Contains(msg, "character 'I'") {
			hint = " (NaN and Infinity are not JSON, though Python's json.dump writes them for float('nan') and float('inf'): every number must be finite)"
		}
		return fmt.Errorf("%s: not valid JSON at %s: %w%s", label, textPosition(text, syn.Offset-1), err, hint)
	case errors.As(err, &typ):
		var what string
		switch {
		case typ.Field == "":
			what = "the top level must be a JSON object"
		case strings.HasPrefix(typ.Value, "number") && typ.Type != nil && typ.Type.Kind() == reflect.Int:
			what = fmt.Sprintf("field %q must be an integer", typ.Field)
		case strings.HasPrefix(typ.Value, "number"):
			what = fmt.Sprintf("field %q: %s is out of the range of float64", typ.Field, typ.Value)
		default:
			what = fmt.Sprintf("field %q holds a JSON %s where %s is wanted", typ.Field, typ.Value, typ.Type)
		}
		return fmt.Errorf("%s: %s, near %s: %w", label, what, textPosition(text, typ.Offset), err)
	}
	return fmt.Errorf("%s: %w", label, err)
}

// graph checks the shapes and sizes of jg and builds the validated Graph.
func (jg *jsonGraph) graph(name, label string, lim Limits) (*Graph, error) {
	adj, features := jg.Adjacency.matrix(), jg.Features.matrix()
	if adj == nil {
		return nil, invalidf(label, `no "adjacency" field (or it is null); want an N×N array of arrays`)
	}
	n := len(adj)
	if n == 0 {
		return nil, invalidf(label, `"adjacency" is empty: a graph needs at least one node`)
	}
	if err := lim.checkNodes(label, n); err != nil {
		return nil, err
	}
	square := true
	for _, row := range adj {
		square = square && len(row) == len(adj[0])
	}
	if square && len(adj[0]) != n {
		return nil, invalidf(label, `"adjacency" is %d×%d (%d rows of %d entries), not square`, n, len(adj[0]), n, len(adj[0]))
	}
	for i, row := range adj {
		if len(row) != n {
			return nil, invalidf(label, `"adjacency" row %d has %d entries, want %d (one per node)`, i, len(row), n)
		}
	}
	d := 0
	if features != nil {
		if len(features) != n {
			return nil, invalidf(label, `"features" has %d rows for %d nodes`, len(features), n)
		}
		d = len(features[0])
		if d == 0 {
			return nil, invalidf(label, `"features" row 0 is empty`)
		}
		for i, row := range features {
			if len(row) != d {
				return nil, invalidf(label, `"features" row %d has %d entries, want %d (as row 0)`, i, len(row), d)
			}
		}
	}
	if err := checkDenseSize(label, n, d, lim); err != nil {
		return nil, err
	}
	c := mat.NewDense(n, n, nil)
	for i, row := range adj {
		copy(c.RawRowView(i), row)
	}
	var f *mat.Dense
	if d > 0 {
		f = mat.NewDense(n, d, nil)
		for i, row := range features {
			copy(f.RawRowView(i), row)
		}
	}
	g, err := New(label, c, jg.Mu.values(), f)
	if err == nil {
		err = boundedValues(label, g, func(i, j int) string { return fmt.Sprintf("adjacency[%d][%d]", i, j) },
			func(i, j int) string { return fmt.Sprintf("features[%d][%d]", i, j) })
	}
	if err != nil {
		return nil, err
	}
	g.Name = name
	if jg.Label != nil {
		g.Label, g.HasLabel = *jg.Label, true
	}
	if err := jg.edgeLabels(g, label); err != nil {
		return nil, err
	}
	return g, nil
}

// edgeLabels sets g's EdgeLabels from the "edge_labels" field, when present: N×N, with a
// finite non-zero code exactly where the adjacency has an edge.
func (jg *jsonGraph) edgeLabels(g *Graph, label string) error {
	rows := jg.Edges.matrix()
	if rows == nil {
		return nil
	}
	adj := jg.Adjacency.matrix() // checked: N×N
	n := len(adj)
	if len(rows) != n {
		return invalidf(label, `"edge_labels" has %d rows for %d nodes`, len(rows), n)
	}
	var entries []csr.Entry
	for i, row := range rows {
		if len(row) != n {
			return invalidf(label, `"edge_labels" row %d has %d entries, want %d (one per node)`, i, len(row), n)
		}
		for j, v := range row {
			if (v != 0) != (adj[i][j] != 0) {
				return invalidf(label, `"edge_labels" (%d,%d) = %v where the adjacency is %v: want a non-zero label code exactly on the edges`, i, j, v, adj[i][j])
			}
			if v != 0 {
				entries = append(entries, csr.Entry{Row: i, Col: j, Val: v})
			}
		}
	}
	return g.setEdgeLabels(label, entries)
}

// WriteJSON writes g in the JSON form that ReadJSON reads, one matrix row a line. Numbers are
// written in the shortest form that parses back to the same float64, so a round trip is
// exact. Mu is always written; Label only when HasLabel. g must be valid (JSON has no NaN or
// infinity, and ReadJSON would refuse the rest).
func WriteJSON(w io.Writer, g *Graph) error {
	if g == nil {
		return errors.New("WriteJSON: nil graph")
	}
	if err := g.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	var buf []byte
	row := func(v []float64) {
		buf = append(buf[:0], '[')
		for j, x := range v {
			if j > 0 {
				buf = append(buf, ", "...)
			}
			buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
		}
		buf = append(buf, ']')
		bw.Write(buf) // bufio.Writer keeps the first error for Flush
	}
	rows := func(key string, m *mat.Dense) {
		r, _ := m.Dims()
		fmt.Fprintf(bw, "  %q: [\n", key)
		for i := 0; i < r; i++ {
			bw.WriteString("    ")
			row(m.RawRowView(i))
			if i < r-1 {
				bw.WriteByte(',')
			}
			bw.WriteByte('\n')
		}
		bw.WriteString("  ]")
	}
	bw.WriteString("{\n")
	rows("adjacency", g.Dense())
	if g.F != nil {
		bw.WriteString(",\n")
		rows("features", g.F)
	}
	bw.WriteString(",\n  \"mu\": ")
	row(g.Mu)
	if g.HasLabel {
		fmt.Fprintf(bw, ",\n  \"label\": %d", g.Label)
	}
	if g.EdgeLabels != nil {
		bw.WriteString(",\n")
		rows("edge_labels", g.EdgeLabels.Dense())
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// textPosition describes byte offset off of text as "line L, column C (byte off)".
func textPosition(text []byte, off int64) string {
	off = min(max(off, 0), int64(len(text)))
	line := bytes.Count(text[:off], []byte{'\n'})
	start := int64(bytes.LastIndexByte(text[:off], '\n') + 1)
	return fmt.Sprintf("line %d, column %d (byte %d)", line+1, off-start+1, off)
}
