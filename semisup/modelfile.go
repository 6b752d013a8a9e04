package semisup

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

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/training"
)

// FormatVersion is the version of the semi-supervised model file.
const FormatVersion = 1

// The file is JSON, like the GWF model file:
//
//	{"format": "gwf-semisup-model", "version": 1, "sha256": "<hex of the payload>", "payload": {…}}
//
// whose payload holds the head's configuration and weights, the epoch history, the Adam state
// (for an exact resume) and the GWF model as a complete GWF model file.
type fileEnvelope struct {
	Format  string          `json:"format"`
	Version int             `json:"version"`
	SHA256  string          `json:"sha256"`
	Payload json.RawMessage `json:"payload"`
}

type filePayload struct {
	Config    Config          `json:"config"`
	HeadW     [][][]float64   `json:"head_w"`
	HeadB     [][]float64     `json:"head_b"`
	History   []EpochStats    `json:"history"`
	Optimizer *OptimizerState `json:"optimizer,omitempty"`
	// HeadTrainedAt: see Model.HeadTrainedAt (absent in files of models never refitted).
	HeadTrainedAt int             `json:"head_trained_at,omitempty"`
	GWF           json.RawMessage `json:"gwf"`
	// Encoder holds the graph encoder's weights (Config.Encoder gcn or gin).
	Encoder *gnnPayload `json:"encoder,omitempty"`
}

// ErrCorrupt is wrapped by errors about unreadable, truncated or tampered files.
var ErrCorrupt = errors.New("corrupt semi-supervised model file")

// Encode writes the model file.
func (m *Model) Encode(w io.Writer) error {
	var gwf bytes.Buffer
	g := *m.GWF
	g.Optimizer, g.Partial = nil, nil // the joint optimizer's state is in this file's payload
	if err := g.Encode(&gwf); err != nil {
		return err
	}
	p := filePayload{Config: m.Config, HeadB: m.Head.B, History: m.History, Optimizer: m.Optimizer, HeadTrainedAt: m.HeadTrainedAt, GWF: bytes.TrimSpace(gwf.Bytes()), Encoder: gnnPayloadOf(m.Encoder)}
	for _, w := range m.Head.W {
		r, _ := w.Dims()
		rows := make([][]float64, r)
		for i := range rows {
			rows[i] = w.RawRowView(i)
		}
		p.HeadW = append(p.HeadW, rows)
	}
	payload, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode semi-supervised model: %w", err)
	}
	sum := sha256.Sum256(payload)
	return json.NewEncoder(w).Encode(fileEnvelope{Format: "gwf-semisup-model", Version: FormatVersion, SHA256: hex.EncodeToString(sum[:]), Payload: payload})
}

// Save writes the model atomically (temporary file, fsync, rename).
func (m *Model) Save(path string) error {
	var b bytes.Buffer
	if err := m.Encode(&b); err != nil {
		return err
	}
	return training.WriteFileAtomic(path, b.Bytes())
}

// Load reads a model file written by Save.
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Decode reads and checks a model file.
func Decode(r io.Reader) (*Model, error) {
	var env fileEnvelope
	if err := json.NewDecoder(r).Decode(&env); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if env.Format != "gwf-semisup-model" {
		return nil, fmt.Errorf("%w: not a semi-supervised gwf model (format %q)", ErrCorrupt, env.Format)
	}
	if env.Version != FormatVersion {
		return nil, fmt.Errorf("semi-supervised model file version %d is not supported (this gwf reads %d)", env.Version, FormatVersion)
	}
	sum := sha256.Sum256(env.Payload)
	if hex.EncodeToString(sum[:]) != env.SHA256 {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	var p filePayload
	if err := json.Unmarshal(env.Payload, &p); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	if err := p.Config.Validate(); err != nil {
		return nil, bad("%v", err)
	}
	gwf, err := training.Decode(bytes.NewReader(p.GWF))
	if err != nil {
		return nil, bad("gwf model: %v", err)
	}
	head := &MLP{Activation: p.Config.Activation}
	if len(p.HeadW) != len(p.Config.Hidden)+1 || len(p.HeadB) != len(p.HeadW) {
		return nil, bad("head: %d weight and %d bias layers for %d hidden layers", len(p.HeadW), len(p.HeadB), len(p.Config.Hidden))
	}
	in := gwf.K()
	for l, rows := range p.HeadW {
		if len(rows) != in || len(rows[0]) == 0 || len(p.HeadB[l]) != len(rows[0]) || (l < len(p.Config.Hidden) && len(rows[0]) != p.Config.Hidden[l]) {
			return nil, bad("head layer %d has the wrong shape", l)
		}
		w := mat.NewDense(len(rows), len(rows[0]), nil)
		for i, row := range rows {
			if len(row) != len(rows[0]) {
				return nil, bad("head layer %d is not rectangular", l)
			}
			for j, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, bad("head layer %d is not finite", l)
				}
				w.Set(i, j, v)
			}
		}
		head.W = append(head.W, w)
		head.B = append(head.B, p.HeadB[l])
		in = len(rows[0])
	}
	if head.Classes() < 2 {
		return nil, bad("head has %d classes", head.Classes())
	}
	if p.HeadTrainedAt < 0 || p.HeadTrainedAt > len(p.History) {
		return nil, bad("head trained after epoch %d of %d", p.HeadTrainedAt, len(p.History))
	}
	m := &Model{GWF: gwf, Head: head, Config: p.Config, History: p.History, Optimizer: p.Optimizer, HeadTrainedAt: p.HeadTrainedAt}
	if m.Encoder, err = p.Encoder.gnn(p.Config, InputDim(gwf.Dim()), gwf.K()); err != nil {
		return nil, bad("%v", err)
	}
	if len(gwf.History) != len(p.History) {
		return nil, bad("%d joint epochs, %d in the gwf model", len(p.History), len(gwf.History))
	}
	if err := m.checkOptimizer(); err != nil {
		return nil, bad("%v", err)
	}
	return m, nil
}
