package sealedfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
)

func TestSealOpen(t *testing.T) {
	payload := []byte(`{"a":[1,2,3]}`)
	file, err := Seal("thing", 3, payload)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Open(bytes.NewReader(file), "thing", 3, "test", 1<<20)
	if err != nil || !bytes.Equal(got, payload) {
		t.Fatalf("Open = %s, %v", got, err)
	}
	big := bytes.Repeat(file, 1<<16/len(file)+1) // read past the first buffer, unsized
	if got, err := Open(struct{ io.Reader }{io.MultiReader(bytes.NewReader(file), strings.NewReader(strings.Repeat(" ", len(big))))}, "thing", 3, "test", 1<<20); err != nil || !bytes.Equal(got, payload) {
		t.Fatalf("Open of a file with trailing spaces, unsized = %s, %v", got, err)
	}
	s := string(file)
	for name, c := range map[string]struct {
		text    string
		max     int64
		want    error
		message string
	}{
		"truncated":     {s[:len(s)/2], 1 << 20, ErrCorrupt, ""},
		"empty":         {"", 1 << 20, ErrCorrupt, ""},
		"tampered":      {strings.Replace(s, "[1,", "[7,", 1), 1 << 20, ErrCorrupt, "checksum"},
		"other format":  {strings.Replace(s, `"thing"`, `"other"`, 1), 1 << 20, ErrCorrupt, `not a test file (format "other")`},
		"other version": {strings.Replace(s, `"version":3`, `"version":4`, 1), 1 << 20, ErrVersion, "version 4"},
		"too large":     {s, 10, ErrCorrupt, "larger than 10 bytes"},
		"trailing data": {s + "{}", 1 << 20, ErrCorrupt, ""},
	} {
		_, err := Open(strings.NewReader(c.text), "thing", 3, "test", c.max)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.message) {
			t.Errorf("%s: %v, want %v saying %q", name, err, c.want, c.message)
		}
		// The same from a reader that does not know its size (read in growing pieces).
		_, err = Open(struct{ io.Reader }{strings.NewReader(c.text)}, "thing", 3, "test", c.max)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.message) {
			t.Errorf("%s, unsized reader: %v, want %v saying %q", name, err, c.want, c.message)
		}
	}
}

// TestSealStreamIsSeal: a payload written in pieces makes the file Seal makes of it whole; an
// encoder that fails, or writes other bytes the second time, is an error.
func TestSealStreamIsSeal(t *testing.T) {
	for _, payload := range []string{`{}`, `{"a":[1,2.5e-300],"b":"x\u003cy"}`, `[]`} {
		want, err := Seal("gwf-test", 3, []byte(payload))
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		write := func(w io.Writer) error { // in pieces, as a streamed payload is written
			for i := range len(payload) {
				if _, err := w.Write([]byte{payload[i]}); err != nil {
					return err
				}
			}
			return nil
		}
		if err := SealStream(&got, "gwf-test", 3, write); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("SealStream wrote\n%s\nSeal\n%s", got.Bytes(), want)
		}
	}
	// A payload that is not the same twice is an error, not a file with a wrong checksum.
	n := 0
	changing := func(w io.Writer) error {
		n++
		_, err := fmt.Fprintf(w, "[%d]", n)
		return err
	}
	if err := SealStream(io.Discard, "gwf-test", 3, changing); err == nil {
		t.Error("a payload that changed between the passes: no error")
	}
	failing := func(io.Writer) error { return errors.New("disk on fire") }
	if err := SealStream(io.Discard, "gwf-test", 3, failing); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("an encoder's error: %v", err)
	}
}

// failAfter fails every write after the first n bytes.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

// TestPieces: pieces are written in order; after the first error nothing more is written and
// Err reports it.
func TestPieces(t *testing.T) {
	var b bytes.Buffer
	p := NewPieces(&b)
	p.Raw(`{"a":`)
	p.Value([]float64{1, 0.5})
	p.Do(func(w io.Writer) error { _, err := io.WriteString(w, `,"b":"<"`); return err })
	p.Raw("}")
	if p.Err() != nil || b.String() != `{"a":[1,0.5],"b":"<"}` {
		t.Errorf("wrote %q, %v", b.String(), p.Err())
	}
	b.Reset()
	p = NewPieces(&b)
	Slice[int](p, nil)
	Slice(p, []int{})
	Slice(p, []float64{1, 2.5})
	p.Array(2, func(i int) any { return []int{i} })
	if want := `null[][1,2.5][[0],[1]]`; p.Err() != nil || b.String() != want {
		t.Errorf("lists: %q, %v; want %q", b.String(), p.Err(), want)
	}
	p = NewPieces(&failAfter{n: 3})
	p.Raw("ab")
	p.Raw("cd")
	called := false
	p.Do(func(io.Writer) error { called = true; return nil })
	if p.Err() == nil || called {
		t.Errorf("after a failed write: error %v, later piece written %v", p.Err(), called)
	}
	p = NewPieces(io.Discard)
	p.Value(math.NaN())
	if p.Err() == nil {
		t.Error("NaN: no error")
	}
}

// TestOpenRefusesNonJSONAtOnce: a file that does not begin with a JSON object is corrupt
// (internal/jsonread, whose tests read devices, refuses it at its first bytes).
func TestOpenRefusesNonJSONAtOnce(t *testing.T) {
	for _, text := range []string{"\x00\x00", "\n \t[1]"} {
		_, err := Open(struct{ io.Reader }{strings.NewReader(text)}, "thing", 3, "test", 1<<40)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "not a JSON object") {
			t.Errorf("%q: %v, want ErrCorrupt saying not a JSON object", text, err)
		}
	}
}
