package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// npyMagic starts every .npy file; format version 1.0 follows it.
const npyMagic = "\x93NUMPY"

// writeNPY writes m as a NumPy .npy file (format version 1.0): a little-endian float64 array in
// C (row-major) order of shape (rows, cols). The header is padded with spaces and ends in a
// newline so that the data starts at a multiple of 64 bytes, as numpy.save does.
func writeNPY(w io.Writer, m mat.Matrix) error {
	r, c := m.Dims()
	dict := fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }", r, c)
	const pre = len(npyMagic) + 2 + 2 // magic, version, header length
	total := pre + len(dict) + 1      // + the final newline
	pad := (64 - total%64) % 64
	header := dict + strings.Repeat(" ", pad) + "\n"
	if len(header) > math.MaxUint16 {
		return fmt.Errorf("npy: header too long")
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(npyMagic)
	bw.Write([]byte{1, 0})
	var buf [8]byte
	binary.LittleEndian.PutUint16(buf[:2], uint16(len(header)))
	bw.Write(buf[:2])
	bw.WriteString(header)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(m.At(i, j)))
			bw.Write(buf[:])
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	return nil
}
