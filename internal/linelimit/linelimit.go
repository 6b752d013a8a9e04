package linelimit

import (
	"errors"
	"fmt"
	"io"
)

// ErrTooLong is wrapped by the error of a line longer than the limit.
var ErrTooLong = errors.New("line too long")

// Reader passes on the bytes of the reader it wraps until a line (the bytes between two '\n')
// runs longer than its limit; then it returns the bytes before the offending one and an error
// wrapping ErrTooLong that names the line (1-based), and that error from then on.
type Reader struct {
	r    io.Reader
	max  int
	run  int // bytes of the current line so far
	line int // complete lines so far
	err  error
}

// New bounds the lines of r at max bytes (max ≥ 1).
func New(r io.Reader, max int) *Reader { return &Reader{r: r, max: max} }

func (l *Reader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for i, c := range p[:n] {
		if c == '\n' {
			l.run = 0
			l.line++
			continue
		}
		l.run++
		if l.run > l.max {
			l.err = fmt.Errorf("line %d: %w: longer than %d bytes (not a text file of lines?)", l.line+1, ErrTooLong, l.max)
			return i, l.err
		}
	}
	return n, err
}
