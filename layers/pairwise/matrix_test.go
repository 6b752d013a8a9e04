package pairwise

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npy"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// TestReadMatrixNPY: a matrix written is read back; one rounding error below 0 is kept (GW
// objectives can land there); non-finite, asymmetric, wrongly sized or oversized ones are
// refused.
func TestReadMatrixNPY(t *testing.T) {
	d := mat.NewSymDense(3, []float64{0, 1.5, -1e-17, 1.5, 0, 2, -1e-17, 2, 0})
	var buf bytes.Buffer
	if err := WriteMatrixNPY(&buf, d); err != nil {
		t.Fatal(err)
	}
	got, err := ReadMatrixNPY(bytes.NewReader(buf.Bytes()), int64(buf.Len()), 3)
	if err != nil || !mat.Equal(got, d) {
		t.Fatalf("read back %v (%v)", got, err)
	}
	if _, err := ReadMatrixNPY(bytes.NewReader(buf.Bytes()), int64(buf.Len()), 4); err == nil || !strings.Contains(err.Error(), "for 4 graphs") {
		t.Errorf("3×3 for 4 graphs: %v", err)
	}
	if _, err := ReadMatrixNPY(bytes.NewReader(buf.Bytes()), 1<<20, 3); err == nil || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("oversized: %v", err)
	}
	for name, bad := range map[string]*mat.Dense{
		"not finite": mat.NewDense(2, 2, []float64{0, math.NaN(), math.NaN(), 0}),
		"asymmetric": mat.NewDense(2, 2, []float64{0, 1, 2, 0}),
		"diagonal":   mat.NewDense(2, 2, []float64{1, 1, 1, 0}),
	} {
		buf.Reset()
		if err := npy.Write(&buf, bad); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadMatrixNPY(bytes.NewReader(buf.Bytes()), int64(buf.Len()), 2); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestMatrixFormats: the square matrix round-trips through .npz and named CSV; a CSV of other
// graphs' names is refused.
func TestMatrixFormats(t *testing.T) {
	d := mat.NewSymDense(3, []float64{0, 1.5, 0.25, 1.5, 0, 2, 0.25, 2, 0})
	data := []*graphs.Graph{{Name: "a"}, {Name: "b"}, {Name: "c,d"}}
	names := []string{"a", "b", "c,d"}
	for _, format := range []string{"npy", "npz", "csv"} {
		var buf bytes.Buffer
		if err := WriteMatrix(&buf, format, d, names); err != nil {
			t.Fatal(err)
		}
		got, err := ReadMatrix(bytes.NewReader(buf.Bytes()), int64(buf.Len()), format, data)
		if err != nil || !mat.Equal(got, d) {
			t.Fatalf("%s: read back %v (%v)", format, got, err)
		}
		if format != "csv" {
			continue
		}
		other := []*graphs.Graph{{Name: "a"}, {Name: "x"}, {Name: "c,d"}}
		if _, err := ReadMatrix(bytes.NewReader(buf.Bytes()), int64(buf.Len()), format, other); err == nil || !strings.Contains(err.Error(), "other data") {
			t.Errorf("other names: %v", err)
		}
	}
	if got := MatrixFormat("x.NPZ"); got != "npz" {
		t.Errorf("MatrixFormat(x.NPZ) = %q", got)
	}
	if _, err := ReadMatrix(strings.NewReader(""), 0, "txt", data); err == nil {
		t.Error("format txt accepted")
	}
}
