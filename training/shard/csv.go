package shard

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/linelimit"
	"github.com/gwf-graphs/gwf/training"
)

// CSVWriter writes embeddings in the CSV of "gwf embed" (experiment.Embeddings.WriteCSV), chunk
// by chunk, which that writer cannot do (tests compare the two byte for byte): a header
// "graph,label,<kind>0,...,<kind>K-1" and one row per graph with its name, its class label as
// the data files write it ("" for none) and the embedding.
type CSVWriter struct {
	cw   *csv.Writer
	kind training.Embedding
	rec  []string
}

// NewCSVWriter writes the header for embeddings of length k and returns the writer.
func NewCSVWriter(w io.Writer, kind training.Embedding, k int) *CSVWriter {
	c := &CSVWriter{cw: csv.NewWriter(w), kind: kind}
	header := []string{"graph", "label"}
	for j := range k {
		header = append(header, string(kind)+strconv.Itoa(j))
	}
	c.cw.Write(header)
	return c
}

// Write writes the rows of a chunk, one embedding per graph of ds (Embedding.Rows of the
// chunk's z, in the writer's kind).
func (c *CSVWriter) Write(ds *graphs.Dataset, rows [][]float64) error {
	if len(rows) != len(ds.Graphs) {
		return fmt.Errorf("shard: %d embeddings for %d graphs", len(rows), len(ds.Graphs))
	}
	for i, g := range ds.Graphs {
		c.rec = append(c.rec[:0], g.Name, ds.ClassName(g))
		for _, v := range rows[i] {
			c.rec = append(c.rec, strconv.FormatFloat(v, 'g', -1, 64))
		}
		c.cw.Write(c.rec)
	}
	return c.cw.Error()
}

// Flush writes what is buffered and reports any write error.
func (c *CSVWriter) Flush() error {
	c.cw.Flush()
	if err := c.cw.Error(); err != nil {
		return fmt.Errorf("shard: write CSV: %w", err)
	}
	return nil
}

// Order returns the part files in merge order. When every name is a PartName, they are sorted by
// shard and must be all the shards of one count, each once; otherwise, when none is, they stay
// in the order given.
func Order(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, errors.New("shard: no parts to merge")
	}
	shards := make([]Shard, len(paths))
	named := 0
	for i, p := range paths {
		if s, ok := ParsePartName(p); ok {
			shards[i] = s
			named++
		}
	}
	switch named {
	case 0:
		return paths, nil
	case len(paths):
	default:
		return nil, errors.New("shard: some parts are named NAME.shard-i-of-n and some not: give the parts of one run")
	}
	n := shards[0].Count
	byIndex := make([]string, n)
	for i, s := range shards {
		switch {
		case s.Count != n:
			return nil, fmt.Errorf("shard: %s is a part of %d shards, %s of %d", paths[i], s.Count, paths[0], n)
		case byIndex[s.Index] != "":
			return nil, fmt.Errorf("shard: shard %s is given twice (%s, %s)", s, byIndex[s.Index], paths[i])
		}
		byIndex[s.Index] = paths[i]
	}
	if i := slices.Index(byIndex, ""); i >= 0 {
		return nil, fmt.Errorf("shard: shard %d/%d is missing (%d of %d parts given)", i, n, len(paths), n)
	}
	return byIndex, nil
}

// MergeCSV writes the header line of the first part, then every part's rows in the order given:
// the bytes one process would have written for the whole corpus. Every part must start with
// the same header line.
func MergeCSV(w io.Writer, parts []string) error {
	var header string
	for i, p := range parts {
		if err := appendPart(w, p, i == 0, &header); err != nil {
			return err
		}
	}
	return nil
}

// appendPart copies part p after its header line, and the header line too when first.
func appendPart(w io.Writer, p string, first bool, header *string) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("shard: %w", err)
	}
	defer f.Close()
	if err := regular(f); err != nil {
		return err
	}
	br := bufio.NewReaderSize(linelimit.New(f, maxRowBytes), 64<<10)
	line, err := br.ReadString('\n')
	if err != nil {
		if err == io.EOF {
			return fmt.Errorf("shard: %s: no header line: not a CSV of gwf embed or gwf pairwise (empty or cut short?)", p)
		}
		return fmt.Errorf("shard: %s: %w", p, err)
	}
	if first {
		*header = line
		if _, err := io.WriteString(w, line); err != nil {
			return fmt.Errorf("shard: write: %w", err)
		}
	} else if line != *header {
		return fmt.Errorf("shard: %s: header %q differs from the first part's %q (parts of different runs?)", p, trimNL(line), trimNL(*header))
	}
	if _, err := br.WriteTo(w); err != nil {
		return fmt.Errorf("shard: %s: %w", p, err)
	}
	return nil
}

// maxRowBytes bounds a line of a part: K ≤ 10 000 numbers of at most 24 characters and a
// graph's name fit in it many times over, and a file without line ends fails at it.
const maxRowBytes = 4 << 20

// regular refuses a part that is not a regular file (a device or a pipe would be copied or
// read without end).
func regular(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("shard: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("shard: %s is not a regular file (a part written by gwf embed or gwf pairwise)", f.Name())
	}
	return nil
}

func trimNL(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}
