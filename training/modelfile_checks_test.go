package training

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/sealedfile"
)

// trainedPayload is the payload of a model trained for one epoch (with its optimizer state),
// decoded as generic JSON for tests to damage.
func trainedPayload(t *testing.T) map[string]any {
	t.Helper()
	cfg := smallConfig()
	cfg.Epochs = 1
	data := mutag(t, 10)
	m, err := NewModel(graphs.Slice(data), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), m, graphs.Slice(data), Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	var env struct{ Payload json.RawMessage }
	if err := json.Unmarshal(buf.Bytes(), &env); err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(env.Payload, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// sealed is a model file holding payload under a valid checksum.
func sealed(t testing.TB, payload any) []byte {
	t.Helper()
	b, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	file, err := sealedfile.Seal("gwf-model", FormatVersion, b)
	if err != nil {
		t.Fatal(err)
	}
	return file
}

// clone deep-copies generic JSON.
func clone(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(v)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDecodeChecksShapesBeforeAllocating: a model file of about a megabyte whose atom's first
// row is 100 000 wide (and whose other rows are empty) declares a 100 000 × 100 000 matrix;
// Decode must refuse it without allocating it (80 GB).
func TestDecodeChecksShapesBeforeAllocating(t *testing.T) {
	p := trainedPayload(t)
	const n = 100_000
	rows := make([][]float64, n)
	rows[0] = make([]float64, n)
	for i := 1; i < n; i++ {
		rows[i] = []float64{}
	}
	for name, field := range map[string]string{"atoms_v": "atoms_v", "z": "z"} {
		q := clone(t, p)
		if field == "z" {
			q["z"] = rows
		} else {
			atoms := q["atoms_v"].([]any)
			atoms[0] = rows
		}
		file := sealed(t, q)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Decode(bytes.NewReader(file))
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "row 1 has 0 entries") {
			t.Errorf("%s: %v, want a refused row 1", name, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 200<<20 {
			t.Errorf("%s: decoding a %d-byte file allocated %d MB", name, len(file), alloc>>20)
		}
	}
}

// TestDecodeChecksOptimizerConsistency: every way the optimizer state can disagree with the
// history or the partial epoch is refused, since a resume would silently drop it.
func TestDecodeChecksOptimizerConsistency(t *testing.T) {
	p := trainedPayload(t)
	if _, err := Decode(bytes.NewReader(sealed(t, p))); err != nil {
		t.Fatalf("the undamaged model: %v", err)
	}
	opt := func(q map[string]any) map[string]any { return q["optimizer"].(map[string]any) }
	atoms := func(q map[string]any) map[string]any { return opt(q)["atoms"].(map[string]any) }
	cases := map[string]struct {
		damage func(q map[string]any)
		want   string
	}{
		"partial without optimizer": {func(q map[string]any) {
			q["optimizer"] = nil
			q["config"].(map[string]any)["epochs"] = 3
			q["partial"] = map[string]any{"epoch": 2, "done": 3, "loss_sum": 0.1}
		}, "without the optimizer state"},
		"partial record missing":     {func(q map[string]any) { opt(q)["done"] = 3 }, "optimizer state after epoch 1 and 3 graphs"},
		"optimizer of another epoch": {func(q map[string]any) { opt(q)["epoch"] = 0 }, "optimizer state after epoch 0"},
		"partial beyond the epochs": {func(q map[string]any) {
			opt(q)["done"] = 3
			q["partial"] = map[string]any{"epoch": 2, "done": 3, "loss_sum": 0.1}
		}, "partial epoch 2"},
		"moment of the wrong size": {func(q map[string]any) {
			m := atoms(q)["m"].([]any)
			m[0] = m[0].([]any)[1:]
		}, "moments for"},
		"moments missing":       {func(q map[string]any) { atoms(q)["v"] = []any{} }, "moments for"},
		"moments without steps": {func(q map[string]any) { atoms(q)["iter"] = 0 }, "step 0 with"},
		"negative steps":        {func(q map[string]any) { atoms(q)["iter"] = -1 }, "step -1"},
		"negative variance": {func(q map[string]any) {
			v := atoms(q)["v"].([]any)
			v[0].([]any)[0] = -1.0
		}, "not finite or negative"},
		"embedding states missing": {func(q map[string]any) { opt(q)["z"] = []any{} }, "optimizer state for 0 embeddings"},
		"history out of order": {func(q map[string]any) {
			q["history"].([]any)[0].(map[string]any)["epoch"] = 7
		}, "history entry 0 is epoch 7"},
		"epochs 1e9": {func(q map[string]any) {
			q["config"].(map[string]any)["epochs"] = 1e9
		}, "epochs"},
		"gwb layers 1e9": {func(q map[string]any) {
			q["config"].(map[string]any)["gwb_layers"] = 1e9
		}, "gwb layers"},
	}
	for name, c := range cases {
		q := clone(t, p)
		c.damage(q)
		_, err := Decode(bytes.NewReader(sealed(t, q)))
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrCorrupt saying %q", name, err, c.want)
		}
	}
}

// TestEncodeIsIndependentOfTime: wall-clock seconds stay out of the file, so the same model
// encodes to the same bytes whatever its timings.
func TestEncodeIsIndependentOfTime(t *testing.T) {
	m, err := NewModel(graphs.Slice(mutag(t, 5)), smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	encode := func(seconds float64) []byte {
		m.History = []EpochStats{{Epoch: 1, Loss: 0.5, Seconds: seconds}}
		var buf bytes.Buffer
		if err := m.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if !bytes.Equal(encode(1.5), encode(2.25)) {
		t.Error("the file depends on the epochs' wall-clock seconds")
	}
}

// TestDecodeChecksFeatures: a model keeps its feature encoding through a file, and a file whose
// encoding does not fit its atoms (or is not one) is refused as corrupt.
func TestDecodeChecksFeatures(t *testing.T) {
	p := trainedPayload(t) // atoms without node features
	q := clone(t, p)
	q["features"] = map[string]any{"kind": "none"}
	m, err := Decode(bytes.NewReader(sealed(t, q)))
	if err != nil || m.Features == nil || m.Features.Kind != graphs.FeaturesNone {
		t.Fatalf("a model with its encoding: %+v, %v", m, err)
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if back, err := Decode(&buf); err != nil || back.Features == nil || back.Features.Kind != graphs.FeaturesNone {
		t.Fatalf("round trip: %v", err)
	}
	for name, enc := range map[string]any{
		"labels for atoms without features": map[string]any{"kind": "labels", "node_labels": []int{1, 2}},
		"unknown kind":                      map[string]any{"kind": "colours"},
		"invalid":                           map[string]any{"kind": "none", "mean": []float64{1}},
	} {
		q := clone(t, p)
		q["features"] = enc
		if _, err := Decode(bytes.NewReader(sealed(t, q))); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
}
