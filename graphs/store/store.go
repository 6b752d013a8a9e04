package store

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/csr"
)

// ErrCorrupt is wrapped by the errors of a file that is not a complete, intact store.
var ErrCorrupt = errors.New("not an intact graph store")

// Options control how Open reads a store.
type Options struct {
	// Limits bound each graph read (its nodes, and its dense N×N adjacency and features as a
	// solver holds them); zero fields mean graphs.DefaultLimits.
	Limits graphs.Limits
	// Mean and Scale, when set, standardize the node features of every graph read
	// (graphs.ApplyStandardization): (x − Mean[j]) / Scale[j].
	Mean, Scale []float64
}

// Store reads the graphs of a store file. It is a graphs.Source: Graph may be called from
// several goroutines at once.
type Store struct {
	path    string
	f       io.ReaderAt
	closer  io.Closer
	dim     int
	offsets []uint64 // Len()+1: record i is [offsets[i], offsets[i+1])
	nodes   []uint32
	opt     Options
}

// Open reads the index of the store at path; the graphs are read by Graph.
func Open(path string, opt Options) (*Store, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	s, err := open(f, info.Size(), path, opt)
	if err != nil {
		f.Close()
		return nil, err
	}
	s.closer = f
	return s, nil
}

// open reads the index of a store of size bytes read from f; path names it in messages.
func open(f io.ReaderAt, fileSize int64, path string, opt Options) (*Store, error) {
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("store %s: %w: %s", path, ErrCorrupt, fmt.Sprintf(format, args...))
	}
	size := uint64(fileSize)
	if size < headerSize+indexSize(0)+trailerSize {
		return nil, corrupt("%d bytes", size)
	}
	var h [headerSize]byte
	var t [trailerSize]byte
	if err := readAt(f, h[:], 0); err != nil {
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	if err := readAt(f, t[:], int64(size-trailerSize)); err != nil {
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	switch {
	case string(h[:8]) != headerMagic:
		return nil, corrupt("no store header")
	case le.Uint32(h[8:]) != version:
		return nil, corrupt("version %d, this reader knows %d", le.Uint32(h[8:]), version)
	case le.Uint32(h[12:]) > maxDim:
		return nil, corrupt("feature dimension %d", le.Uint32(h[12:]))
	case string(t[16:]) != trailerMagic:
		return nil, corrupt("no index: the file is incomplete (a writer that did not finish)")
	}
	indexAt, count := le.Uint64(t[:]), le.Uint64(t[8:])
	// Every record holds at least recordFixed bytes, so the file bounds the count before the
	// index is allocated.
	if count > (size-headerSize)/(recordFixed+indexEntry) || indexAt != size-trailerSize-indexSize(count) {
		return nil, corrupt("an index of %d graphs at %d does not fit a file of %d bytes", count, indexAt, size)
	}
	idx := make([]byte, indexSize(count))
	if err := readAt(f, idx, int64(indexAt)); err != nil {
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	if body := idx[:len(idx)-4]; crc32.Checksum(body, crcTable) != le.Uint32(idx[len(body):]) {
		return nil, corrupt("index checksum mismatch")
	}
	s := &Store{path: path, f: f, dim: int(le.Uint32(h[12:])), offsets: make([]uint64, count+1), nodes: make([]uint32, count), opt: opt}
	for i := range s.offsets {
		s.offsets[i] = le.Uint64(idx[8*i:])
	}
	for i := range s.nodes {
		s.nodes[i] = le.Uint32(idx[8*(count+1)+4*uint64(i):])
	}
	if s.offsets[0] != headerSize || s.offsets[count] != indexAt {
		return nil, corrupt("the index does not cover the records")
	}
	for i := uint64(0); i < count; i++ {
		if s.offsets[i+1] < s.offsets[i] || s.offsets[i+1]-s.offsets[i] < recordFixed {
			return nil, corrupt("record %d has %d bytes", i, int64(s.offsets[i+1]-s.offsets[i]))
		}
	}
	if opt.Mean != nil || opt.Scale != nil {
		if len(opt.Mean) != s.dim || len(opt.Scale) != s.dim {
			return nil, fmt.Errorf("store %s: a standardization of %d and %d dimensions for %d-dimensional features", path, len(opt.Mean), len(opt.Scale), s.dim)
		}
	}
	return s, nil
}

// readAt fills b from offset off, reporting a short file as corrupt.
func readAt(f io.ReaderAt, b []byte, off int64) error {
	n, err := f.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	return fmt.Errorf("%w: read %d of %d bytes at %d: %v", ErrCorrupt, n, len(b), off, err)
}

// Len is the number of graphs.
func (s *Store) Len() int { return len(s.nodes) }

// Dim is the node-feature dimension of every graph (0: none).
func (s *Store) Dim() int { return s.dim }

// Nodes is the number of nodes of graph i, from the index (nothing is read).
func (s *Store) Nodes(i int) int { return int(s.nodes[i]) }

// Close closes the file.
func (s *Store) Close() error {
	if s.closer == nil {
		return nil
	}
	return s.closer.Close()
}

// Graph reads graph i and checks it: its size against the limits before anything is allocated
// for it, its CRC, and the invariants of graphs.Graph.
func (s *Store) Graph(i int) (*graphs.Graph, error) {
	if i < 0 || i >= s.Len() {
		return nil, fmt.Errorf("store %s: graph %d out of range [0, %d)", s.path, i, s.Len())
	}
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("store %s, graph %d: %w: %s", s.path, i, ErrCorrupt, fmt.Sprintf(format, args...))
	}
	lim := s.opt.Limits.OrDefault()
	n := uint64(s.nodes[i])
	if n == 0 {
		return nil, corrupt("a graph without nodes")
	}
	if n > uint64(lim.MaxNodes) {
		return nil, fmt.Errorf("store %s, graph %d: %d nodes (the limit is %d)", s.path, i, n, lim.MaxNodes)
	}
	if dense := 8 * n * (n + uint64(s.dim)); dense > uint64(lim.MaxDenseBytes) {
		return nil, fmt.Errorf("store %s, graph %d: its dense matrices need %d bytes, more than the %d allowed", s.path, i, dense, lim.MaxDenseBytes)
	}
	length := s.offsets[i+1] - s.offsets[i]
	if most, _ := recordSize(maxName, n, n*n, uint64(s.dim)); length > most {
		return nil, corrupt("a record of %d bytes for %d nodes", length, n)
	}
	b := make([]byte, length)
	if err := readAt(s.f, b, int64(s.offsets[i])); err != nil {
		return nil, fmt.Errorf("store %s, graph %d: %w", s.path, i, err)
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, crcTable) != le.Uint32(b[len(b)-4:]) {
		return nil, corrupt("checksum mismatch")
	}
	return s.decode(body, n, corrupt)
}

// decode parses a record whose checksum matched.
func (s *Store) decode(b []byte, n uint64, corrupt func(string, ...any) error) (*graphs.Graph, error) {
	r := reader{b: b}
	name := string(r.bytes(uint64(r.u32())))
	label := int64(r.u64())
	hasLabel := r.u8()
	nodes := uint64(r.u32())
	nnz := r.u64()
	if r.short || nodes != n || hasLabel > 1 {
		return nil, corrupt("a record header that disagrees with the index")
	}
	if want, ok := recordSize(uint64(len(name)), n, nnz, uint64(s.dim)); !ok || want != uint64(len(b))+4 || nnz > n*n {
		return nil, corrupt("%d stored entries in a record of %d bytes", nnz, len(b)+4)
	}
	rowPtr := make([]int, n+1)
	for k := uint64(0); k < n; k++ {
		rowPtr[k+1] = rowPtr[k] + int(r.u32())
	}
	if uint64(rowPtr[n]) != nnz {
		return nil, corrupt("row lengths sum to %d, not %d", rowPtr[n], nnz)
	}
	col := make([]int32, nnz)
	for k := range col {
		col[k] = int32(r.u32())
	}
	val := r.floats(nnz)
	a, err := csr.New(int(n), rowPtr, col, val)
	if err != nil {
		return nil, corrupt("%v", err)
	}
	mu := r.floats(n)
	var f *mat.Dense
	if s.dim > 0 {
		f = mat.NewDense(int(n), s.dim, r.floats(n*uint64(s.dim)))
	}
	g := &graphs.Graph{Name: name, A: a, Mu: mu, F: f, Label: int(label), HasLabel: hasLabel == 1}
	if err := g.Validate(); err != nil {
		return nil, corrupt("%v", err)
	}
	if s.opt.Mean != nil {
		if err := graphs.ApplyStandardization([]*graphs.Graph{g}, s.opt.Mean, s.opt.Scale); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.path, err)
		}
	}
	return g, nil
}

// reader takes numbers off the front of a record; short records set short, not panic.
type reader struct {
	b     []byte
	short bool
}

func (r *reader) bytes(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.short = true
		r.b = nil
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) u8() byte {
	if b := r.bytes(1); len(b) == 1 {
		return b[0]
	}
	return 0
}

func (r *reader) u32() uint32 {
	if b := r.bytes(4); len(b) == 4 {
		return le.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.bytes(8); len(b) == 8 {
		return le.Uint64(b)
	}
	return 0
}

func (r *reader) floats(n uint64) []float64 {
	b := r.bytes(8 * n)
	v := make([]float64, len(b)/8)
	for k := range v {
		v[k] = math.Float64frombits(le.Uint64(b[8*k:]))
	}
	return v
}

var _ graphs.Source = (*Store)(nil)
