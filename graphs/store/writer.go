package store

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"

	"github.com/gwf-graphs/gwf/graphs"
)

// Writer appends graphs to a new store file. Close completes the file; until then it is not a
// store (Open refuses it), so a run killed while writing leaves nothing that reads as one.
type Writer struct {
	path    string
	f       *os.File
	w       *bufio.Writer
	dim     int
	offset  uint64   // where the next record starts
	offsets []uint64 // of the records written
	nodes   []uint32
	buf     []byte
	err     error // the first write error: every later call returns it
}

// Create starts a store at path, replacing any file there, for graphs with dim-dimensional node
// features (0: none).
func Create(path string, dim int) (*Writer, error) {
	if dim < 0 || dim > maxDim {
		return nil, fmt.Errorf("store: feature dimension %d out of range [0, %d]", dim, maxDim)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	w := &Writer{path: path, f: f, w: bufio.NewWriterSize(f, 1<<20), dim: dim, offset: headerSize}
	var h [headerSize]byte
	copy(h[:], headerMagic)
	le.PutUint32(h[8:], version)
	le.PutUint32(h[12:], uint32(dim))
	if _, err := w.w.Write(h[:]); err != nil {
		w.Abort()
		return nil, fmt.Errorf("store: write %s: %w", path, err)
	}
	return w, nil
}

// Len is the number of graphs added.
func (w *Writer) Len() int { return len(w.offsets) }

// Add appends g, which must be valid and have the store's feature dimension.
func (w *Writer) Add(g *graphs.Graph) error {
	if w.err != nil {
		return w.err
	}
	if g == nil {
		return errors.New("store: nil graph")
	}
	if err := g.Validate(); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if g.Dim() != w.dim {
		return fmt.Errorf("store: graph %q has %d-dimensional node features, the store %d", g.Name, g.Dim(), w.dim)
	}
	n := g.N()
	size, ok := recordSize(uint64(len(g.Name)), uint64(n), uint64(g.A.NNZ()), uint64(w.dim))
	if !ok {
		return fmt.Errorf("store: graph %q is too large for a store record", g.Name)
	}
	b := w.buf[:0]
	b = le.AppendUint32(b, uint32(len(g.Name)))
	b = append(b, g.Name...)
	b = le.AppendUint64(b, uint64(int64(g.Label)))
	if g.HasLabel {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = le.AppendUint32(b, uint32(n))
	b = le.AppendUint64(b, uint64(g.A.NNZ()))
	for i := 0; i < n; i++ {
		cols, _ := g.A.Row(i)
		b = le.AppendUint32(b, uint32(len(cols)))
	}
	for i := 0; i < n; i++ {
		cols, _ := g.A.Row(i)
		for _, c := range cols {
			b = le.AppendUint32(b, uint32(c))
		}
	}
	for i := 0; i < n; i++ {
		_, vals := g.A.Row(i)
		for _, v := range vals {
			b = le.AppendUint64(b, math.Float64bits(v))
		}
	}
	for _, v := range g.Mu {
		b = le.AppendUint64(b, math.Float64bits(v))
	}
	for i := 0; i < n && w.dim > 0; i++ {
		for _, v := range g.F.RawRowView(i) {
			b = le.AppendUint64(b, math.Float64bits(v))
		}
	}
	b = le.AppendUint32(b, crc32.Checksum(b, crcTable))
	w.buf = b
	if uint64(len(b)) != size {
		panic(fmt.Sprintf("store: record of %d bytes, %d expected", len(b), size)) // a bug in recordSize
	}
	if _, err := w.w.Write(b); err != nil {
		w.err = fmt.Errorf("store: write %s: %w", w.path, err)
		return w.err
	}
	w.offsets = append(w.offsets, w.offset)
	w.nodes = append(w.nodes, uint32(n))
	w.offset += size
	return nil
}

// Close writes the index and the trailer, syncs and closes the file. On error the file is
// removed.
func (w *Writer) Close() error {
	if w.err != nil {
		w.Abort()
		return w.err
	}
	indexAt := w.offset
	b := w.buf[:0]
	for _, o := range append(w.offsets, indexAt) {
		b = le.AppendUint64(b, o)
	}
	for _, n := range w.nodes {
		b = le.AppendUint32(b, n)
	}
	b = le.AppendUint32(b, crc32.Checksum(b, crcTable))
	b = le.AppendUint64(b, indexAt)
	b = le.AppendUint64(b, uint64(len(w.offsets)))
	b = append(b, trailerMagic...)
	_, err := w.w.Write(b)
	if err == nil {
		err = w.w.Flush()
	}
	if err == nil {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(w.path)
		return fmt.Errorf("store: write %s: %w", w.path, err)
	}
	return nil
}

// Abort closes and removes the unfinished file.
func (w *Writer) Abort() {
	w.f.Close()
	os.Remove(w.path)
}
