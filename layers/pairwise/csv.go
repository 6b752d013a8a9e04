package pairwise

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/linelimit"
)

// pairCSVHeader is the header of the pairwise discrepancies' CSV: one row per pair i < j, with
// the graphs' indices (0-based, in data order) and names.
var pairCSVHeader = []string{"i", "j", "graph_i", "graph_j", "gwd"}

// CSVWriter writes pairwise discrepancies as CSV, a row per pair: the format of
// "gwf pairwise", whose shards' parts "gwf merge" joins and "gwf cluster --distances" reads.
type CSVWriter struct {
	cw   *csv.Writer
	data []*graphs.Graph
	rec  []string
}

// NewCSVWriter writes the header and returns a writer of pairs of data's graphs.
func NewCSVWriter(w io.Writer, data []*graphs.Graph) *CSVWriter {
	p := &CSVWriter{cw: csv.NewWriter(w), data: data}
	p.cw.Write(pairCSVHeader)
	return p
}

// Write writes the discrepancy d of graphs i and j.
func (p *CSVWriter) Write(i, j int, d float64) error {
	p.rec = append(p.rec[:0], strconv.Itoa(i), strconv.Itoa(j), p.data[i].Name, p.data[j].Name, strconv.FormatFloat(d, 'g', -1, 64))
	p.cw.Write(p.rec)
	return p.cw.Error()
}

// Flush writes what is buffered and reports any write error.
func (p *CSVWriter) Flush() error {
	p.cw.Flush()
	if err := p.cw.Error(); err != nil {
		return fmt.Errorf("pairwise csv: %w", err)
	}
	return nil
}

// ReadCSV reads the discrepancies of every pair of data's graphs from the CSV that
// CSVWriter writes (all pairs, in any order: a merged sharded run or a single one) into the
// matrix that Matrix returns. Each row's names must be those of data's graphs at its indices
// (the same data, read the same way), each pair must appear once, and every value be finite.
func ReadCSV(r io.Reader, data []*graphs.Graph) (*mat.SymDense, error) {
	n := len(data)
	if n < 2 {
		return nil, fmt.Errorf("pairwise csv: %d graphs, need at least 2", n)
	}
	// A row is two indices, two graph names and a number: 1 MiB is no row of this file.
	cr := csv.NewReader(linelimit.New(r, 1<<20))
	cr.FieldsPerRecord = len(pairCSVHeader)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("pairwise csv: header: %w", err)
	}
	for c, want := range pairCSVHeader {
		if head[c] != want {
			return nil, fmt.Errorf("pairwise csv: header %q, want %q (the output of gwf pairwise)", head, pairCSVHeader)
		}
	}
	d := mat.NewSymDense(n, nil)
	seen := make([]bool, Pairs(n))
	count := 0
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("pairwise csv: %w", err)
		}
		i, err1 := strconv.Atoi(rec[0])
		j, err2 := strconv.Atoi(rec[1])
		v, err3 := strconv.ParseFloat(rec[4], 64)
		switch {
		case err1 != nil || err2 != nil || err3 != nil:
			return nil, fmt.Errorf("pairwise csv: line %d: %q: want two indices and a number", line, rec)
		case i < 0 || j <= i || j >= n:
			return nil, fmt.Errorf("pairwise csv: line %d: pair (%d, %d): want 0 ≤ i < j < %d (the number of graphs)", line, i, j, n)
		case rec[2] != data[i].Name || rec[3] != data[j].Name:
			return nil, fmt.Errorf("pairwise csv: line %d: graphs %q and %q, but the data's graphs %d and %d are %q and %q: computed on other data?", line, rec[2], rec[3], i, j, data[i].Name, data[j].Name)
		case math.IsNaN(v) || math.IsInf(v, 0):
			return nil, fmt.Errorf("pairwise csv: line %d: discrepancy %v of graphs %q and %q is not finite", line, v, rec[2], rec[3])
		}
		t := i*(2*n-i-1)/2 + j - i - 1
		if seen[t] {
			return nil, fmt.Errorf("pairwise csv: line %d: pair (%d, %d) appears twice (a part merged twice?)", line, i, j)
		}
		seen[t] = true
		count++
		d.SetSym(i, j, v)
	}
	if count != len(seen) {
		return nil, fmt.Errorf("pairwise csv: %d of the %d pairs of %d graphs are missing (a shard's part not merged?)", len(seen)-count, len(seen), n)
	}
	return d, nil
}
