package matfile

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/linelimit"
)

func writeCSV(w io.Writer, m mat.Matrix, names []string) error {
	rows, cols := m.Dims()
	if names != nil && (len(names) != rows || rows != cols) {
		return fmt.Errorf("matrix file: %d names for a %d×%d matrix (names label square matrices)", len(names), rows, cols)
	}
	cw := csv.NewWriter(w)
	rec := make([]string, 0, cols+1)
	if names != nil {
		rec = append(append(rec, "name"), names...)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	for i := range rows {
		rec = rec[:0]
		if names != nil {
			rec = append(rec, names[i])
		}
		for j := range cols {
			rec = append(rec, strconv.FormatFloat(m.At(i, j), 'g', -1, 64))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// readCSV reads rows of numbers, with an optional header row and first column of names.
func readCSV(r io.Reader, lim Limits) (*mat.Dense, []string, error) {
	// A row holds at most MaxCols numbers and a name: a longer line is no row of the matrix,
	// and is refused before it is buffered.
	cr := csv.NewReader(linelimit.New(r, lim.MaxCols*40+4096))
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1 // checked below, with a clearer message
	var data []float64
	var names []string
	cols, rows, skip := -1, 0, 0
	namedHeader := false
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%w: csv: %v", ErrFormat, err)
		}
		if line == 1 && !isNumber(rec[0]) { // a header; "name" or "" over a column of names
			namedHeader = rec[0] == "" || rec[0] == "name" || rec[0] == "graph"
			continue
		}
		if cols < 0 { // the first data row: names may be numbers only under a named header
			if namedHeader || !isNumber(rec[0]) {
				skip = 1
			}
			cols = len(rec) - skip
			if cols < 1 || cols > lim.MaxCols {
				return nil, nil, fmt.Errorf("%w: csv line %d: %d columns, want 1..%d", ErrFormat, line, cols, lim.MaxCols)
			}
		}
		if len(rec)-skip != cols {
			return nil, nil, fmt.Errorf("%w: csv line %d: %d numbers, the first row has %d", ErrFormat, line, len(rec)-skip, cols)
		}
		if rows++; rows > lim.MaxRows {
			return nil, nil, fmt.Errorf("%w: csv: more than %d rows", ErrFormat, lim.MaxRows)
		}
		if skip == 1 {
			names = append(names, rec[0])
		}
		for j, cell := range rec[skip:] {
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: csv line %d, column %d: %q is not a number", ErrFormat, line, j+skip+1, cell)
			}
			data = append(data, v)
		}
	}
	if rows == 0 {
		return nil, nil, fmt.Errorf("%w: csv: no rows of numbers", ErrFormat)
	}
	return mat.NewDense(rows, cols, data), names, nil
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}
