package matfile

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"gonum.org/v1/gonum/mat"
)

var want = mat.NewDense(2, 3, []float64{0, 1.5, -2.25, 3, 1e-300, 4.5})

var lim = Limits{MaxRows: 100, MaxCols: 100}

func readFile(t *testing.T, path string, l Limits) (*mat.Dense, error) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, ok := FormatOf(path)
	if !ok {
		t.Fatalf("%s: no format", path)
	}
	return Read(bytes.NewReader(b), int64(len(b)), f, l)
}

// TestReadNumpy: what numpy.save, savez, savez_compressed and savetxt write reads back.
func TestReadNumpy(t *testing.T) {
	for _, name := range []string{"m.npy", "m_fortran.npy", "one.npz", "named.npz", "m.csv"} {
		m, err := readFile(t, "testdata/"+name, lim)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !mat.Equal(m, want) {
			t.Errorf("%s: read %v, want %v", name, mat.Formatted(m), mat.Formatted(want))
		}
	}
	for _, name := range []string{"m_f4.npy", "m_i8.npy"} {
		if _, err := readFile(t, "testdata/"+name, lim); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "float64") {
			t.Errorf("%s: err = %v, want one asking for float64", name, err)
		}
	}
}

// TestRoundTrip: Write then Read gives the same matrix in every format; CSV keeps names.
func TestRoundTrip(t *testing.T) {
	sq := mat.NewDense(3, 3, []float64{0, 0.1, 2, 0.1, 0, 1e-17, 2, 1e-17, 0})
	for _, f := range []Format{NPY, NPZ, CSV} {
		for _, names := range [][]string{nil, {"a", "b,c", "12"}} {
			if names != nil && f != CSV {
				continue
			}
			var buf bytes.Buffer
			if err := Write(&buf, f, sq, names); err != nil {
				t.Fatal(err)
			}
			got, err := Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()), f, lim)
			if err != nil {
				t.Fatalf("%v %v: %v", f, names, err)
			}
			if !mat.Equal(got, sq) {
				t.Errorf("%v %v: read %v", f, names, mat.Formatted(got))
			}
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, CSV, sq, []string{"a", "b", "c"}); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(buf.String(), "\n"); first != "name,a,b,c" {
		t.Errorf("CSV header %q", first)
	}
}

// TestReadRefuses: wrong shapes, limits, non-numbers and non-finite values are errors.
func TestReadRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		f          Format
		l          Limits
	}{
		{"cube", "", NPY, lim},
		{"two arrays", "", NPZ, lim},
		{"too many rows", "1,2\n3,4\n5,6\n", CSV, Limits{MaxRows: 2, MaxCols: 5}},
		{"too many columns", "1,2,3\n", CSV, Limits{MaxRows: 5, MaxCols: 2}},
		{"ragged", "1,2\n3\n", CSV, lim},
		{"not a number", "1,2\n3,x\n", CSV, lim},
		{"NaN", "1,NaN\n", CSV, lim},
		{"Inf", "1,+Inf\n", CSV, lim},
		{"empty", "", CSV, lim},
		{"header only", "a,b\n", CSV, lim},
		{"garbage npy", "\x93NUMPY\x01\x00zz", NPY, lim},
		{"garbage npz", "PK not a zip", NPZ, lim},
		{"npy beyond the limits", "", NPY, Limits{MaxRows: 1, MaxCols: 1}},
	} {
		var b []byte
		switch tc.name {
		case "cube":
			b, _ = os.ReadFile("testdata/cube.npy")
		case "two arrays":
			b, _ = os.ReadFile("testdata/two.npz")
		case "npy beyond the limits":
			b, _ = os.ReadFile("testdata/m.npy")
		default:
			b = []byte(tc.text)
		}
		_, err := Read(bytes.NewReader(b), int64(len(b)), tc.f, tc.l)
		if !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err = %v, want an ErrFormat", tc.name, err)
		}
	}
}

// TestReadLongLine: a CSV line longer than a row of the limits can be is refused as such, before
// it is buffered whole.
func TestReadLongLine(t *testing.T) {
	b := []byte(strings.Repeat("1", 1<<20))
	_, err := Read(bytes.NewReader(b), int64(len(b)), CSV, Limits{MaxRows: 5, MaxCols: 5})
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "too long") {
		t.Errorf("err = %v, want a line too long", err)
	}
}

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]Format{"a.npy": NPY, "b.NPZ": NPZ, "dir/c.csv": CSV} {
		if f, ok := FormatOf(path); !ok || f != want {
			t.Errorf("%s: %v %v", path, f, ok)
		}
	}
	if _, ok := FormatOf("d.txt"); ok {
		t.Error("d.txt has a format")
	}
}

// FuzzRead: no input panics, hangs or allocates beyond the limits.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"m.npy", "one.npz", "m.csv"} {
		b, _ := os.ReadFile("testdata/" + name)
		f.Add(b, uint8(0))
	}
	f.Add([]byte("name,a\na,1\n"), uint8(2))
	f.Fuzz(func(t *testing.T, b []byte, kind uint8) {
		format := []Format{NPY, NPZ, CSV}[int(kind)%3]
		m, err := Read(bytes.NewReader(b), int64(len(b)), format, Limits{MaxRows: 64, MaxCols: 64})
		if err == nil {
			if r, c := m.Dims(); r > 64 || c > 64 {
				t.Fatalf("%d×%d beyond the limits", r, c)
			}
		}
	})
}

// TestReadFile: a file is read in the format of its extension; another extension is refused.
func TestReadFile(t *testing.T) {
	m, err := ReadFile("testdata/one.npz", lim)
	if err != nil || !mat.Equal(m, want) {
		t.Fatalf("one.npz: %v, %v", m, err)
	}
	if _, err := ReadFile("testdata/numpy_fixtures.py", lim); !errors.Is(err, ErrFormat) {
		t.Errorf(".py: err = %v, want ErrFormat", err)
	}
}

// TestReadShortReads: a reader that returns fewer bytes than asked (a pipe, a network file, a
// buffered file at its buffer's end) reads the same matrix. npyio reads each number with one
// Read call and kept the stale bytes of a short read: a row vector read through bufio from a
// file came back with wrong numbers (a NaN among them).
func TestReadShortReads(t *testing.T) {
	m := mat.NewDense(3, 700, nil)
	for i := range 3 {
		for j := range 700 {
			m.Set(i, j, float64(i*1000+j)+0.25)
		}
	}
	for _, f := range []Format{NPY, NPZ, CSV} {
		var buf bytes.Buffer
		if err := Write(&buf, f, m, nil); err != nil {
			t.Fatal(err)
		}
		got, err := Read(iotest.OneByteReader(bytes.NewReader(buf.Bytes())), int64(buf.Len()), f, Limits{MaxRows: 3, MaxCols: 700})
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if !mat.Equal(got, m) {
			t.Errorf("%v: read through one-byte reads differs", f)
		}
	}
}

// TestReadTruncatedNPY: an .npy file cut short is an error, not a matrix padded with stale
// numbers.
func TestReadTruncatedNPY(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, NPY, want, nil); err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{1, 4, 8, 12} {
		b := buf.Bytes()[:buf.Len()-cut]
		if m, err := Read(bytes.NewReader(b), int64(len(b)), NPY, lim); err == nil {
			t.Errorf("cut by %d bytes: read %v, want an error", cut, mat.Formatted(m))
		}
	}
}
