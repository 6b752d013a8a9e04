package fgwsvm

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/sealedfile"
)

// fuzzSeedModel is a small trained classifier's file.
func fuzzSeedModel(f *testing.F) []byte {
	var data []*graphs.Graph
	var labels []int
	for i := range 8 {
		n := 3 + i%3
		c := mat.NewDense(n, n, nil)
		for v := 1; v < n; v++ {
			c.Set(v-1, v, 1)
			c.Set(v, v-1, 1)
		}
		if i%2 == 1 {
			c.Set(0, n-1, 1)
			c.Set(n-1, 0, 1)
		}
		g, err := graphs.New("g", c, nil, nil)
		if err != nil {
			f.Fatal(err)
		}
		data, labels = append(data, g), append(labels, i%2)
	}
	grid := Grid{Gammas: []float64{1}, Cs: []float64{1}, Folds: 2, Seed: 1}
	m, err := Train(context.Background(), data, labels, 2, Settings{Candidates: []Candidate{{Structure: graphs.Adjacency, FeatureWeight: 1}}, Grid: grid}, Options{})
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		f.Fatal(err)
	}
	return buf.Bytes()
}

// FuzzDecodePayload: any payload under a valid seal is refused with an error or gives a
// classifier that predicts a graph without panicking.
func FuzzDecodePayload(f *testing.F) {
	var env struct{ Payload json.RawMessage }
	if err := json.Unmarshal(fuzzSeedModel(f), &env); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(env.Payload))
	f.Add([]byte(`{"graphs":[],"names":[],"svm":null}`))
	probe, err := graphs.New("probe", mat.NewDense(2, 2, []float64{0, 1, 1, 0}), nil, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		if !json.Valid(payload) {
			return // the sealed file could not carry it
		}
		file, err := sealedfile.Seal(FormatName, FormatVersion, payload)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(bytes.NewReader(file))
		if err != nil {
			return
		}
		if dim(m.Graphs[0]) != 0 || len(m.Graphs) > 50 {
			return // the probe has no features; large decoded models are slow to predict with
		}
		pred, err := m.Predict(context.Background(), []*graphs.Graph{probe}, Options{Workers: 1})
		if err == nil && (len(pred) != 1 || pred[0] < 0 || pred[0] >= m.Voters[0].SVM.Classes) {
			t.Fatalf("prediction %v for %d classes", pred, m.Voters[0].SVM.Classes)
		}
	})
}
