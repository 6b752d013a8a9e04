package matfile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"github.com/sbinet/npyio/npy"
	"github.com/sbinet/npyio/npz"
	"gonum.org/v1/gonum/mat"
)

func writeNPY(w io.Writer, m mat.Matrix) error { return npy.Write(w, mat.DenseCopyOf(m)) }

func writeNPZ(w io.Writer, m mat.Matrix) error {
	z := npz.NewWriter(w)
	if err := z.Write(Key+".npy", mat.DenseCopyOf(m)); err != nil {
		z.Close()
		return err
	}
	return z.Close()
}

// maxHeader bounds an .npy header's length (numpy writes under 200 bytes for a matrix).
const maxHeader = 1 << 16

// readNPY reads one .npy array of at most size bytes.
func readNPY(r io.Reader, size int64, lim Limits) (m *mat.Dense, err error) {
	// npyio allocates the header's declared length and slices it unchecked: the length is
	// bounded and the header's shape checked here first, and a panic left in its parser is
	// an error.
	// Buffered: npyio reads eight bytes a call, a system call each from an *os.File.
	r = bufio.NewReaderSize(io.LimitReader(r, size), 1<<16)
	var prefix [12]byte
	if _, err := io.ReadFull(r, prefix[:10]); err != nil {
		return nil, fmt.Errorf("%w: npy: %d bytes, too short for a header", ErrFormat, size)
	}
	n, head := 0, prefix[:10]
	switch {
	case string(prefix[:6]) != "\x93NUMPY":
		return nil, fmt.Errorf("%w: npy: not a NumPy array file (no \\x93NUMPY magic)", ErrFormat)
	case prefix[6] == 1:
		n = int(binary.LittleEndian.Uint16(prefix[8:10]))
	case prefix[6] == 2 || prefix[6] == 3:
		if _, err := io.ReadFull(r, prefix[10:12]); err != nil {
			return nil, fmt.Errorf("%w: npy: truncated header", ErrFormat)
		}
		n, head = int(binary.LittleEndian.Uint32(prefix[8:12])), prefix[:12]
	default:
		return nil, fmt.Errorf("%w: npy: unknown format version %d", ErrFormat, prefix[6])
	}
	if n > maxHeader || int64(n) > size {
		return nil, fmt.Errorf("%w: npy: a header of %d bytes", ErrFormat, n)
	}
	header := make([]byte, n)
	if _, err := io.ReadFull(r, header); err != nil {
		return nil, fmt.Errorf("%w: npy: truncated header", ErrFormat)
	}
	if !bytes.HasSuffix(bytes.TrimRight(header, " "), []byte("\n")) || !bytes.Contains(header, []byte("'shape': (")) {
		return nil, fmt.Errorf("%w: npy: a header without a shape", ErrFormat)
	}
	defer func() {
		if p := recover(); p != nil {
			m, err = nil, fmt.Errorf("%w: npy: malformed header (%v)", ErrFormat, p)
		}
	}()
	nr, err := npy.NewReader(fullReads{io.MultiReader(bytes.NewReader(head), bytes.NewReader(header), r)})
	if err != nil {
		return nil, fmt.Errorf("%w: npy: %v", ErrFormat, err)
	}
	if err := checkShape(nr.Header.Descr.Shape, lim); err != nil {
		return nil, err
	}
	if t := nr.Header.Descr.Type; !strings.HasSuffix(t, "f8") {
		return nil, fmt.Errorf("%w: npy: element type %q, want float64 (numpy: save m.astype(float))", ErrFormat, t)
	}
	m = new(mat.Dense)
	if err := nr.Read(m); err != nil {
		return nil, fmt.Errorf("%w: npy: %v", ErrFormat, err)
	}
	return m, nil
}

// readNPZ reads the one array of an .npz file, or the one named Key when there are several.
func readNPZ(r io.Reader, size int64, lim Limits) (*mat.Dense, error) {
	raw, err := io.ReadAll(io.LimitReader(r, size)) // size is bounded by Read
	if err != nil {
		return nil, fmt.Errorf("%w: npz: %v", ErrFormat, err)
	}
	z, err := npz.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return nil, fmt.Errorf("%w: npz: %v", ErrFormat, err)
	}
	defer z.Close()
	keys := z.Keys()
	name := ""
	switch {
	case len(keys) == 1:
		name = keys[0]
	default:
		for _, k := range keys {
			if k == Key+".npy" || k == Key {
				name = k
			}
		}
	}
	if name == "" {
		return nil, fmt.Errorf("%w: npz: %d arrays (%s) and none named %q: save one array, or name it %q", ErrFormat, len(keys), strings.Join(keys, ", "), Key, Key)
	}
	rc, err := z.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%w: npz: %v", ErrFormat, err)
	}
	defer rc.Close()
	// An entry inflates to at most a full float64 matrix of the limits plus its header.
	limit := lim.bytes()
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%w: npz: %v", ErrFormat, err)
	}
	if n > limit {
		return nil, fmt.Errorf("%w: npz: array %q inflates beyond a %d×%d matrix", ErrFormat, name, lim.MaxRows, lim.MaxCols)
	}
	return readNPY(&buf, n, lim)
}

// fullReads fills every buffer it is asked to, or fails: npyio reads each number with one Read
// call and keeps whatever bytes a short read left in its buffer (a number read across the end
// of a bufio buffer, or of a pipe's chunk, came back wrong), and it takes io.EOF for the end
// of the data, so that a truncated file would repeat its last number. Here the end of the
// input before the array's last byte is io.ErrUnexpectedEOF, which npyio reports.
type fullReads struct{ r io.Reader }

func (f fullReads) Read(p []byte) (int, error) {
	n, err := io.ReadFull(f.r, p)
	if err == io.EOF && len(p) > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}
