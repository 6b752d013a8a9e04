package training

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/internal/sealedfile"
)

// FormatVersion is the version of the model file format written by Save.
const FormatVersion = 1

// MaxFileBytes bounds the size of a model file that Decode reads (sealedfile.MaxFileBytes).
const MaxFileBytes = sealedfile.MaxFileBytes

// maxEntries bounds the number of values of all matrices of a decoded model together (4 GiB of
// float64), checked from the payload's declared shapes before any matrix is allocated.
const maxEntries = MaxFileBytes / 8

// The model file is a sealed file (internal/sealedfile: format "gwf-model", version, SHA-256 of the
// payload) around a JSON payload that holds the config, the atoms (V, H, atom distributions,
// as lists of rows), the embeddings Z (one row per training graph), the data fingerprint, the
// epoch history and, after training, the Adam state (optimizer: step counts and moment
// estimates of the atoms' solver and of each z_i's) that makes a resumed run exact.
//
// Wall-clock times (EpochStats.Seconds, PartialEpoch.Seconds) are not written: two identical
// runs give byte-identical files, and a loaded model's times are 0.
type filePayload struct {
	Config      Config          `json:"config"`
	V           [][][]float64   `json:"atoms_v"`
	H           [][][]float64   `json:"atoms_h,omitempty"`
	AtomMu      [][]float64     `json:"atoms_mu"`
	Z           [][]float64     `json:"z"`
	Fingerprint string          `json:"fingerprint"`
	History     []fileEpoch     `json:"history"`
	Partial     *filePartial    `json:"partial,omitempty"`
	Optimizer   *OptimizerState `json:"optimizer,omitempty"`
	// Features: see Model.Features (absent in files written before it existed).
	Features *graphs.FeatureEncoding `json:"features,omitempty"`
}

// fileEpoch is EpochStats without its wall-clock seconds.
type fileEpoch struct {
	Epoch int       `json:"epoch"`
	Loss  float64   `json:"loss"`
	Terms []float64 `json:"terms,omitempty"`
}

// filePartial is PartialEpoch without its wall-clock seconds.
type filePartial struct {
	Epoch    int       `json:"epoch"`
	Done     int       `json:"done"`
	LossSum  float64   `json:"loss_sum"`
	TermSums []float64 `json:"term_sums,omitempty"`
}

func rowsOf(m *mat.Dense) [][]float64 {
	r, _ := m.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = append([]float64(nil), m.RawRowView(i)...)
	}
	return out
}

// shapeOf checks that rows form a non-empty rectangular matrix and returns its shape, without
// allocating: a file declares its shapes only through its rows, and each must be checked
// before a matrix of rows × width of row 0 is made.
func shapeOf(rows [][]float64, what string) (r, c int, err error) {
	if len(rows) == 0 || len(rows[0]) == 0 {
		return 0, 0, fmt.Errorf("%s is empty", what)
	}
	for i, row := range rows {
		if len(row) != len(rows[0]) {
			return 0, 0, fmt.Errorf("%s: row %d has %d entries, row 0 has %d", what, i, len(row), len(rows[0]))
		}
	}
	return len(rows), len(rows[0]), nil
}

// denseOf builds a matrix from rows already checked by shapeOf, refusing non-finite entries.
func denseOf(rows [][]float64, what string) (*mat.Dense, error) {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s: entry (%d,%d) is not finite", what, i, j)
			}
		}
		m.SetRow(i, r)
	}
	return m, nil
}

// Encode writes the model file to w. The payload is written in pieces (encodePayload), twice —
// once to checksum it, once to write it — so that a model of a large corpus is never held in
// memory as one more copy of itself.
func (m *Model) Encode(w io.Writer) error {
	if err := sealedfile.SealStream(w, "gwf-model", FormatVersion, m.encodePayload); err != nil {
		return fmt.Errorf("write model: %w", err)
	}
	return nil
}

// ErrCorrupt is wrapped by errors about unreadable, truncated or tampered model files.
var ErrCorrupt = errors.New("corrupt model file")

