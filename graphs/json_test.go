package graphs

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestJSONRoundTrip(t *testing.T) {
	full, err := New("full",
		mat.NewDense(3, 3, []float64{0, 0.1, 1.0 / 3, 0.1, 0, 2e-300, 7, 1e100, 5}),
		[]float64{0.25, 0.5, 0.25},
		mat.NewDense(3, 2, []float64{-1.5, 0, 3, 1e-7, 0.3, -4e21}))
	if err != nil {
		t.Fatal(err)
	}
	full.Label, full.HasLabel = -2, true
	bare, err := New("bare", mat.NewDense(1, 1, []float64{0}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*Graph{full, bare} {
		t.Run(g.Name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteJSON(&buf, g); err != nil {
				t.Fatal(err)
			}
			h, err := ReadJSON(&buf, g.Name, Limits{})
			if err != nil {
				t.Fatalf("%v\n%s", err, buf.String())
			}
			if h.Name != g.Name || !mat.Equal(h.Dense(), g.Dense()) || !slices.Equal(h.Mu, g.Mu) ||
				h.Label != g.Label || h.HasLabel != g.HasLabel || (h.F == nil) != (g.F == nil) ||
				(g.F != nil && !mat.Equal(h.F, g.F)) {
				t.Errorf("round trip changed the graph:\n%s", buf.String())
			}
		})
	}
}

func TestReadJSONMinimal(t *testing.T) {
	g, err := ReadJSON(strings.NewReader(`{"adjacency": [[0, 1, 0], [1, 0, 2], [0, 2, 0]]}`), "min.json", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if g.N() != 3 || g.F != nil || g.HasLabel || !slices.Equal(g.Mu, UniformMu(3)) || g.A.At(1, 2) != 2 {
		t.Errorf("got N=%d F=%v HasLabel=%v Mu=%v", g.N(), g.F, g.HasLabel, g.Mu)
	}
}

func TestReadFileJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.json")
	if err := os.WriteFile(path, []byte(`{"adjacency": [[0]], "label": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := ReadFile(path, FileOptions{})
	if err != nil || g.Name != path || g.Label != 1 || !g.HasLabel {
		t.Fatalf("ReadFile = %+v, %v", g, err)
	}
	if _, err := ReadFile(path+".missing", FileOptions{}); err == nil || !strings.Contains(err.Error(), "g.json.missing") {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"adjacency": [[0, 1]]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(bad, FileOptions{}); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("bad file: %v, want an error naming %s", err, bad)
	}
}

func TestReadJSONErrors(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		lim     Limits
		want    []string // all must appear in the message
		invalid bool     // the error wraps ErrInvalid
	}{
		{"empty", "", Limits{}, []string{"empty input"}, false},
		{"not JSON", "adjacency: [[0]]", Limits{}, []string{"not valid JSON", "line 1, column 1"}, false},
		{"bad token on line 3", "{\n\"adjacency\": [[0, 1],\n [1, x]]}", Limits{}, []string{"not valid JSON", "line 3, column 6", "byte 29"}, false},
		{"Python's NaN", `{"adjacency": [[0, NaN], [1, 0]]}`, Limits{}, []string{"not valid JSON", "NaN and Infinity are not JSON"}, false},
		{"Python's -Infinity", `{"adjacency": [[0, -Infinity], [1, 0]]}`, Limits{}, []string{"column 21", "NaN and Infinity are not JSON"}, false},
		{"truncated", `{"adjacency": [[0, 1], [1, `, Limits{}, []string{"truncated", "byte 27"}, false},
		{"top level array", `[[0, 1], [1, 0]]`, Limits{}, []string{"top level must be a JSON object"}, false},
		{"unknown field", `{"adjacency": [[0]], "lable": 1}`, Limits{}, []string{`unknown field "lable"`, "known fields"}, false},
		{"trailing data", `{"adjacency": [[0]]} {"adjacency": [[0]]}`, Limits{}, []string{"after the JSON object", "byte 20"}, false},
		{"string entry", `{"adjacency": [[0, "1"], [1, 0]]}`, Limits{}, []string{`"adjacency"`, "string"}, false},
		{"number out of range", `{"adjacency": [[0, 1e400], [1, 0]]}`, Limits{}, []string{"1e400", "out of the range"}, false},
		{"fractional label", `{"adjacency": [[0]], "label": 1.5}`, Limits{}, []string{`"label" must be an integer`}, false},
		{"missing adjacency", `{"mu": [1]}`, Limits{}, []string{`no "adjacency"`}, true},
		{"null adjacency", `{"adjacency": null}`, Limits{}, []string{`no "adjacency"`}, true},
		{"empty adjacency", `{"adjacency": []}`, Limits{}, []string{"empty", "at least one node"}, true},
		{"ragged", `{"adjacency": [[0, 1, 0], [1, 0], [0, 1, 0]]}`, Limits{}, []string{"row 1 has 2 entries, want 3"}, true},
		{"not square", `{"adjacency": [[0, 1, 0], [1, 0, 0]]}`, Limits{}, []string{"2×3", "not square"}, true},
		{"negative entry", `{"adjacency": [[0, -1], [1, 0]]}`, Limits{}, []string{"(0,1) = -1", "non-negative"}, true},
		{"features rows", `{"adjacency": [[0, 1], [1, 0]], "features": [[1]]}`, Limits{}, []string{`"features" has 1 rows for 2 nodes`}, true},
		{"features empty", `{"adjacency": [[0, 1], [1, 0]], "features": []}`, Limits{}, []string{`"features" has 0 rows for 2 nodes`}, true},
		{"features ragged", `{"adjacency": [[0, 1], [1, 0]], "features": [[1, 2], [3]]}`, Limits{}, []string{"row 1 has 1 entries, want 2"}, true},
		{"features no columns", `{"adjacency": [[0, 1], [1, 0]], "features": [[], []]}`, Limits{}, []string{"row 0 is empty"}, true},
		{"mu length", `{"adjacency": [[0, 1], [1, 0]], "mu": [1]}`, Limits{}, []string{"mu has 1 entries for 2 nodes"}, true},
		{"mu not on simplex", `{"adjacency": [[0, 1], [1, 0]], "mu": [0.5, 0.6]}`, Limits{}, []string{"mu sums to 1.1"}, true},
		{"mu zero entry", `{"adjacency": [[0, 1], [1, 0]], "mu": [1, 0]}`, Limits{}, []string{"mu[1] = 0", "strictly positive"}, true},
		{"too many nodes", `{"adjacency": [[0, 0, 0], [0, 0, 0], [0, 0, 0]]}`, Limits{MaxNodes: 2}, []string{"3 nodes exceed the limit of 2"}, false},
		{"too many dense bytes", `{"adjacency": [[0, 0], [0, 0]], "features": [[1, 2, 3], [4, 5, 6]]}`, Limits{MaxDenseBytes: 64}, []string{"80 bytes", "limit of 64", "MaxDenseBytes"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			name := "in-" + strings.ReplaceAll(tc.name, " ", "-") + ".json"
			g, err := ReadJSON(strings.NewReader(tc.in), name, tc.lim)
			if err == nil {
				t.Fatalf("accepted: %+v", g)
			}
			msg := err.Error()
			if !strings.Contains(msg, name) {
				t.Errorf("error %q does not name %q", msg, name)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if tc.invalid && !errors.Is(err, ErrInvalid) {
				t.Errorf("error %q does not wrap ErrInvalid", msg)
			}
		})
	}
}

// jsonEndless yields an opening brace and then spaces for ever.
type jsonEndless struct{ started bool }

func (e *jsonEndless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	if !e.started && len(p) > 0 {
		p[0], e.started = '{', true
	}
	return len(p), nil
}

func TestReadJSONSizeBound(t *testing.T) {
	lim := Limits{MaxNodes: 10}
	_, err := ReadJSON(&jsonEndless{}, "endless.json", lim)
	if err == nil || !strings.Contains(err.Error(), "endless.json") || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("endless input: %v, want a size error", err)
	}
	// The bound leaves room for a graph at the node limit with long numbers.
	var b strings.Builder
	b.WriteString(`{"adjacency": [`)
	for i := range 10 {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("[" + strings.TrimSuffix(strings.Repeat("1.2345678901234567e-100, ", 10), ", ") + "]")
	}
	b.WriteString("]}")
	if _, err := ReadJSON(strings.NewReader(b.String()), "big.json", lim); err != nil {
		t.Errorf("graph at the node limit: %v", err)
	}
}

func TestWriteJSONInvalid(t *testing.T) {
	g := &Graph{Name: "nan", A: mustCSR(t, mat.NewDense(1, 1, []float64{0})), Mu: []float64{0.5}}
	if err := WriteJSON(&bytes.Buffer{}, g); err == nil || !errors.Is(err, ErrInvalid) {
		t.Errorf("WriteJSON of an invalid graph: %v", err)
	}
	if err := WriteJSON(&bytes.Buffer{}, nil); err == nil {
		t.Error("WriteJSON(nil) succeeded")
	}
}

// TestReadJSONLimitsBeforeAllocating: a one-row adjacency of two million entries (4 MB of
// text) is refused by its width, allocating little more than the decoder's copy of the text
// (encoding/json alone built the 16 MB row, growing it, before any limit was checked); the
// features count towards MaxDenseBytes whichever field comes first.
func TestReadJSONLimitsBeforeAllocating(t *testing.T) {
	const n = 2_000_000
	text := `{"adjacency": [[` + strings.Repeat("0,", n-1) + `0]]}`
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := ReadJSON(strings.NewReader(text), "wide.json", Limits{})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "row 0 has 2000000 entries") {
		t.Fatalf("a 2 000 000-wide row: %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(4*len(text))+1<<20 {
		t.Errorf("reading %d bytes allocated %d", len(text), alloc)
	}
	_, err = ReadJSON(strings.NewReader(`{"features": [[1, 2, 3], [4, 5, 6]], "adjacency": [[0, 0], [0, 0]]}`), "f.json", Limits{MaxDenseBytes: 64})
	if err == nil || !strings.Contains(err.Error(), "80 bytes, over the limit of 64") {
		t.Errorf("features before the adjacency: %v", err)
	}
	_, err = ReadJSON(strings.NewReader(`{"adjacency": [[0]], "mu": [`+strings.Repeat("1,", 20)+`1]}`), "mu.json", Limits{MaxNodes: 10})
	if err == nil || !strings.Contains(err.Error(), `"mu" has 21 entries`) {
		t.Errorf("a long mu: %v", err)
	}
	for in, want := range map[string]string{
		`{"adjacency": [0, 1]}`:               `"adjacency" row 0 holds a JSON number where an array of numbers is wanted`,
		`{"adjacency": {"a": 1}}`:             `"adjacency" holds a JSON object where an array is wanted`,
		`{"adjacency": [[0, [1]]]}`:           `"adjacency" row 0, entry 1 holds a JSON array where a number is wanted`,
		`{"adjacency": [[0]], "mu": true}`:    `"mu" holds a JSON boolean`,
		`{"adjacency": [[0]], "mu": [1e999]}`: `"mu" entry 0: 1e999 is out of the range of float64`,
	} {
		if _, err := ReadJSON(strings.NewReader(in), "t.json", Limits{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

func TestJSONArrayLen(t *testing.T) {
	for in, want := range map[string]int{`[]`: 0, ` [ ] `: 0, `[1]`: 1, `[1, 2]`: 2, `[[1,2],[3]]`: 2,
		`["a,b", {"x": [1, 2]}]`: 2, `["\"", 1]`: 2, `["\\", 1, null]`: 3, `[{}]`: 1} {
		if n, ok := jsonArrayLen([]byte(in)); !ok || n != want {
			t.Errorf("jsonArrayLen(%s) = %d, %v; want %d", in, n, ok, want)
		}
	}
	if _, ok := jsonArrayLen([]byte(`{"a": 1}`)); ok {
		t.Error("an object counted as an array")
	}
}

// TestReadNodeLinkCountsBeforeDecoding: two million empty nodes (6 MB of text) are refused by
// their count before any node map is built (a decoded map takes many times the text's size).
func TestReadNodeLinkCountsBeforeDecoding(t *testing.T) {
	text := `{"nodes": [` + strings.Repeat("{},", 2_000_000-1) + `{}], "links": []}`
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := ReadNodeLink(strings.NewReader(text), "many.json", NodeLinkOptions{})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "2000000 nodes exceed the limit of 5000") {
		t.Fatalf("two million nodes: %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(4*len(text))+1<<20 {
		t.Errorf("reading %d bytes allocated %d", len(text), alloc)
	}
}
