package jsonread

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// endless is a device like /dev/zero or /dev/urandom: bytes without end, counted.
type endless struct {
	b    byte
	read int64
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.b
	}
	e.read += int64(len(p))
	return len(p), nil
}

func TestObject(t *testing.T) {
	obj := ` 
	{"a": [1, 2]}`
	for name, r := range map[string]io.Reader{
		"sized":   strings.NewReader(obj),
		"unsized": struct{ io.Reader }{strings.NewReader(obj + strings.Repeat(" ", 200<<10))},
	} {
		if b, err := Object(r, 1<<20); err != nil || !strings.HasPrefix(string(b), obj) {
			t.Errorf("%s: %q, %v", name, b, err)
		}
	}
	p := filepath.Join(t.TempDir(), "f.json")
	if err := os.WriteFile(p, []byte(obj), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := Object(f, 5); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a file of %d bytes, limit 5: %v, want ErrTooLarge before reading", len(obj), err)
	}
	for name, c := range map[string]struct {
		text string
		want error
	}{
		"array":     {"[1]", ErrNotObject},
		"binary":    {"\x00{}", ErrNotObject},
		"too large": {"{" + strings.Repeat(" ", 100) + "}", ErrTooLarge},
	} {
		if _, err := Object(struct{ io.Reader }{strings.NewReader(c.text)}, 64); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	// A device is refused at its first bytes, not read up to the limit (a terabyte here).
	for _, b := range []byte{0, 0xff, 'x'} {
		r := &endless{b: b}
		if _, err := Object(r, 1<<40); !errors.Is(err, ErrNotObject) || r.read > 1<<20 {
			t.Errorf("byte %#02x without end: %v after %d bytes; want ErrNotObject at once", b, err, r.read)
		}
	}
}

// hinted is a stream that knows a lower bound of its size, as a gzip file's trailer gives it.
type hinted struct {
	io.Reader
	hint int64
}

func (h hinted) SizeHint() int64 { return h.hint }

// TestAllAndSizeHint: All takes any first byte; a size hint past the limit is refused before
// reading, and one below the true size (a trailer modulo 2³²) still reads it all.
func TestAllAndSizeHint(t *testing.T) {
	if b, err := All(strings.NewReader("[1]"), 64); err != nil || string(b) != "[1]" {
		t.Errorf("All of an array: %q, %v", b, err)
	}
	r := &endless{b: '{'}
	if _, err := Object(hinted{r, 100}, 64); !errors.Is(err, ErrTooLarge) || r.read != 0 {
		t.Errorf("a hint past the limit: %v after %d bytes, want ErrTooLarge before reading", err, r.read)
	}
	text := "{" + strings.Repeat(" ", 100<<10) + "}"
	if b, err := Object(hinted{strings.NewReader(text), 10}, 1<<20); err != nil || string(b) != text {
		t.Errorf("a hint below the size: %d bytes, %v", len(b), err)
	}
}