// Decode reads a model file written by Encode, verifying its format, version and checksum and
// the consistency of its contents: every shape is checked before anything is allocated, and
// the optimizer state must match the history and the partial epoch exactly.
func Decode(r io.Reader) (*Model, error) {
	payload, err := sealedfile.Open(r, "gwf-model", FormatVersion, "gwf model", MaxFileBytes)
	if errors.Is(err, sealedfile.ErrCorrupt) {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err) // a file of another kind: sealedfile.FormatError
	} else if err != nil {
		return nil, err
	}
	var p filePayload
	if err := json.Unmarshal(payload, &p); err != nil {
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

// model rebuilds and checks a Model from the payload: first every declared shape and the
// total size (nothing allocated yet beyond the decoded JSON), then the values.
func (p *filePayload) model() (*Model, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	if err := p.Config.Validate(); err != nil {
		return nil, bad("%v", err)
	}
	if err := p.checkShapes(); err != nil {
		return nil, bad("%v", err)
	}
	K := p.Config.Atoms
	m := &Model{Config: p.Config, AtomMu: p.AtomMu, Fingerprint: p.Fingerprint, Optimizer: p.Optimizer, Features: p.Features}
	for k := 0; k < K; k++ {
		if err := checkSimplex(p.AtomMu[k]); err != nil {
			return nil, bad("atom %d: mu %v", k, err)
		}
		v, err := denseOf(p.V[k], fmt.Sprintf("atom %d V", k))
		if err != nil {
			return nil, bad("%v", err)
		}
		m.V = append(m.V, v)
		if p.H != nil {
			h, err := denseOf(p.H[k], fmt.Sprintf("atom %d H", k))
			if err != nil {
				return nil, bad("%v", err)
			}
			m.H = append(m.H, h)
		}
	}
	z, err := denseOf(p.Z, "embeddings")
	if err != nil {
		return nil, bad("%v", err)
	}
	m.Z = z
	for i, h := range p.History {
		if h.Epoch != i+1 || !allFinite(append([]float64{h.Loss}, h.Terms...)) {
			return nil, bad("history entry %d is epoch %d with loss %v (terms %v)", i, h.Epoch, h.Loss, h.Terms)
		}
		m.History = append(m.History, EpochStats{Epoch: h.Epoch, Loss: h.Loss, Terms: h.Terms})
	}
	if q := p.Partial; q != nil {
		if !allFinite(q.TermSums) {
			return nil, bad("partial epoch %d: term sums %v", q.Epoch, q.TermSums)
		}
		m.Partial = &PartialEpoch{Epoch: q.Epoch, Done: q.Done, LossSum: q.LossSum, TermSums: q.TermSums}
	}
	if err := m.checkPartial(); err != nil {
		return nil, bad("%v", err)
	}
	if err := m.checkOptimizer(); err != nil {
		return nil, bad("%v", err)
	}
	if err := m.checkFeatures(); err != nil {
		return nil, bad("%v", err)
	}
	return m, nil
}

// checkFeatures checks that the feature encoding, if any, is valid and as wide as the atoms'
// features.
func (m *Model) checkFeatures() error {
	e := m.Features
	if e == nil {
		return nil
	}
	if err := e.Validate(); err != nil {
		return err
	}
	if d := m.Dim(); (e.Kind == graphs.FeaturesNone) != (d == 0) || (e.Dim() != 0 && e.Dim() != d) {
		return fmt.Errorf("node features %q of width %d for atoms with %d feature dimensions", e.Kind, e.Dim(), d)
	}
	return nil
}

// checkShapes checks the shapes the payload declares, and their total size, before any matrix
// is allocated: K square atoms with as many mu entries as nodes, node features of one width,
// K-wide embeddings.
func (p *filePayload) checkShapes() error {
	K := p.Config.Atoms
	if len(p.V) != K || len(p.AtomMu) != K || (p.H != nil && len(p.H) != K) {
		return fmt.Errorf("%d atoms configured, %d V, %d mu, %d H", K, len(p.V), len(p.AtomMu), len(p.H))
	}
	total, dim := 0, -1
	for k := 0; k < K; k++ {
		r, c, err := shapeOf(p.V[k], fmt.Sprintf("atom %d V", k))
		if err != nil {
			return err
		}
		if r != c || len(p.AtomMu[k]) != r {
			return fmt.Errorf("atom %d: V is %d×%d with %d mu entries", k, r, c, len(p.AtomMu[k]))
		}
		total += r * c
		if p.H != nil {
			hr, hc, err := shapeOf(p.H[k], fmt.Sprintf("atom %d H", k))
			if err != nil {
				return err
			}
			if hr != r || (dim >= 0 && hc != dim) {
				return fmt.Errorf("atom %d: H is %d×%d for %d nodes and %d features", k, hr, hc, r, max(dim, hc))
			}
			dim = hc
			total += hr * hc
		}
	}
	zr, zc, err := shapeOf(p.Z, "embeddings")
	if err != nil {
		return err
	}
	if zc != K {
		return fmt.Errorf("embeddings have %d columns for %d atoms", zc, K)
	}
	// Each count is at most the number of values in the decoded JSON, so the sum cannot
	// overflow; the bound keeps a model within what gwf fit could have written.
	if total += zr * zc; total > maxEntries {
		return fmt.Errorf("the matrices hold %d values, more than the %d allowed", total, maxEntries)
	}
	return nil
}

// checkPartial checks the position of a stopped epoch.
func (m *Model) checkPartial() error {
	p := m.Partial
	if p == nil {
		return nil
	}
	rows, _ := m.Z.Dims()
	if p.Epoch != len(m.History)+1 || p.Epoch > m.Config.Epochs || p.Done <= 0 || p.Done >= rows || !(p.LossSum >= 0) || math.IsInf(p.LossSum, 0) {
		return fmt.Errorf("partial epoch %d with %d of %d graphs done (loss sum %v) after %d of %d epochs",
			p.Epoch, p.Done, rows, p.LossSum, len(m.History), m.Config.Epochs)
	}
	if m.Optimizer == nil {
		return fmt.Errorf("partial epoch %d without the optimizer state to resume it", p.Epoch)
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
	// Fit restores the state only where it stopped: after the last epoch of the history and
	// the partial epoch's graphs. Any other state would be dropped on resume, silently giving
	// another model than an uninterrupted run.
	if st.Epoch != len(m.History) || st.Done != m.partialDone() {
		return fmt.Errorf("optimizer state after epoch %d and %d graphs, the model stopped after epoch %d and %d graphs", st.Epoch, st.Done, len(m.History), m.partialDone())
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
	if err := st.Atoms.Check(sizes); err != nil {
		return fmt.Errorf("optimizer state of the atoms: %w", err)
	}
	for i, z := range st.Z {
		if err := z.Check([]int{k}); err != nil {
			return fmt.Errorf("optimizer state of embedding %d: %w", i, err)
		}
	}
	return nil
}

// Save writes the model to path atomically (internal/atomicfile): a crash at any moment leaves
// either the old file or the new one; a symbolic link is followed, a FIFO or device written in
// place.
func (m *Model) Save(path string) error { return atomicfile.Write(path, m.Encode) }

// Load reads a model file. A path to no gwf model file at all (a directory, an empty file)
// is told so (sealedfile.ErrNotModelFile), not called corrupt.
func Load(path string) (*Model, error) {
	if err := sealedfile.CheckFile(path); err != nil {
		return nil, fmt.Errorf("load model: %w", err)
	}
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

// ErrNoOptimizerState is wrapped by Resumable's error.
var ErrNoOptimizerState = errors.New("no optimizer state")

// Resumable reports whether training m further continues it exactly: a model with trained
// epochs but no optimizer state (a file written without it, such as the GWF part of a
// semi-supervised model) would restart Adam from zero and give another model than an
// uninterrupted run.
func (m *Model) Resumable() error {
	if len(m.History) > 0 && m.Optimizer == nil {
		return fmt.Errorf("%w: the model has %d trained epochs but not the Adam state after them, so training it further would not continue the same run", ErrNoOptimizerState, len(m.History))
	}
	return nil
}

// allFinite reports whether no value of xs is NaN or infinite.
func allFinite(xs []float64) bool {
	for _, v := range xs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
