package training

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"
)

// FormatVersion is the version of the model file format written by Save.
const FormatVersion = 1

// The model file is JSON:
//
//	{"format": "gwf-model", "version": 1, "sha256": "<hex of the payload's bytes>", "payload": {…}}
//
// where the payload holds the config, the atoms (V, H, atom distributions, as lists of rows),
// the embeddings Z (one row per training graph), the data fingerprint, the epoch history and,
// after training, the Adam state (optimizer: step counts and moment estimates of the atoms'
// solver and of each z_i's) that makes a resumed run exact. The checksum covers the payload exactly as written, so truncation and corruption are
// detected on load.
type fileEnvelope struct {
	Format  string          `json:"format"`
	Version int             `json:"version"`
	SHA256  string          `json:"sha256"`
	Payload json.RawMessage `json:"payload"`
}

type filePayload struct {
	Config      Config          `json:"config"`
	V           [][][]float64   `json:"atoms_v"`
	H           [][][]float64   `json:"atoms_h,omitempty"`
	AtomMu      [][]float64     `json:"atoms_mu"`
	Z           [][]float64     `json:"z"`
	Fingerprint string          `json:"fingerprint"`
	History     []EpochStats    `json:"history"`
	Partial     *PartialEpoch   `json:"partial,omitempty"`
	Optimizer   *OptimizerState `json:"optimizer,omitempty"`
}

func rowsOf(m *mat.Dense) [][]float64 {
	r, _ := m.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = append([]float64(nil), m.RawRowView(i)...)
	}
	return out
}

// denseOf builds a matrix from rows, checking that they are non-empty, rectangular and finite.
func denseOf(rows [][]float64, what string) (*mat.Dense, error) {
	if len(rows) == 0 || len(rows[0]) == 0 {
		return nil, fmt.Errorf("%s is empty", what)
	}
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		if len(r) != len(rows[0]) {
			return nil, fmt.Errorf("%s: row %d has %d entries, row 0 has %d", what, i, len(r), len(rows[0]))
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s: entry (%d,%d) is not finite", what, i, j)
			}
		}
		m.SetRow(i, r)
	}
	return m, nil
}

// Encode writes the model file to w.
func (m *Model) Encode(w io.Writer) error {
	p := filePayload{Config: m.Config, AtomMu: m.AtomMu, Z: rowsOf(m.Z), Fingerprint: m.Fingerprint, History: m.History, Partial: m.Partial, Optimizer: m.Optimizer}
	for k, v := range m.V {
		p.V = append(p.V, rowsOf(v))
		if m.Dim() > 0 {
			p.H = append(p.H, rowsOf(m.H[k]))
		}
	}
	payload, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode model: %w", err)
	}
	sum := sha256.Sum256(payload)
	env := fileEnvelope{Format: "gwf-model", Version: FormatVersion, SHA256: hex.EncodeToString(sum[:]), Payload: payload}
	enc := json.NewEncoder(w)
	if err := enc.Encode(env); err != nil {
		return fmt.Errorf("write model: %w", err)
	}
	return nil
}

// ErrCorrupt is wrapped by errors about unreadable, truncated or tampered model files.
var ErrCorrupt = errors.New("corrupt model file")

