package training

import (
	"encoding/json"
	"io"
)

// encodePayload writes the model file's payload — exactly the bytes json.Marshal gives for
// the filePayload of m (TestStreamedPayloadIsMarshal) — piece by piece: the embeddings and the
// embeddings' Adam states, which grow with the corpus, row by row, so that a checkpoint of 10⁵
// graphs is never held in memory whole. Fields are written in the struct's order, with its
// omitempty rules.
func (m *Model) encodePayload(w io.Writer) error {
	e := jsonPieces{w: w}
	e.raw(`{"config":`)
	e.value(m.Config)
	var v, h [][][]float64
	for k := range m.V {
		v = append(v, rowsOf(m.V[k]))
		if m.Dim() > 0 {
			h = append(h, rowsOf(m.H[k]))
		}
	}
	e.raw(`,"atoms_v":`)
	e.value(v)
	if len(h) > 0 {
		e.raw(`,"atoms_h":`)
		e.value(h)
	}
	e.raw(`,"atoms_mu":`)
	e.value(m.AtomMu)
	e.raw(`,"z":[`)
	rows, _ := m.Z.Dims()
	for i := 0; i < rows; i++ {
		if i > 0 {
			e.raw(",")
		}
		e.value(m.Z.RawRowView(i))
	}
	e.raw(`],"fingerprint":`)
	e.value(m.Fingerprint)
	var history []fileEpoch
	for _, st := range m.History {
		history = append(history, fileEpoch{Epoch: st.Epoch, Loss: st.Loss, Terms: st.Terms})
	}
	e.raw(`,"history":`)
	e.value(history)
	if q := m.Partial; q != nil {
		e.raw(`,"partial":`)
		e.value(filePartial{Epoch: q.Epoch, Done: q.Done, LossSum: q.LossSum, TermSums: q.TermSums})
	}
	if o := m.Optimizer; o != nil {
		e.raw(`,"optimizer":{"epoch":`)
		e.value(o.Epoch)
		if o.Done != 0 {
			e.raw(`,"done":`)
			e.value(o.Done)
		}
		e.raw(`,"atoms":`)
		e.value(o.Atoms)
		if o.Z == nil {
			e.raw(`,"z":null`)
		} else {
			e.raw(`,"z":[`)
			for i, st := range o.Z {
				if i > 0 {
					e.raw(",")
				}
				e.value(st)
			}
			e.raw("]")
		}
		if len(o.Terms) > 0 {
			e.raw(`,"terms":`)
			e.value(o.Terms)
		}
		if o.Encoder != nil {
			e.raw(`,"encoder":`)
			e.value(o.Encoder)
		}
		e.raw("}")
	}
	if m.Features != nil {
		e.raw(`,"features":`)
		e.value(m.Features)
	}
	e.raw("}")
	return e.err
}

// jsonPieces writes JSON in pieces, keeping the first error.
type jsonPieces struct {
	w   io.Writer
	err error
}

func (e *jsonPieces) raw(s string) {
	if e.err == nil {
		_, e.err = io.WriteString(e.w, s)
	}
}

func (e *jsonPieces) value(v any) {
	if e.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		e.err = err
		return
	}
	_, e.err = e.w.Write(b)
}
