package graphs

import (
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// gzipName reports whether the file name is that of a gzip-compressed file (.gz): networkx
// writes one where the path it is given ends in .gz (g.graphml.gz, g.edgelist.gz).
func gzipName(name string) bool { return strings.EqualFold(filepath.Ext(name), ".gz") }

// withoutGz is name without a trailing .gz.
func withoutGz(name string) string {
	if gzipName(name) {
		return name[:len(name)-len(".gz")]
	}
	return name
}

// openGraphFile opens the file at p for reading; a gzip-compressed one is decompressed as it
// is read, and content past bound.bytes is an error, so that a small file cannot unpack
// without bound. The gzip trailer's size refuses most such files before anything is
// decompressed, and tells a reader that holds the text (jsonread) how much to allocate.
func openGraphFile(p string, bound textBound) (io.ReadCloser, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err // *fs.PathError names the file already
	}
	if !gzipName(p) {
		return f, nil
	}
	size := gzipSize(f)
	if size > bound.bytes {
		f.Close()
		return nil, fmt.Errorf("%s: %w", p, &decompressedTooLarge{bound, fmt.Sprintf(" (its gzip trailer says %s)", megabytes(size))})
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: named .gz but not gzip-compressed: %w", p, err)
	}
	return &gzipFile{cappedReader: cappedReader{r: zr, left: bound.bytes, bound: bound}, f: f, size: size}, nil
}

// gzipSize is the size of a gzip file's content as its trailer gives it (ISIZE), modulo 2³²:
// a lower bound of the true size, as the last member of the file counts only itself. 0 when
// the file is too short to have one.
func gzipSize(f *os.File) int64 {
	fi, err := f.Stat()
	if err != nil || fi.Size() < 18 { // a header and a trailer
		return 0
	}
	var t [4]byte
	if _, err := f.ReadAt(t[:], fi.Size()-4); err != nil {
		return 0
	}
	return int64(binary.LittleEndian.Uint32(t[:]))
}

// gzipFile is an open gzip-compressed file, read decompressed.
type gzipFile struct {
	cappedReader
	f    *os.File
	size int64 // gzipSize
}

func (g *gzipFile) Close() error { return g.f.Close() }

// SizeHint is a lower bound of the decompressed size (jsonread.SizeHinter).
func (g *gzipFile) SizeHint() int64 { return g.size }

// decompressedTooLarge is the error of a compressed file whose content passes its bound.
type decompressedTooLarge struct {
	bound textBound
	more  string // what else is known of the size
}

func (e *decompressedTooLarge) Error() string {
	field := "Limits.MaxNodes"
	if e.bound.flag == "--max-memory" {
		field = "Limits.MaxDenseBytes"
	}
	return fmt.Sprintf("expands past %s%s, more than %s allows (raise it, or %s in Go)",
		megabytes(e.bound.bytes), e.more, e.bound.flag, field)
}

// megabytes writes n bytes in MB, rounded up, so that a bound is never understated.
func megabytes(n int64) string { return fmt.Sprintf("%d MB", (n+999_999)/1_000_000) }

// cappedReader reads r up to bound.bytes; one more byte is a *decompressedTooLarge.
type cappedReader struct {
	r     io.Reader
	left  int64
	bound textBound
}

func (c *cappedReader) Read(b []byte) (int, error) {
	if c.left <= 0 {
		var probe [1]byte
		if n, err := c.r.Read(probe[:]); n == 0 {
			return 0, err // io.EOF where the content ends at the bound
		}
		return 0, &decompressedTooLarge{bound: c.bound}
	}
	if int64(len(b)) > c.left {
		b = b[:c.left]
	}
	n, err := c.r.Read(b)
	c.left -= int64(n)
	return n, err
}
