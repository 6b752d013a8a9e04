package shard

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/csr"
	"github.com/gwf-graphs/gwf/training"
)

// TestReadCSVExact: rows written by CSVWriter in two parts come back as the same float64s, with
// names and labels, in order.
func TestReadCSVExact(t *testing.T) {
	dir := t.TempDir()
	c, err := csr.FromDense(mat.NewDense(1, 1, nil))
	if err != nil {
		t.Fatal(err)
	}
	ds := &graphs.Dataset{Classes: []int{-1, 1}}
	rows := [][]float64{{math.Pi, -1e-300}, {1.0 / 3, math.MaxFloat64}, {0, 5e-324}}
	var parts []string
	for p, span := range [][2]int{{0, 2}, {2, 3}} {
		part := &graphs.Dataset{Classes: ds.Classes}
		for i := span[0]; i < span[1]; i++ {
			part.Graphs = append(part.Graphs, &graphs.Graph{Name: "g,\"" + string(rune('a'+i)), A: c, Label: i % 2, HasLabel: true})
		}
		f, err := os.Create(filepath.Join(dir, PartName("e.csv", Shard{p, 2})))
		if err != nil {
			t.Fatal(err)
		}
		w := NewCSVWriter(f, training.EmbeddingZ, 2)
		if err := w.Write(part, rows[span[0]:span[1]]); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		parts = append(parts, f.Name())
	}
	e, err := ReadCSV(parts)
	if err != nil {
		t.Fatal(err)
	}
	if e.Kind != training.EmbeddingZ || !slices.Equal(e.Labels, []string{"-1", "1", "-1"}) || e.Names[2] != "g,\"c" {
		t.Errorf("read kind %q, labels %v, names %q", e.Kind, e.Labels, e.Names)
	}
	for i, r := range rows {
		if !slices.Equal(e.Rows[i], r) {
			t.Errorf("row %d: read %v, wrote %v", i, e.Rows[i], r)
		}
	}
}

func TestReadCSVErrors(t *testing.T) {
	write := fileWriter(t)
	good := write("good.csv", "graph,label,z0\na,,1\n")
	cases := map[string][]string{
		"no parts":       nil,
		"empty":          {write("empty.csv", "")},
		"not a header":   {write("h.csv", "name,class,x\n")},
		"no columns":     {write("n.csv", "graph,label\n")},
		"gap in columns": {write("g.csv", "graph,label,z0,z2\n")},
		"other header":   {good, write("o.csv", "graph,label,z0,z1\n")},
		"bad number":     {write("b.csv", "graph,label,z0\na,,x\n")},
		"short row":      {write("s.csv", "graph,label,z0\na,\n")},
		"missing file":   {filepath.Join(filepath.Dir(good), "none.csv")},
		"device":         {os.DevNull},
		"no line ends":   {write("z.csv", strings.Repeat("\x00", 5<<20))},
	}
	for name, parts := range cases {
		if _, err := ReadCSV(parts); err == nil || !strings.HasPrefix(err.Error(), "shard: ") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

// TestMergeCSVRefusesNonParts: a device (copied without end) and a file without line ends (a
// header read without end) are refused, as is a header that differs.
func TestMergeCSVRefusesNonParts(t *testing.T) {
	write := fileWriter(t)
	good := write("good.csv", "graph,label,z0\na,,1\n")
	var out strings.Builder
	if err := MergeCSV(&out, []string{good, good}); err != nil || out.String() != "graph,label,z0\na,,1\na,,1\n" {
		t.Fatalf("two good parts: %q, %v", out.String(), err)
	}
	for name, c := range map[string]struct {
		parts []string
		want  string
	}{
		"device":       {[]string{good, os.DevNull}, "not a regular file"},
		"no line ends": {[]string{write("z.csv", strings.Repeat("\x00", 5<<20))}, "line too long"},
		"other header": {[]string{good, write("o.csv", "graph,label,z0,z1\n")}, "differs"},
	} {
		if err := MergeCSV(io.Discard, c.parts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, c.want)
		}
	}
}

// fileWriter writes files into a temporary folder and returns their paths.
func fileWriter(t *testing.T) func(name, text string) string {
	dir := t.TempDir()
	return func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}
