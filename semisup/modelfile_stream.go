package semisup

import (
	"io"

	"github.com/gwf-graphs/gwf/internal/sealedfile"
)

// encodePayload writes the payload of the model file — exactly the bytes json.Marshal gives
// for its filePayload (TestStreamedPayloadIsMarshal) — piece by piece: the embeddings' Adam
// states row by row and the GWF model as its own file, written in pieces too. Fields are
// written in the struct's order, with its omitempty rules.
func (m *Model) encodePayload(w io.Writer) error {
	e := sealedfile.NewPieces(w)
	e.Raw(`{"config":`)
	e.Value(m.Config)
	var headW [][][]float64
	for _, wk := range m.Head.W {
		r, _ := wk.Dims()
		rows := make([][]float64, r)
		for i := range rows {
			rows[i] = wk.RawRowView(i)
		}
		headW = append(headW, rows)
	}
	e.Raw(`,"head_w":`)
	e.Value(headW)
	e.Raw(`,"head_b":`)
	e.Value(m.Head.B)
	var history []fileEpoch
	for _, h := range m.History {
		history = append(history, fileEpoch{Epoch: h.Epoch, GWF: h.GWF, CE: h.CE})
	}
	e.Raw(`,"history":`)
	e.Value(history)
	if o := m.Optimizer; o != nil {
		e.Raw(`,"optimizer":{"epoch":`)
		e.Value(o.Epoch)
		if o.Done != 0 {
			e.Raw(`,"done":`)
			e.Value(o.Done)
		}
		e.Raw(`,"atoms":`)
		e.Value(o.Atoms)
		e.Raw(`,"head":`)
		e.Value(o.Head)
		e.Raw(`,"z":`)
		sealedfile.Slice(e, o.Z)
		if o.Encoder != nil {
			e.Raw(`,"encoder":`)
			e.Value(o.Encoder)
		}
		e.Raw("}")
	}
	if m.HeadTrainedAt != 0 {
		e.Raw(`,"head_trained_at":`)
		e.Value(m.HeadTrainedAt)
	}
	e.Raw(`,"gwf":`)
	g := *m.GWF
	g.Optimizer, g.Partial = nil, nil // the joint optimizer's state is in this file's payload
	e.Do(func(w io.Writer) error { return g.Encode(&withoutFinalNewline{w: w}) })
	if enc := gnnPayloadOf(m.Encoder); enc != nil {
		e.Raw(`,"encoder":`)
		e.Value(enc)
	}
	if q := m.GWF.Partial; q != nil {
		e.Raw(`,"partial":`)
		e.Value(filePartial{Epoch: q.Epoch, Done: q.Done, LossSum: q.LossSum, TermSums: q.TermSums})
	}
	if len(m.Classes) > 0 {
		e.Raw(`,"classes":`)
		e.Value(m.Classes)
	}
	if len(m.ClassNames) > 0 {
		e.Raw(`,"class_names":`)
		e.Value(m.ClassNames)
	}
	e.Raw("}")
	return e.Err()
}

// withoutFinalNewline passes writes on, holding back a newline that ends one until more
// follows: the newline that ends the GWF model file is dropped when it is embedded.
type withoutFinalNewline struct {
	w       io.Writer
	pending bool
}

func (n *withoutFinalNewline) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if n.pending {
		if _, err := n.w.Write([]byte{'\n'}); err != nil {
			return 0, err
		}
		n.pending = false
	}
	q := p
	if q[len(q)-1] == '\n' {
		q, n.pending = q[:len(q)-1], true
	}
	if _, err := n.w.Write(q); err != nil {
		return 0, err
	}
	return len(p), nil
}
