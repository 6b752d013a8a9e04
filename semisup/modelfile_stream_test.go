package semisup

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
	"github.com/gwf-graphs/gwf/training"
)

// marshalledPayload is the payload as json.Marshal writes it: what encodePayload must equal.
func marshalledPayload(t *testing.T, m *Model) []byte {
	t.Helper()
	var gwf bytes.Buffer
	g := *m.GWF
	g.Optimizer, g.Partial = nil, nil
	if err := g.Encode(&gwf); err != nil {
		t.Fatal(err)
	}
	p := filePayload{Config: m.Config, HeadB: m.Head.B, Optimizer: m.Optimizer, HeadTrainedAt: m.HeadTrainedAt, GWF: bytes.TrimSpace(gwf.Bytes()),
		Encoder: gnnPayloadOf(m.Encoder), Classes: m.Classes, ClassNames: m.ClassNames}
	for _, h := range m.History {
		p.History = append(p.History, fileEpoch{Epoch: h.Epoch, GWF: h.GWF, CE: h.CE})
	}
	if q := m.GWF.Partial; q != nil {
		p.Partial = &filePartial{Epoch: q.Epoch, Done: q.Done, LossSum: q.LossSum, TermSums: q.TermSums}
	}
	for _, w := range m.Head.W {
		r, _ := w.Dims()
		rows := make([][]float64, r)
		for i := range rows {
			rows[i] = w.RawRowView(i)
		}
		p.HeadW = append(p.HeadW, rows)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStreamedPayloadIsMarshal: the classifier file's payload, written piece by piece, is the
// bytes json.Marshal gives for the whole payload — fresh, trained, with an encoder and with
// every optional field set — so classifier files are unchanged. A field added to the payload
// or to the optimizer state fails the field count: encodePayload must write it too.
func TestStreamedPayloadIsMarshal(t *testing.T) {
	if n := reflect.TypeOf(filePayload{}).NumField(); n != 11 {
		t.Fatalf("filePayload has %d fields, encodePayload writes 11: add the new one", n)
	}
	if n := reflect.TypeOf(OptimizerState{}).NumField(); n != 6 {
		t.Fatalf("OptimizerState has %d fields, encodePayload writes 6: add the new one", n)
	}
	data, labels := semisuptest.TwoStructures(t, 8, 5)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 1
	for _, enc := range []EncoderKind{EncoderNone, EncoderGIN} {
		m, err := NewModel(data, 2, gwf, Config{Beta: 0.1, Hidden: []int{3}, Activation: ReLU, Input: InputCentered, Encoder: enc, EncoderHidden: []int{4}})
		if err != nil {
			t.Fatal(err)
		}
		check := func(what string) {
			t.Helper()
			var got bytes.Buffer
			if err := m.encodePayload(&got); err != nil {
				t.Fatal(err)
			}
			if want := marshalledPayload(t, m); !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("%s, encoder %s: streamed payload\n%s\njson.Marshal\n%s", what, enc, got.Bytes(), want)
			}
		}
		check("fresh model")
		if err := Fit(context.Background(), m, data, labels, Options{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		check("trained model")
		m.Optimizer.Done = 2
		m.Optimizer.Encoder = &training.AdamState{Iter: 1, M: [][]float64{{1}}, V: [][]float64{{2}}}
		m.GWF.Partial = &training.PartialEpoch{Epoch: 2, Done: 3, LossSum: 0.5, TermSums: []float64{0.25}}
		m.Classes, m.ClassNames = []int{-1, 1}, []string{"no <", "yes &"}
		m.HeadTrainedAt = 1
		check("every optional field")
		m.Optimizer.Z = nil
		check("no embeddings' state")
		m.Optimizer, m.Classes, m.ClassNames, m.HeadTrainedAt = nil, nil, nil, 0
		check("no optimizer")
	}
}
