package sealedfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotModelFile is wrapped by the error of a file that is no gwf model file at all (a
// directory, an empty file, one that does not begin as gwf's files do), as opposed to a gwf
// file that is damaged (ErrCorrupt): a user given a wrong path is not sent looking for a
// corruption.
var ErrNotModelFile = errors.New("not a gwf model file")

// header is how every file of Seal and SealStream begins, JSON white space aside: an object
// whose first key is "format", every format name of gwf's starting with "gwf-".
var header = [][]byte{[]byte("{"), []byte(`"format"`), []byte(":"), []byte(`"gwf-`)}

// headBytes is how much of a file CheckFile reads: the header with some white space.
const headBytes = 64

// CheckFile says what the file at path is when it cannot be a gwf model file: "PATH is a
// directory, not a gwf model file", "PATH is empty (0 bytes), not a gwf model file", or "PATH
// is not a gwf model file (it does not start with gwf's header)", each wrapping
// ErrNotModelFile. It returns nil for a file that begins with the header, and for one that is
// no regular file (a named pipe is read once, by the decoder, which checks all of it).
func CheckFile(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return err // *fs.PathError names the file
	}
	switch {
	case info.IsDir():
		return fmt.Errorf("%s is a directory, %w", path, ErrNotModelFile)
	case !info.Mode().IsRegular():
		return nil
	case info.Size() == 0:
		return fmt.Errorf("%s is empty (0 bytes), %w", path, ErrNotModelFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, headBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF {
		return err
	}
	if !hasHeader(head[:n]) {
		return fmt.Errorf("%s is %w (it does not start with gwf's header)", path, ErrNotModelFile)
	}
	return nil
}

// hasHeader reports whether the first bytes of a file, head, begin with header; a head that
// ends inside it (a file cut short) may be a gwf file, whose decoder calls it truncated, but
// one of white space alone is none.
func hasHeader(head []byte) bool {
	for i, tok := range header {
		head = bytes.TrimLeft(head, " \t\r\n")
		if i == 0 && len(head) == 0 {
			return false
		}
		if len(head) < len(tok) {
			return bytes.HasPrefix(tok, head)
		}
		if !bytes.HasPrefix(head, tok) {
			return false
		}
		head = head[len(tok):]
	}
	return true
}

// Load reads the model file at path with decode: CheckFile first (so that a directory or an
// empty file is named for what it is), then the decoder, whose error names the path.
func Load[T any](path string, decode func(io.Reader) (T, error)) (T, error) {
	var zero T
	if err := CheckFile(path); err != nil {
		return zero, err
	}
	f, err := os.Open(path)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	m, err := decode(f)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}
