package linelimit

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// zeros is /dev/zero: bytes without end, counted.
type zeros struct{ read int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += len(p)
	return len(p), nil
}

func TestReader(t *testing.T) {
	text := "ab\ncde\n\nfgh"
	got, err := io.ReadAll(New(strings.NewReader(text), 3))
	if err != nil || string(got) != text {
		t.Fatalf("lines of at most 3 bytes, limit 3: %q, %v", got, err)
	}
	got, err = io.ReadAll(New(strings.NewReader(text), 2))
	if !errors.Is(err, ErrTooLong) || !strings.Contains(err.Error(), "line 2") || string(got) != "ab\ncd" {
		t.Fatalf("limit 2: %q, %v; want the bytes before line 2's third and ErrTooLong", got, err)
	}
	z := &zeros{}
	if _, err := io.ReadAll(New(z, 1<<20)); !errors.Is(err, ErrTooLong) || z.read > 2<<20 {
		t.Fatalf("/dev/zero: %v after %d bytes; want ErrTooLong after about 1 MiB", err, z.read)
	}
}
