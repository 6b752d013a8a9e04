package training

import (
	"io"

	"github.com/gwf-graphs/gwf/internal/sealedfile"
)

// encodePayload writes the model file's payload — exactly the bytes json.Marshal gives for
// the filePayload of m (TestStreamedPayloadIsMarshal) — piece by piece: the embeddings and the
// embeddings' Adam states, which grow with the corpus, row by row, so that a checkpoint of 10⁵
// graphs is never held in memory whole. Fields are written in the struct's order, with its
// omitempty rules.
func (m *Model) encodePayload(w io.Writer) error {
	e := sealedfile.NewPieces(w)
	e.Raw(`{"config":`)
	e.Value(m.Config)
	var v, h [][][]float64
	for k := range m.V {
		v = append(v, rowsOf(m.V[k]))
		if m.Dim() > 0 {
			h = append(h, rowsOf(m.H[k]))
		}
	}
	e.Raw(`,"atoms_v":`)
	e.Value(v)
	if len(h) > 0 {
		e.Raw(`,"atoms_h":`)
		e.Value(h)
	}
	e.Raw(`,"atoms_mu":`)
	e.Value(m.AtomMu)
	e.Raw(`,"z":`)
	rows, _ := m.Z.Dims()
	e.Array(rows, func(i int) any { return m.Z.RawRowView(i) })
	e.Raw(`,"fingerprint":`)
	e.Value(m.Fingerprint)
	var history []fileEpoch
	for _, st := range m.History {
		history = append(history, fileEpoch{Epoch: st.Epoch, Loss: st.Loss, Terms: st.Terms})
	}
	e.Raw(`,"history":`)
	e.Value(history)
	if q := m.Partial; q != nil {
		e.Raw(`,"partial":`)
		e.Value(filePartial{Epoch: q.Epoch, Done: q.Done, LossSum: q.LossSum, TermSums: q.TermSums})
	}
	if o := m.Optimizer; o != nil {
		e.Raw(`,"optimizer":{"epoch":`)
		e.Value(o.Epoch)
		if o.Done != 0 {
			e.Raw(`,"done":`)
			e.Value(o.Done)
		}
		e.Raw(`,"atoms":`)
		e.Value(o.Atoms)
		e.Raw(`,"z":`)
		sealedfile.Slice(e, o.Z)
		if len(o.Terms) > 0 {
			e.Raw(`,"terms":`)
			e.Value(o.Terms)
		}
		if o.Encoder != nil {
			e.Raw(`,"encoder":`)
			e.Value(o.Encoder)
		}
		e.Raw("}")
	}
	if m.Features != nil {
		e.Raw(`,"features":`)
		e.Value(m.Features)
	}
	e.Raw("}")
	return e.Err()
}
