package semisup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/sealedfile"
	"github.com/gwf-graphs/gwf/semisup/internal/semisuptest"
	"github.com/gwf-graphs/gwf/training"
)

// trainedFile is the file of a semi-supervised model trained for one epoch, with the seconds
// of its epoch set to seconds.
func trainedFile(t *testing.T, seconds float64) []byte {
	t.Helper()
	data, labels := semisuptest.TwoStructures(t, 8, 5)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs = 1
	m, err := NewModel(data, 2, gwf, Config{Beta: 0.1, Hidden: []int{3}, Activation: ReLU, Input: InputCentered})
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, data, labels, Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	m.History[0].Seconds = seconds
	m.GWF.History[0].Seconds = seconds
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func payloadOf(t *testing.T, file []byte) map[string]any {
	t.Helper()
	var env struct{ Payload json.RawMessage }
	var p map[string]any
	var raw struct{ GWF json.RawMessage }
	if err := json.Unmarshal(file, &env); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(env.Payload, &p); err != nil {
		t.Fatal(err)
	}
	// The embedded GWF model file keeps its bytes, or its checksum would fail.
	if err := json.Unmarshal(env.Payload, &raw); err != nil {
		t.Fatal(err)
	}
	p["gwf"] = raw.GWF
	return p
}

func sealPayload(t *testing.T, p map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	file, err := sealedfile.Seal("gwf-semisup-model", FormatVersion, b)
	if err != nil {
		t.Fatal(err)
	}
	return file
}

// TestEncodeIsIndependentOfTime: two files that differ only in wall-clock seconds are equal.
func TestEncodeIsIndependentOfTime(t *testing.T) {
	if !bytes.Equal(trainedFile(t, 1), trainedFile(t, 7.5)) {
		t.Error("the file depends on wall-clock seconds")
	}
}

// TestDecodeRefusesInconsistentFiles: the head's shapes are checked before allocation, and the
// optimizer state against the history.
func TestDecodeRefusesInconsistentFiles(t *testing.T) {
	good := trainedFile(t, 1)
	if _, err := Decode(bytes.NewReader(good)); err != nil {
		t.Fatalf("the undamaged model: %v", err)
	}
	const wide = 200_000
	cases := map[string]struct {
		damage func(p map[string]any)
		want   string
	}{
		"wide first row": {func(p map[string]any) {
			layer := p["head_w"].([]any)[0].([]any)
			layer[0] = make([]float64, wide)
		}, "row 0 has"}, // refused as a wrong shape or a ragged row, never allocated
		"optimizer null": {func(p map[string]any) { p["optimizer"] = nil }, "no optimizer state"},
		"optimizer of epoch 0": {func(p map[string]any) {
			p["optimizer"].(map[string]any)["epoch"] = 0
		}, "optimizer state after epoch 0"},
		"head moment of the wrong size": {func(p map[string]any) {
			m := p["optimizer"].(map[string]any)["head"].(map[string]any)["m"].([]any)
			m[0] = []any{}
		}, "optimizer state of the head"},
		"huge hidden layer": {func(p map[string]any) {
			p["config"].(map[string]any)["hidden"] = []any{1e9}
		}, "hidden layer of 1000000000 units"},
		"head steps 1e9": {func(p map[string]any) {
			p["config"].(map[string]any)["head_training"] = map[string]any{"steps": 1e9, "learning_rate": 0.01}
		}, "head training steps"},
	}
	for name, c := range cases {
		p := payloadOf(t, good)
		c.damage(p)
		file := sealPayload(t, p)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Decode(bytes.NewReader(file))
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrCorrupt) || !(strings.Contains(err.Error(), c.want) || name == "wide first row" && strings.Contains(err.Error(), "wrong shape")) {
			t.Errorf("%s: %v, want ErrCorrupt saying %q", name, err, c.want)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 100<<20 {
			t.Errorf("%s: decoding allocated %d MB", name, alloc>>20)
		}
	}
}

// TestResumeMidEpochThroughFile: a model stopped mid-epoch, saved and loaded, resumes to
// exactly the model of an uninterrupted run (the file keeps the epoch's position beside the
// joint optimizer state; without it the resume restarted Adam and the epoch).
func TestResumeMidEpochThroughFile(t *testing.T) {
	data, labels := semisuptest.TwoStructures(t, 16, 9)
	gwf := semisuptest.SmallGWF()
	gwf.Epochs, gwf.Batch = 2, 4
	cfg := Config{Beta: 0.1, Hidden: []int{3}, Activation: ReLU, Input: InputCentered}
	newModel := func() *Model {
		m, err := NewModel(data, 2, gwf, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	ref := newModel()
	if err := Fit(context.Background(), ref, data, labels, Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}

	m := newModel()
	ctx, cancel := context.WithCancel(context.Background())
	stop := func(e training.Event) {
		if p := e.Step; p != nil && p.Epoch == 2 && p.Done == 8 {
			cancel()
		}
	}
	if err := Fit(ctx, m, data, labels, Options{Workers: 1, Observe: stop}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted fit: %v", err)
	}
	if m.GWF.Partial == nil || m.GWF.Partial.Done != 8 {
		t.Fatalf("stopped at %+v, want 8 graphs into epoch 2", m.GWF.Partial)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	m, err := Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, data, labels, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(m.GWF.Z, ref.GWF.Z) || !mat.Equal(m.Head.W[0], ref.Head.W[0]) {
		t.Error("resumed mid-epoch through the file: the model differs from the uninterrupted run")
	}
}