// Decode reads a model file written by Encode, verifying its format, version and checksum and
// the consistency of its contents.
func Decode(r io.Reader) (*Model, error) {
	var env fileEnvelope
	dec := json.NewDecoder(r)
	if err := dec.Decode(&env); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if env.Format != "gwf-model" {
		return nil, fmt.Errorf("%w: not a gwf model file (format %q)", ErrCorrupt, env.Format)
	}
	if env.Version != FormatVersion {
		return nil, fmt.Errorf("model file version %d is not supported (this gwf reads version %d)", env.Version, FormatVersion)
	}
	sum := sha256.Sum256(env.Payload)
	if hex.EncodeToString(sum[:]) != env.SHA256 {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	var p filePayload
	if err := json.Unmarshal(env.Payload, &p); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return p.model()
}

// checkSimplex checks that mu is a distribution: finite, non-negative entries summing to 1.
func checkSimplex(mu []float64) error {
	sum := 0.0
	for i, v := range mu {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("entry %d is %v", i, v)
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-6 {
		return fmt.Errorf("sums to %v, not 1", sum)
	}
	return nil
}

// model rebuilds and checks a Model from the payload.
func (p *filePayload) model() (*Model, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	if err := p.Config.Validate(); err != nil {
		return nil, bad("%v", err)
	}
	K := p.Config.Atoms
	if len(p.V) != K || len(p.AtomMu) != K || (p.H != nil && len(p.H) != K) {
		return nil, bad("%d atoms configured, %d V, %d mu, %d H", K, len(p.V), len(p.AtomMu), len(p.H))
	}
	m := &Model{Config: p.Config, AtomMu: p.AtomMu, Fingerprint: p.Fingerprint, History: p.History, Partial: p.Partial, Optimizer: p.Optimizer}
	dim := -1
	for k := 0; k < K; k++ {
		v, err := denseOf(p.V[k], fmt.Sprintf("atom %d V", k))
		if err != nil {
			return nil, bad("%v", err)
		}
		r, c := v.Dims()
		if r != c || len(p.AtomMu[k]) != r {
			return nil, bad("atom %d: V is %d×%d with %d mu entries", k, r, c, len(p.AtomMu[k]))
		}
		if err := checkSimplex(p.AtomMu[k]); err != nil {
			return nil, bad("atom %d: mu %v", k, err)
		}
		m.V = append(m.V, v)
		if p.H != nil {
			h, err := denseOf(p.H[k], fmt.Sprintf("atom %d H", k))
			if err != nil {
				return nil, bad("%v", err)
			}
			hr, hc := h.Dims()
			if hr != r || (dim >= 0 && hc != dim) {
				return nil, bad("atom %d: H is %d×%d", k, hr, hc)
			}
			dim = hc
			m.H = append(m.H, h)
		}
	}
	z, err := denseOf(p.Z, "embeddings")
	if err != nil {
		return nil, bad("%v", err)
	}
	if _, c := z.Dims(); c != K {
		return nil, bad("embeddings have %d columns for %d atoms", c, K)
	}
	m.Z = z
	if err := m.checkPartial(); err != nil {
		return nil, bad("%v", err)
	}
	if err := m.checkOptimizer(); err != nil {
		return nil, bad("%v", err)
	}
	return m, nil
}

// checkPartial checks the position of a stopped epoch.
func (m *Model) checkPartial() error {
	p := m.Partial
	if p == nil {
		return nil
	}
	rows, _ := m.Z.Dims()
	if p.Epoch != len(m.History)+1 || p.Done <= 0 || p.Done >= rows || !(p.LossSum >= 0) || math.IsInf(p.LossSum, 0) || !(p.Seconds >= 0) {
		return fmt.Errorf("partial epoch %d with %d of %d graphs done (loss sum %v, %v s) after %d epochs",
			p.Epoch, p.Done, rows, p.LossSum, p.Seconds, len(m.History))
	}
	return nil
}

// checkOptimizer checks that the Adam state, if any, fits the model's parameters and is finite.
func (m *Model) checkOptimizer() error {
	st := m.Optimizer
	if st == nil {
		return nil
	}
	rows, k := m.Z.Dims()
	if st.Epoch < 0 || st.Epoch > len(m.History) || st.Done < 0 || st.Done >= rows {
		return fmt.Errorf("optimizer state after epoch %d and %d graphs, the history has %d epochs of %d graphs", st.Epoch, st.Done, len(m.History), rows)
	}
	if len(st.Z) != rows {
		return fmt.Errorf("optimizer state for %d embeddings, the model has %d", len(st.Z), rows)
	}
	var sizes []int
	for _, v := range m.V {
		r, c := v.Dims()
		sizes = append(sizes, r*c)
	}
	for _, h := range m.H {
		r, c := h.Dims()
		sizes = append(sizes, r*c)
	}
	if err := checkAdam(st.Atoms, sizes); err != nil {
		return fmt.Errorf("optimizer state of the atoms: %w", err)
	}
	for i, z := range st.Z {
		if err := checkAdam(z, []int{k}); err != nil {
			return fmt.Errorf("optimizer state of embedding %d: %w", i, err)
		}
	}
	return nil
}

// checkAdam checks a snapshot against the parameter sizes.
func checkAdam(st AdamState, sizes []int) error {
	if st.Iter == 0 {
		return nil
	}
	if st.Iter < 0 || len(st.M) != len(sizes) || len(st.V) != len(sizes) {
		return fmt.Errorf("step %d with %d/%d moments for %d parameters", st.Iter, len(st.M), len(st.V), len(sizes))
	}
	for i, n := range sizes {
		if len(st.M[i]) != n || len(st.V[i]) != n {
			return fmt.Errorf("parameter %d: %d/%d moments for %d values", i, len(st.M[i]), len(st.V[i]), n)
		}
		for j := range n {
			if math.IsInf(st.M[i][j], 0) || !(st.V[i][j] >= 0) || math.IsInf(st.V[i][j], 0) {
				return fmt.Errorf("parameter %d: moment %d is not finite or negative", i, j)
			}
		}
	}
	return nil
}

// Save writes the model to path atomically: to a temporary file in the same directory, synced,
// then renamed over path, so a crash at any moment leaves either the old file or the new one.
func (m *Model) Save(path string) error {
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		return err
	}
	return WriteFileAtomic(path, buf.Bytes())
}

// Load reads a model file.
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load model: %w", err)
	}
	defer f.Close()
	m, err := Decode(f)
	if err != nil {
		return nil, fmt.Errorf("load model %s: %w", path, err)
	}
	return m, nil
}

// WriteFileAtomic writes data to path through a synced temporary file and a rename.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("save %s: %w", path, err)
	}
	// CreateTemp makes the file private (0600); a model is an ordinary output file.
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	// Sync the directory so the rename itself survives a crash.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
