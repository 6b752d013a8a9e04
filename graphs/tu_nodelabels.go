package graphs

import (
	"fmt"
	"strings"
)

// MaxNodeLabelColumns bounds the comma-separated columns of a TU node-label line.
const MaxNodeLabelColumns = 8

// maxColumnLabel bounds the magnitude of each label of a line of several columns.
const maxColumnLabel = 1 << 20

// tuNodeLabels parses the lines of a NAME_node_labels.txt: one integer per node, or, as in
// some TU datasets (Cuneiform), a few columns of them. A line of several columns is one label,
// the tuple, encoded as one non-negative integer that depends on the tuple alone (the same in
// every dataset and in every file a model reads later): the columns, mapped to non-negative
// integers (0, −1, 1, −2, … → 0, 1, 2, 3, …), are paired by Cantor's pairing function. Every
// line must have as many columns as the first. NAME_edge_labels.txt is parsed alike.
type tuNodeLabels struct {
	columns int    // of the first line; 0 before it
	what    string // "edge" for edge labels; "" for node labels
}

// kind is what the messages call the labels: "node" or "edge".
func (p *tuNodeLabels) kind() string {
	if p.what == "" {
		return "node"
	}
	return p.what
}

func (p *tuNodeLabels) parse(text string) (int, error) {
	fields := strings.Split(text, ",")
	if p.columns == 0 {
		if len(fields) > MaxNodeLabelColumns {
			return 0, fmt.Errorf("%d comma-separated %s labels, want at most %d", len(fields), p.kind(), MaxNodeLabelColumns)
		}
		p.columns = len(fields)
	} else if len(fields) != p.columns {
		return 0, fmt.Errorf("%d comma-separated fields, want %d as on the first line", len(fields), p.columns)
	}
	if p.columns == 1 {
		return tuInt(text, 1)
	}
	var v uint64
	for i, field := range fields {
		x, err := tuInt(field, i+1)
		if err != nil {
			return 0, err
		}
		if x >= maxColumnLabel || x < -maxColumnLabel {
			return 0, fmt.Errorf("%s label %d of a line of %d columns: want at most %d in magnitude", p.kind(), x, p.columns, maxColumnLabel-1)
		}
		u := uint64(2 * x) // zigzag: x ≥ 0 → 2x, x < 0 → −2x − 1
		if x < 0 {
			u = uint64(-2*x - 1)
		}
		if i == 0 {
			v = u
			continue
		}
		s := v + u
		if s >= 1<<31 { // s(s+1)/2 + u stays below 2^62
			return 0, fmt.Errorf("%s labels %q too large to combine into one label", p.kind(), strings.TrimSpace(text))
		}
		v = s*(s+1)/2 + u
	}
	return int(v), nil
}
