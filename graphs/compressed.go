package graphs

import (
	"compress/gzip"
	"errors"
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
// is read, and reading past maxBytes of its content is an error, so that a small file cannot
// unpack without bound.
func openGraphFile(p string, maxBytes int64) (io.ReadCloser, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err // *fs.PathError names the file already
	}
	if !gzipName(p) {
		return f, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: named .gz but not gzip-compressed: %w", p, err)
	}
	return &gzipFile{cappedReader: cappedReader{r: zr, left: maxBytes, max: maxBytes}, f: f}, nil
}

// gzipFile is an open gzip-compressed file, read decompressed.
type gzipFile struct {
	cappedReader
	f *os.File
}

func (g *gzipFile) Close() error { return g.f.Close() }

// errDecompressedTooLarge is the error of a compressed file whose content passes the bound.
var errDecompressedTooLarge = errors.New("decompresses to more bytes than a graph within the limits needs (raise --max-nodes or --max-memory)")

// cappedReader reads r up to max bytes; one more byte is errDecompressedTooLarge.
type cappedReader struct {
	r         io.Reader
	left, max int64
}

func (c *cappedReader) Read(b []byte) (int, error) {
	if c.left <= 0 {
		var probe [1]byte
		if n, err := c.r.Read(probe[:]); n == 0 {
			return 0, err // io.EOF where the content ends at the bound
		}
		return 0, fmt.Errorf("%w: more than %d", errDecompressedTooLarge, c.max)
	}
	if int64(len(b)) > c.left {
		b = b[:c.left]
	}
	n, err := c.r.Read(b)
	c.left -= int64(n)
	return n, err
}
