package graphs

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// jsonMatrix decodes one array field of the JSON graph form ("adjacency", "features": arrays
// of rows of numbers; "mu": an array of numbers) under the reader's limits. encoding/json would
// build the [][]float64 first, growing its slices as it goes (a 100 MB one-row adjacency would
// take 1.6 GB before any limit could be checked: docs/reliability.md); this counts the rows
// and entries in the text first, refuses what exceeds the limits, and only then allocates
// exactly what is needed. Hand-written: encoding/json has no hook for limits, and a streaming
// decoder would be a dependency for three fields.
type jsonMatrix struct {
	field   string      // the JSON field, for messages
	vector  bool        // an array of numbers (mu) rather than of rows
	maxRows int         // the most rows (entries, for a vector): the node limit
	maxCols int         // the most entries per row (0: only the budget bounds them)
	budget  *jsonBudget // shared by the fields that become dense matrices (nil: none)

	present bool // the field was in the input (and not null)
	rows    [][]float64
	vec     []float64
}

// jsonBudget is the dense-matrix memory the fields of one graph may still use.
type jsonBudget struct {
	used, max int64
}

// UnmarshalJSON decodes data, which encoding/json has already checked to be valid JSON.
func (m *jsonMatrix) UnmarshalJSON(data []byte) error {
	s := jsonScanner{data: data}
	s.space()
	if s.peek() == 'n' { // null: as if absent
		m.present, m.rows, m.vec = false, nil, nil
		return nil
	}
	lens, err := m.count(&s)
	if err != nil {
		return err
	}
	total := 0
	for _, n := range lens {
		total += n
	}
	if m.budget != nil {
		need := m.budget.used + 8*int64(total)
		if need > m.budget.max {
			return fmt.Errorf("the dense matrices need at least %d bytes, over the limit of %d (raise Limits.MaxDenseBytes, or --max-memory on the command line)", need, m.budget.max)
		}
		m.budget.used = need
	}
	flat := make([]float64, total)
	s = jsonScanner{data: data}
	if err := m.parse(&s, flat); err != nil {
		return err
	}
	m.present = true
	if m.vector {
		m.vec = flat
		return nil
	}
	m.rows = make([][]float64, len(lens))
	for i, n := range lens {
		m.rows[i], flat = flat[:n:n], flat[n:]
	}
	return nil
}

// count walks the array and returns its row lengths (one entry, the length, for a vector),
// refusing values of the wrong type and sizes over the node limit. Counting allocates only
// the row lengths of rows within the limit.
func (m *jsonMatrix) count(s *jsonScanner) ([]int, error) {
	if err := s.expect('[', fmt.Sprintf("%q", m.field), "an array"); err != nil {
		return nil, err
	}
	if m.vector {
		n, err := m.countNumbers(s, -1)
		if err == nil && n > m.maxRows {
			err = fmt.Errorf("%q has %d entries: %d nodes exceed the limit of %d (raise Limits.MaxNodes, or --max-nodes on the command line)", m.field, n, n, m.maxRows)
		}
		return []int{n}, err
	}
	var lens []int
	rows := 0
	for ; s.element(); rows++ {
		if err := s.expect('[', fmt.Sprintf("%q row %d", m.field, rows), "an array of numbers"); err != nil {
			return nil, err
		}
		n, err := m.countNumbers(s, rows)
		if err != nil {
			return nil, err
		}
		if m.maxCols > 0 && n > m.maxCols {
			return nil, fmt.Errorf("%q row %d has %d entries: %d nodes exceed the limit of %d (raise Limits.MaxNodes, or --max-nodes on the command line)", m.field, rows, n, n, m.maxCols)
		}
		if rows < m.maxRows {
			lens = append(lens, n)
		}
	}
	if rows > m.maxRows {
		return nil, fmt.Errorf("%q has %d rows: %d nodes exceed the limit of %d (raise Limits.MaxNodes, or --max-nodes on the command line)", m.field, rows, rows, m.maxRows)
	}
	return lens, nil
}

// countNumbers counts the numbers of an array whose '[' is consumed, up to and including its
// ']'; row is the row index for messages (-1 for a vector).
func (m *jsonMatrix) countNumbers(s *jsonScanner, row int) (int, error) {
	n := 0
	for ; s.element(); n++ {
		if s.number() == nil {
			return 0, fmt.Errorf("%s holds a JSON %s where a number is wanted", m.where(row, n), kindOf(s.peek()))
		}
	}
	return n, nil
}

