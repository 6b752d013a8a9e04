package pairwise

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/matfile"
)

// MatrixFormat returns the matrix file format that path's extension names: "npy", "npz" or
// "csv" (case-insensitive), or "" for any other.
func MatrixFormat(path string) string {
	f, ok := matfile.FormatOf(path)
	if !ok {
		return ""
	}
	return f.String()
}

func parseFormat(format string) (matfile.Format, error) {
	if f, ok := matfile.FormatOf("x." + format); ok {
		return f, nil
	}
	return 0, fmt.Errorf("matrix file: unknown format %q (want npy, npz or csv)", format)
}

// WriteMatrix writes the square matrix of discrepancies d in format ("npy", "npz" or "csv"):
// float64 n×n, row-major, as numpy.load reads it (an .npz holds it as "matrix"); a CSV has
// the graphs' names (when given) as its header and first column, as pandas.read_csv(path,
// index_col=0) reads it.
func WriteMatrix(w io.Writer, format string, d *mat.SymDense, names []string) error {
	f, err := parseFormat(format)
	if err != nil {
		return err
	}
	return matfile.Write(w, f, d, names)
}

// WriteMatrixNPY is WriteMatrix in .npy.
func WriteMatrixNPY(w io.Writer, d *mat.SymDense) error { return WriteMatrix(w, "npy", d, nil) }

// ReadMatrix reads the matrix of discrepancies between data's graphs in format ("npy", "npz"
// or "csv"; written by WriteMatrix, numpy or pandas): r holds size bytes, checked before
// anything is allocated. The matrix must be n×n, finite, symmetric, with a zero diagonal
// (discrepancies a rounding error below 0 are kept as they are); a CSV's names, when it has
// them, must be data's (the same data, read the same way).
func ReadMatrix(r io.Reader, size int64, format string, data []*graphs.Graph) (*mat.SymDense, error) {
	d, names, err := readSquare(r, size, format, len(data))
	if err != nil {
		return nil, err
	}
	for i, name := range names {
		if name != data[i].Name {
			return nil, fmt.Errorf("read %s: row %d is graph %q, the data's graph %d is %q: a matrix of other data", format, i, name, i, data[i].Name)
		}
	}
	return d, nil
}

// ReadMatrixNPY reads an n×n matrix of discrepancies as ReadMatrix does, from an .npy file.
func ReadMatrixNPY(r io.Reader, size int64, n int) (*mat.SymDense, error) {
	d, _, err := readSquare(r, size, "npy", n)
	return d, err
}

func readSquare(r io.Reader, size int64, format string, n int) (*mat.SymDense, []string, error) {
	f, err := parseFormat(format)
	if err != nil {
		return nil, nil, err
	}
	if n < 1 {
		return nil, nil, fmt.Errorf("read %s: no graphs", format)
	}
	m, names, err := matfile.ReadNamed(r, size, f, matfile.Limits{MaxRows: n, MaxCols: n})
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", format, err)
	}
	if rows, cols := m.Dims(); rows != n || cols != n {
		return nil, nil, fmt.Errorf("read %s: a %d×%d matrix for %d graphs", format, rows, cols, n)
	}
	for i := range n {
		if m.At(i, i) != 0 {
			return nil, nil, fmt.Errorf("read %s: entry (%d, %d) is %v, want 0 on the diagonal", format, i, i, m.At(i, i))
		}
		for j := i + 1; j < n; j++ {
			if m.At(i, j) != m.At(j, i) {
				return nil, nil, fmt.Errorf("read %s: entries (%d, %d) and (%d, %d) differ: not symmetric", format, i, j, j, i)
			}
		}
	}
	return mat.NewSymDense(n, mat.DenseCopyOf(m).RawMatrix().Data), names, nil
}

// ReadFile reads the discrepancies between data's graphs from a file as 'gwf pairwise'
// writes it: the square matrix of WriteMatrix (.npy, .npz, .csv; numpy's and pandas' too) or
// the CSV list of pairs of CSVWriter (the one process of --long, or merged shards). The
// file's format is told by its extension, a list of pairs by its header.
func ReadFile(path string, data []*graphs.Graph) (*mat.SymDense, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	format := MatrixFormat(path)
	r := bufio.NewReader(f)
	if format == "csv" || format == "" {
		if head, _ := r.Peek(4); string(head) == "i,j," {
			format = "pairs"
		}
	}
	var d *mat.SymDense
	switch format {
	case "pairs":
		d, err = ReadCSV(r, data)
	case "":
		err = fmt.Errorf("not a file gwf pairwise writes: name a .npy, .npz or .csv file")
	default:
		d, err = ReadMatrix(r, st.Size(), format, data)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}
