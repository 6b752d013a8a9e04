package semisup

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/gwf-graphs/gwf/internal/sealedfile"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
)

// seedFile is a small valid semi-supervised model file (untrained: training under the fuzzer's
// coverage instrumentation would slow every worker's start).
func seedFile(f *testing.F) []byte {
	f.Helper()
	data, _ := semisuptest.TwoStructures(f, 6, 31)
	m, err := NewModel(data, 2, semisuptest.SmallGWF(), Config{Beta: 0.1, Hidden: []int{3}, Activation: ReLU, Input: InputCentered, Head: HeadTraining{Steps: 2, LearningRate: 0.01}})
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		f.Fatal(err)
	}
	return buf.Bytes()
}

// checkDecoded: Decode refuses the input with an error, or returns a model whose head fits
// its embeddings and is finite, and whose predictions can be computed.
func checkDecoded(t *testing.T, m *Model, err error) {
	t.Helper()
	if err != nil {
		if err.Error() == "" {
			t.Fatal("empty error")
		}
		return
	}
	if m.Head.Inputs() != m.GWF.K() || m.Head.Classes() < 2 {
		t.Fatalf("head of %d inputs and %d classes for %d atoms", m.Head.Inputs(), m.Head.Classes(), m.GWF.K())
	}
	for _, w := range m.Head.W {
		for _, v := range w.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatal("non-finite head weight")
			}
		}
	}
	if n, _ := m.GWF.Z.Dims(); len(m.Predict()) != n {
		t.Fatal("predictions do not cover the embeddings")
	}
}

// FuzzDecode feeds arbitrary bytes (mostly refused by the checksum).
func FuzzDecode(f *testing.F) {
	good := seedFile(f)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{"format":"gwf-semisup-model","version":9}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(bytes.NewReader(data))
		checkDecoded(t, m, err)
	})
}

// FuzzDecodePayload fuzzes the payload under a valid checksum, to reach the consistency checks
// behind it.
func FuzzDecodePayload(f *testing.F) {
	var env struct{ Payload json.RawMessage }
	if err := json.Unmarshal(seedFile(f), &env); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(env.Payload))
	f.Add([]byte(`{"config":{"activation":"relu"},"head_w":[],"head_b":[],"gwf":{}}`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		if !json.Valid(payload) {
			return // the sealed file could not carry it
		}
		file, err := sealedfile.Seal("gwf-semisup-model", FormatVersion, payload)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(bytes.NewReader(file))
		checkDecoded(t, m, err)
	})
}