// parse fills flat with the numbers, in order (the shape was checked by count).
func (m *jsonMatrix) parse(s *jsonScanner, flat []float64) error {
	s.expect('[', "", "")
	k := 0
	numbers := func(row int) error {
		for j := 0; s.element(); j++ {
			text := s.number()
			v, err := strconv.ParseFloat(string(text), 64)
			if errors.Is(err, strconv.ErrRange) {
				return fmt.Errorf("%s: %s is out of the range of float64", m.where(row, j), text)
			} else if err != nil {
				return fmt.Errorf("%s: %w", m.where(row, j), err)
			}
			flat[k] = v
			k++
		}
		return nil
	}
	if m.vector {
		return numbers(-1)
	}
	for i := 0; s.element(); i++ {
		s.expect('[', "", "")
		if err := numbers(i); err != nil {
			return err
		}
	}
	return nil
}

// where names entry j of row (or of the vector when row < 0).
func (m *jsonMatrix) where(row, j int) string {
	if row < 0 {
		return fmt.Sprintf("%q entry %d", m.field, j)
	}
	return fmt.Sprintf("%q row %d, entry %d", m.field, row, j)
}

// jsonScanner walks a JSON value already known to be valid.
type jsonScanner struct {
	data []byte
	i    int
}

func (s *jsonScanner) space() {
	for s.i < len(s.data) && (s.data[s.i] == ' ' || s.data[s.i] == '\t' || s.data[s.i] == '\n' || s.data[s.i] == '\r') {
		s.i++
	}
}

func (s *jsonScanner) peek() byte {
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

// expect consumes the byte c, or says that what holds a JSON value of another kind where want
// is wanted.
func (s *jsonScanner) expect(c byte, what, want string) error {
	s.space()
	if s.peek() != c {
		return fmt.Errorf("%s holds a JSON %s where %s is wanted", what, kindOf(s.peek()), want)
	}
	s.i++
	return nil
}

// element reports whether the array being walked has another element, consuming the comma
// before it, or the closing ']' when it has none.
func (s *jsonScanner) element() bool {
	s.space()
	switch s.peek() {
	case ']':
		s.i++
		return false
	case ',':
		s.i++
		s.space()
	}
	return true
}

// number consumes a number and returns its text (a slice of the input), or nil when the next
// value is not a number.
func (s *jsonScanner) number() []byte {
	s.space()
	start := s.i
	for s.i < len(s.data) {
		c := s.data[s.i]
		if !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
			break
		}
		s.i++
	}
	if s.i == start {
		return nil
	}
	return s.data[start:s.i]
}

// kindOf names the kind of JSON value that starts with c.
func kindOf(c byte) string {
	switch c {
	case '"':
		return "string"
	case '[':
		return "array"
	case '{':
		return "object"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// limitedList decodes a JSON array of T after counting its elements in the text, refusing
// more than max of them before any is decoded (encoding/json would build them all first).
// null leaves the list nil.
type limitedList[T any] struct {
	field string // the JSON field, for messages
	nodes bool   // the elements are nodes: their limit is Limits.MaxNodes
	max   int
	list  []T
}

// UnmarshalJSON decodes data, which encoding/json has already checked to be valid JSON.
func (l *limitedList[T]) UnmarshalJSON(data []byte) error {
	n, ok := jsonArrayLen(data)
	if ok && n > l.max && l.nodes {
		return fmt.Errorf("%q: %d nodes exceed the limit of %d (raise Limits.MaxNodes, or --max-nodes on the command line)", l.field, n, l.max)
	}
	if ok && n > l.max {
		return fmt.Errorf("%q has %d entries, more than the limit of %d (raise Limits.MaxNodes or Limits.MaxDenseBytes, or --max-nodes or --max-memory on the command line)", l.field, n, l.max)
	}
	l.list = nil
	return json.Unmarshal(data, &l.list)
}

// jsonArrayLen counts the elements of the JSON array data (valid JSON), without decoding
// them; ok is false when data is not an array.
func jsonArrayLen(data []byte) (n int, ok bool) {
	ok = walkJSONArray(data, func(_, _ int) { n++ })
	return n, ok
}

// jsonArrayElements are the texts of the elements of the JSON array data (valid JSON), slices
// of it; ok is false when data is not an array.
func jsonArrayElements(data []byte) (elems [][]byte, ok bool) {
	ok = walkJSONArray(data, func(start, end int) { elems = append(elems, data[start:end]) })
	return elems, ok
}

// walkJSONArray calls elem with the bounds of each element of the JSON array data (valid
// JSON), spaces trimmed, in order, without decoding them; it reports whether data is an array.
func walkJSONArray(data []byte, elem func(start, end int)) bool {
	s := jsonScanner{data: data}
	s.space()
	if s.peek() != '[' {
		return false
	}
	depth, inString := 0, false
	start, end := -1, -1 // the current element's bounds at depth 1
	for i := s.i; i < len(data); i++ {
		c := data[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
				end = i + 1
			}
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case depth == 1 && (c == ',' || c == ']'):
			if start >= 0 {
				elem(start, end)
			}
			start = -1
		case depth == 1 && start < 0:
			start = i
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		}
		end = i + 1
	}
	return true
}
