package store

import (
	"encoding/binary"
	"hash/crc32"
)

const (
	headerMagic  = "GWFSTORE"
	trailerMagic = "GWFINDEX"
	version      = 1
	headerSize   = 16 // magic, version uint32, dim uint32
	trailerSize  = 24 // index offset uint64, count uint64, magic
	// recordFixed is a record's size before its variable parts: name length uint32, label
	// int64, has-label byte, nodes uint32, stored entries uint64; and its CRC uint32.
	recordFixed = 4 + 8 + 1 + 4 + 8 + 4
	indexEntry  = 8 + 4 // a record's offset, a graph's node count
)

// indexSize is the size of the index of count graphs: their offsets and the end of the last
// record, their node counts, a CRC-32C.
func indexSize(count uint64) uint64 { return 8 + indexEntry*count + 4 }

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// recordSize is the size of the record of a graph with a name of nameLen bytes, n nodes, nnz
// stored adjacency entries and dim features per node: the row lengths (uint32), the columns
// (uint32) and values (float64) of the entries, the distribution and the features (float64).
// It reports false for sizes no store holds (they would overflow the sum).
func recordSize(nameLen, n, nnz, dim uint64) (uint64, bool) {
	if nameLen > maxName || n > 1<<31 || nnz > 1<<50 || dim > maxDim {
		return 0, false
	}
	return recordFixed + nameLen + 4*n + 12*nnz + 8*n*(dim+1), true
}

// maxName bounds the length of a graph's name in a store.
const maxName = 1 << 16

// maxDim bounds the feature dimension a store holds.
const maxDim = 1 << 20

// le is the byte order of every number in a store.
var le = binary.LittleEndian
