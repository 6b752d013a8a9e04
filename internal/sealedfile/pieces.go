package sealedfile

import (
	"encoding/json"
	"io"
)

// Pieces writes a JSON payload in pieces for SealStream — literal text and json.Marshal'd
// values — keeping the first error, so that an encoder reads as the payload it writes.
type Pieces struct {
	w   io.Writer
	err error
}

// NewPieces returns a Pieces writing to w.
func NewPieces(w io.Writer) *Pieces { return &Pieces{w: w} }

// Raw writes s as it is.
func (p *Pieces) Raw(s string) {
	if p.err == nil {
		_, p.err = io.WriteString(p.w, s)
	}
}

// Value writes v as json.Marshal encodes it.
func (p *Pieces) Value(v any) {
	if p.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		p.err = err
		return
	}
	_, p.err = p.w.Write(b)
}

// Do runs write with the underlying writer (for a piece written by other means) unless an
// error came before.
func (p *Pieces) Do(write func(io.Writer) error) {
	if p.err == nil {
		p.err = write(p.w)
	}
}

// Err is the first error of a write.
func (p *Pieces) Err() error { return p.err }

// Array writes [elem(0),…,elem(n−1)], each element as Value writes it: a large list one
// element at a time.
func (p *Pieces) Array(n int, elem func(i int) any) {
	p.Raw("[")
	for i := 0; i < n && p.err == nil; i++ {
		if i > 0 {
			p.Raw(",")
		}
		p.Value(elem(i))
	}
	p.Raw("]")
}

// Slice writes s as Value would (null for a nil slice), one element at a time.
func Slice[T any](p *Pieces, s []T) {
	if s == nil {
		p.Raw("null")
		return
	}
	p.Array(len(s), func(i int) any { return s[i] })
}
