package training

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// marshalledPayload is the payload as json.Marshal writes it: what encodePayload must equal.
func marshalledPayload(t *testing.T, m *Model) []byte {
	t.Helper()
	p := filePayload{Config: m.Config, AtomMu: m.AtomMu, Z: rowsOf(m.Z), Fingerprint: m.Fingerprint, Optimizer: m.Optimizer, Features: m.Features}
	for _, h := range m.History {
		p.History = append(p.History, fileEpoch{Epoch: h.Epoch, Loss: h.Loss, Terms: h.Terms})
	}
	if q := m.Partial; q != nil {
		p.Partial = &filePartial{Epoch: q.Epoch, Done: q.Done, LossSum: q.LossSum, TermSums: q.TermSums}
	}
	for k, v := range m.V {
		p.V = append(p.V, rowsOf(v))
		if m.Dim() > 0 {
			p.H = append(p.H, rowsOf(m.H[k]))
		}
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStreamedPayloadIsMarshal: the model file's payload, written piece by piece, is the bytes
// json.Marshal gives for the whole payload — for a fresh model, a trained one, and one with
// every optional field set (atom features, a partial epoch, extra terms, an encoder's state,
// a feature encoding) — so model files are unchanged. If a field is added to the payload or to
// the optimizer state, the field count below fails: encodePayload must write it too.
func TestStreamedPayloadIsMarshal(t *testing.T) {
	if n := reflect.TypeOf(filePayload{}).NumField(); n != 10 {
		t.Fatalf("filePayload has %d fields, encodePayload writes 10: add the new one", n)
	}
	if n := reflect.TypeOf(OptimizerState{}).NumField(); n != 6 {
		t.Fatalf("OptimizerState has %d fields, encodePayload writes 6: add the new one", n)
	}
	data := mutag(t, 10)
	m, err := NewModel(graphs.Slice(data), smallConfig())
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
			t.Fatalf("%s: streamed payload\n%s\njson.Marshal\n%s", what, got.Bytes(), want)
		}
	}
	check("fresh model")
	if err := Fit(context.Background(), m, graphs.Slice(data), Options{}); err != nil {
		t.Fatal(err)
	}
	check("trained model")
	m.Optimizer.Done = 3
	m.Optimizer.Terms = []AdamState{{Iter: 2, M: [][]float64{{0.5}}, V: [][]float64{{0.25}}}}
	m.Optimizer.Encoder = &AdamState{Iter: 1, M: [][]float64{{1, 2}}, V: [][]float64{{3, 4}}}
	m.Partial = &PartialEpoch{Epoch: 3, Done: 4, LossSum: 1.5, Seconds: 9, TermSums: []float64{0.125}}
	m.History[0].Terms = []float64{0.5}
	m.Features = &graphs.FeatureEncoding{Kind: graphs.FeaturesAttributes, Mean: []float64{1}, Scale: []float64{2}}
	for k := range m.V {
		r, _ := m.V[k].Dims()
		m.H = append(m.H, mat.NewDense(r, 2, nil))
	}
	check("every optional field")
	m.Optimizer.Z = nil
	check("no embeddings' state")
	m.Optimizer = nil
	check("no optimizer")
}
