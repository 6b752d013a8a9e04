package training

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/sealedfile"
)

// seedModel is a small valid model file for the fuzz corpora.
func seedModel(f *testing.F) []byte {
	f.Helper()
	m, err := NewModel(graphs.Slice(mutag(f, 4)), smallConfig())
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		f.Fatal(err)
	}
	return buf.Bytes()
}

// checkDecoded: Decode either refuses the input with an error that says what is wrong, or
// returns a model that is consistent and finite.
func checkDecoded(t *testing.T, m *Model, err error) {
	t.Helper()
	if err != nil {
		if err.Error() == "" {
			t.Fatal("empty error")
		}
		return
	}
	if err := m.Config.Validate(); err != nil {
		t.Fatalf("decoded an invalid config: %v", err)
	}
	if len(m.V) != m.K() || len(m.AtomMu) != m.K() || m.K() != m.Config.Atoms {
		t.Fatalf("decoded %d atoms, %d mu, config %d", len(m.V), len(m.AtomMu), m.Config.Atoms)
	}
	for k, v := range m.V {
		r, c := v.Dims()
		if r != c || len(m.AtomMu[k]) != r || checkSimplex(m.AtomMu[k]) != nil {
			t.Fatalf("atom %d: %d×%d with mu %v", k, r, c, m.AtomMu[k])
		}
	}
	if _, c := m.Z.Dims(); c != m.K() {
		t.Fatalf("embeddings have %d columns for %d atoms", c, m.K())
	}
	for _, v := range m.Z.RawMatrix().Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatal("non-finite embedding")
		}
	}
	// A resume continues exactly where the file says it stopped.
	if m.Partial != nil && m.Optimizer == nil {
		t.Fatal("a partial epoch without optimizer state")
	}
	if st := m.Optimizer; st != nil && (st.Epoch != len(m.History) || st.Done != m.partialDone()) {
		t.Fatalf("optimizer state after epoch %d and %d graphs, model after %d and %d", st.Epoch, st.Done, len(m.History), m.partialDone())
	}
	if m.Config.Epochs > MaxEpochs || m.Config.GWBLayers > MaxGWBLayers || m.Config.Batch > MaxBatch {
		t.Fatalf("unbounded work accepted: %+v", m.Config)
	}
}

// seedTrainedPayload is the payload of a model trained for one epoch (with optimizer state).
func seedTrainedPayload(f *testing.F) []byte {
	f.Helper()
	cfg := smallConfig()
	cfg.Epochs = 1
	data := mutag(f, 4)
	m, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		f.Fatal(err)
	}
	if err := Fit(context.Background(), m, graphs.Slice(data), Options{Workers: 1}); err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		f.Fatal(err)
	}
	var env struct{ Payload json.RawMessage }
	if err := json.Unmarshal(buf.Bytes(), &env); err != nil {
		f.Fatal(err)
	}
	return env.Payload
}

// FuzzDecodeModel feeds arbitrary bytes (mostly refused by the checksum).
func FuzzDecodeModel(f *testing.F) {
	good := seedModel(f)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{"format":"gwf-model","version":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(bytes.NewReader(data))
		if err != nil && !errors.Is(err, ErrCorrupt) && !bytes.Contains([]byte(err.Error()), []byte("version")) {
			t.Fatalf("an unreadable file must be ErrCorrupt or a version error: %v", err)
		}
		checkDecoded(t, m, err)
	})
}

// FuzzDecodeModelPayload fuzzes the payload under a valid checksum, to reach the consistency
// checks behind it.
func FuzzDecodeModelPayload(f *testing.F) {
	var env struct{ Payload json.RawMessage }
	if err := json.Unmarshal(seedModel(f), &env); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(env.Payload))
	f.Add([]byte(`{"config":{},"atoms_v":[],"atoms_mu":[],"z":[]}`))
	f.Add(seedTrainedPayload(f))
	f.Fuzz(func(t *testing.T, payload []byte) {
		if !json.Valid(payload) {
			return // the sealed file could not carry it
		}
		file, err := sealedfile.Seal("gwf-model", FormatVersion, payload)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(bytes.NewReader(file))
		checkDecoded(t, m, err)
	})
}
