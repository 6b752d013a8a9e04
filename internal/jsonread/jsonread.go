package jsonread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
)

var (
	// ErrTooLarge is wrapped by the error of a file larger than the limit.
	ErrTooLarge = errors.New("too large")
	// ErrNotObject is wrapped by the error of a file whose first byte after white space is
	// not '{'.
	ErrNotObject = errors.New("not a JSON object")
)

// SizeHinter is a reader that knows a lower bound of the bytes it holds: a gzip-compressed
// file, whose trailer gives the size of its content modulo 2³².
type SizeHinter interface {
	SizeHint() int64
}

// Object reads all of r, refusing more than maxBytes and a first byte (after JSON white space)
// other than '{'. When r can tell its size (a regular file, a bytes or strings reader) the
// buffer is allocated once, after that size is checked; otherwise it grows, never past
// maxBytes + 1, from the SizeHint of a SizeHinter (past maxBytes, refused before reading).
// What is read is not parsed: the caller's decoder checks the rest.
func Object(r io.Reader, maxBytes int64) ([]byte, error) { return read(r, maxBytes, true) }

// All reads all of r as Object does, but takes any first byte: the caller's decoder says what
// is wrong with a text that is no object.
func All(r io.Reader, maxBytes int64) ([]byte, error) { return read(r, maxBytes, false) }

func read(r io.Reader, maxBytes int64, object bool) ([]byte, error) {
	size := int64(-1)
	switch s := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := s.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	case interface{ Len() int }:
		size = int64(s.Len())
	case SizeHinter:
		size = s.SizeHint()
	}
	if size > maxBytes {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrTooLarge, maxBytes)
	}
	var buf []byte
	if size >= 0 {
		buf = make([]byte, 0, size+1) // one more, to see the end without growing
	}
	r = io.LimitReader(r, maxBytes+1)
	begun := !object
	for {
		if len(buf) == cap(buf) {
			c := int(min(int64(max(2*cap(buf), 64<<10)), maxBytes+1))
			buf = append(make([]byte, 0, c), buf...)
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > maxBytes {
			return nil, fmt.Errorf("%w: larger than %d bytes", ErrTooLarge, maxBytes)
		}
		if !begun {
			if i := slices.IndexFunc(buf, func(c byte) bool { return c != ' ' && c != '\t' && c != '\n' && c != '\r' }); i >= 0 {
				if buf[i] != '{' {
					return nil, fmt.Errorf("%w: it begins with byte %#02x, not '{'", ErrNotObject, buf[i])
				}
				begun = true
			}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
