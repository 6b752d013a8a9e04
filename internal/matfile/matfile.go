package matfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Format is a matrix file format.
type Format int

// The formats, by extension: .npy, .npz, .csv.
const (
	NPY Format = iota + 1
	NPZ
	CSV
)

func (f Format) String() string {
	switch f {
	case NPY:
		return "npy"
	case NPZ:
		return "npz"
	case CSV:
		return "csv"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// FormatOf returns the format that path's extension names (case-insensitive), and false for
// any other extension.
func FormatOf(path string) (Format, bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".npy":
		return NPY, true
	case ".npz":
		return NPZ, true
	case ".csv":
		return CSV, true
	}
	return 0, false
}

// Key is the name of the array Write puts in an .npz file (numpy.load(path)["matrix"]).
const Key = "matrix"

// Limits bound the matrices a reader accepts.
type Limits struct {
	MaxRows, MaxCols int
}

// bytes is the most a binary file of a matrix within the limits takes: its data and a header.
func (l Limits) bytes() int64 { return int64(l.MaxRows)*int64(l.MaxCols)*8 + maxHeader + 1<<10 }

// ErrFormat is wrapped by every error about a file's content.
var ErrFormat = errors.New("matrix file")

// Write writes m in format f. names, when given, label the rows and the columns of a CSV
// (a header "name,<names...>" and each row's name first; a square matrix is assumed); the
// binary formats hold the numbers only.
func Write(w io.Writer, f Format, m mat.Matrix, names []string) error {
	switch f {
	case NPY:
		return writeNPY(w, m)
	case NPZ:
		return writeNPZ(w, m)
	case CSV:
		return writeCSV(w, m, names)
	}
	return fmt.Errorf("matrix file: unknown format %v", f)
}

// Read reads a matrix in format f from r, which holds size bytes (a binary file larger than
// a float64 matrix of the limits is refused unread). A CSV may have a header row (its first
// cell not a number) and a first column of names (then on every row).
func Read(r io.Reader, size int64, f Format, lim Limits) (*mat.Dense, error) {
	m, _, err := ReadNamed(r, size, f, lim)
	return m, err
}

// ReadFile reads the matrix file at path in the format its extension names (FormatOf).
func ReadFile(path string, lim Limits) (*mat.Dense, error) {
	f, ok := FormatOf(path)
	if !ok {
		return nil, fmt.Errorf("%s: %w: name a .npy, .npz or .csv file", path, ErrFormat)
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return nil, err
	}
	m, err := Read(bufio.NewReader(file), st.Size(), f, lim)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// ReadNamed is Read that also returns the names of a CSV's first column (nil when it has
// none, and for the binary formats).
func ReadNamed(r io.Reader, size int64, f Format, lim Limits) (*mat.Dense, []string, error) {
	if lim.MaxRows < 1 || lim.MaxCols < 1 {
		return nil, nil, fmt.Errorf("matrix file: limits %d×%d must be positive", lim.MaxRows, lim.MaxCols)
	}
	if most := lim.bytes(); f != CSV && size > most {
		return nil, nil, fmt.Errorf("%w: %d bytes, more than a %d×%d float64 matrix needs", ErrFormat, size, lim.MaxRows, lim.MaxCols)
	}
	var m *mat.Dense
	var names []string
	var err error
	switch f {
	case NPY:
		m, err = readNPY(r, size, lim)
	case NPZ:
		m, err = readNPZ(r, size, lim)
	case CSV:
		m, names, err = readCSV(r, lim)
	default:
		return nil, nil, fmt.Errorf("matrix file: unknown format %v", f)
	}
	if err != nil {
		return nil, nil, err
	}
	rows, cols := m.Dims()
	for i := range rows {
		for j := range cols {
			if v := m.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("%w: entry (%d, %d) is %v, want a finite number", ErrFormat, i, j, v)
			}
		}
	}
	return m, names, nil
}

// checkShape checks an array's shape against the limits before its data are read.
func checkShape(shape []int, lim Limits) error {
	if len(shape) != 2 {
		return fmt.Errorf("%w: an array of shape %v, want a matrix (2 dimensions)", ErrFormat, shape)
	}
	if shape[0] < 1 || shape[1] < 1 || shape[0] > lim.MaxRows || shape[1] > lim.MaxCols {
		return fmt.Errorf("%w: a %d×%d matrix, want 1..%d rows and 1..%d columns", ErrFormat, shape[0], shape[1], lim.MaxRows, lim.MaxCols)
	}
	return nil
}
