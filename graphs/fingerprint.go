package graphs

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"
	"slices"
)

// Fingerprint identifies a collection of graphs by their structures, distributions and
// features, in order: a hex string of 128 bits of a SHA-256, the same for the same graphs
// whatever reads them, so that a model, a checkpoint or a kept matrix is never resumed or
// applied on other data by mistake.
func Fingerprint(data []*Graph) string {
	var fp Fingerprinter
	for _, g := range data {
		fp.Add(g)
	}
	return fp.Sum()
}

// Fingerprinter computes Fingerprint of graphs added one at a time, as a Source is read
// through once. The zero value is ready to use.
type Fingerprinter struct {
	h   hash.Hash
	row []byte // one adjacency row, dense, as put would write it
	buf [8]byte
}

func (f *Fingerprinter) put(v float64) {
	binary.LittleEndian.PutUint64(f.buf[:], math.Float64bits(v))
	f.h.Write(f.buf[:])
}

// Add hashes the next graph.
func (f *Fingerprinter) Add(g *Graph) {
	if f.h == nil {
		f.h = sha256.New()
	}
	n := g.N()
	f.put(float64(n))
	f.put(float64(g.Dim()))
	f.row = slices.Grow(f.row[:0], 8*n)[:8*n]
	for i := 0; i < n; i++ {
		clear(f.row)
		cols, vals := g.A.Row(i)
		for p, j := range cols {
			binary.LittleEndian.PutUint64(f.row[8*j:], math.Float64bits(vals[p]))
		}
		f.h.Write(f.row)
	}
	for _, v := range g.Mu {
		f.put(v)
	}
	if g.F != nil {
		for i := 0; i < g.N(); i++ {
			for _, v := range g.F.RawRowView(i) {
				f.put(v)
			}
		}
	}
}

// Sum is the fingerprint of the graphs added so far.
func (f *Fingerprinter) Sum() string {
	if f.h == nil {
		f.h = sha256.New()
	}
	return hex.EncodeToString(f.h.Sum(nil)[:16])
}
