package semisup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/internal/sealedfile"
	"github.com/gwf-graphs/gwf/training"
)

// FormatVersion is the version of the semi-supervised model file.
const FormatVersion = 1

// MaxHiddenUnits and MaxHiddenLayers bound the head a Config may ask for (far above any
// useful head): a hostile file or a mistyped flag is refused instead of allocated.
const (
	MaxHiddenUnits  = 1 << 16
	MaxHiddenLayers = 64
)

// The file is a sealed file (internal/sealedfile: format "gwf-semisup-model", version, SHA-256 of
// the payload) whose payload holds the head's configuration and weights, the epoch history,
// the Adam state (for an exact resume) and the GWF model as a complete GWF model file.
// Wall-clock seconds are not written, so identical runs give identical files.
type filePayload struct {
	Config    Config          `json:"config"`
	HeadW     [][][]float64   `json:"head_w"`
	HeadB     [][]float64     `json:"head_b"`
	History   []fileEpoch     `json:"history"`
	Optimizer *OptimizerState `json:"optimizer,omitempty"`
	// HeadTrainedAt: see Model.HeadTrainedAt (absent in files of models never refitted).
	HeadTrainedAt int             `json:"head_trained_at,omitempty"`
	GWF           json.RawMessage `json:"gwf"`
	// Encoder holds the graph encoder's weights (Config.Encoder gcn or gin).
	Encoder *gnnPayload `json:"encoder,omitempty"`
	// Partial is the position of an epoch stopped mid-way (the GWF model's Partial, kept here
	// beside the joint optimizer state that resumes it).
	Partial *filePartial `json:"partial,omitempty"`
	// Classes: see Model.Classes (absent in files written before it existed).
	Classes []int `json:"classes,omitempty"`
	// ClassNames: see Model.ClassNames.
	ClassNames []string `json:"class_names,omitempty"`
}

// filePartial is training.PartialEpoch without its wall-clock seconds.
type filePartial struct {
	Epoch    int       `json:"epoch"`
	Done     int       `json:"done"`
	LossSum  float64   `json:"loss_sum"`
	TermSums []float64 `json:"term_sums,omitempty"`
}

// fileEpoch is EpochStats without its wall-clock seconds.
type fileEpoch struct {
	Epoch int     `json:"epoch"`
	GWF   float64 `json:"gwf_loss"`
	CE    float64 `json:"cross_entropy"`
}

// ErrCorrupt is wrapped by errors about unreadable, truncated or tampered files.
var ErrCorrupt = errors.New("corrupt semi-supervised model file")

// Encode writes the model file. The payload is written in pieces (encodePayload), twice —
// once to checksum it, once to write it — so that the model of a large corpus is not held in
// memory again as a file.
func (m *Model) Encode(w io.Writer) error {
	if err := sealedfile.SealStream(w, "gwf-semisup-model", FormatVersion, m.encodePayload); err != nil {
		return fmt.Errorf("write semi-supervised model: %w", err)
	}
	return nil
}

// Save writes the model atomically (internal/atomicfile: temporary file, fsync, rename; a
// symbolic link is followed, a FIFO or device written in place).
func (m *Model) Save(path string) error { return atomicfile.Write(path, m.Encode) }

// Load reads a model file written by Save. A path to no gwf model file at all (a directory,
// an empty file) is told so (sealedfile.ErrNotModelFile), not called corrupt.
func Load(path string) (*Model, error) {
	return sealedfile.Load(path, Decode)
}

// Decode reads and checks a model file: every shape before anything is allocated, and the
// optimizer state against the history, so that a resume continues exactly where it stopped.
func Decode(r io.Reader) (*Model, error) {
	payload, err := sealedfile.Open(r, "gwf-semisup-model", FormatVersion, "semi-supervised gwf model", training.MaxFileBytes)
	if errors.Is(err, sealedfile.ErrCorrupt) {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err) // a file of another kind: sealedfile.FormatError
	} else if err != nil {
		return nil, err
	}
	var p filePayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	if err := p.Config.Validate(); err != nil {
		return nil, bad("%v", err)
	}
	if err := p.Config.checkBounds(); err != nil {
		return nil, bad("%v", err)
	}
	gwf, err := training.Decode(bytes.NewReader(p.GWF))
	if err != nil {
		return nil, bad("gwf model: %v", err)
	}
	if err := p.checkHeadShapes(gwf.K()); err != nil {
		return nil, bad("%v", err)
	}
	head := &MLP{Activation: p.Config.Activation}
	for l, rows := range p.HeadW {
		w := mat.NewDense(len(rows), len(rows[0]), nil)
		for i, row := range rows {
			for j, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, bad("head layer %d is not finite", l)
				}
				w.Set(i, j, v)
			}
		}
		if !finite(p.HeadB[l]) {
			return nil, bad("head layer %d's bias is not finite", l)
		}
		head.W = append(head.W, w)
		head.B = append(head.B, p.HeadB[l])
	}
	if p.HeadTrainedAt < 0 || p.HeadTrainedAt > len(p.History) {
		return nil, bad("head trained after epoch %d of %d", p.HeadTrainedAt, len(p.History))
	}
	if p.Classes != nil && len(p.Classes) != head.Classes() {
		return nil, bad("%d class labels for a head of %d classes", len(p.Classes), head.Classes())
	}
	if p.ClassNames != nil && len(p.ClassNames) != head.Classes() {
		return nil, bad("%d class names for a head of %d classes", len(p.ClassNames), head.Classes())
	}
	m := &Model{GWF: gwf, Head: head, Config: p.Config, Optimizer: p.Optimizer, HeadTrainedAt: p.HeadTrainedAt, ClassLabels: ClassLabels{Classes: p.Classes, ClassNames: p.ClassNames}}
	if m.Encoder, err = p.Encoder.gnn(p.Config, InputDim(gwf.Dim()), gwf.K()); err != nil {
		return nil, bad("%v", err)
	}
	for i, h := range p.History {
		if h.Epoch != i+1 || !finite([]float64{h.GWF, h.CE}) {
			return nil, bad("history entry %d is epoch %d with losses %v and %v", i, h.Epoch, h.GWF, h.CE)
		}
		m.History = append(m.History, EpochStats{Epoch: h.Epoch, GWF: h.GWF, CE: h.CE})
	}
	if len(gwf.History) != len(p.History) {
		return nil, bad("%d joint epochs, %d in the gwf model", len(p.History), len(gwf.History))
	}
	if len(p.History) > gwf.Config.Epochs {
		return nil, bad("%d epochs done of %d", len(p.History), gwf.Config.Epochs)
	}
	// Fit restores the joint state only when it follows the last epoch, and starts afresh
	// without it: anything else would resume into another model than an uninterrupted run.
	done := 0
	if q := p.Partial; q != nil {
		rows, _ := gwf.Z.Dims()
		if q.Epoch != len(p.History)+1 || q.Epoch > gwf.Config.Epochs || q.Done <= 0 || q.Done >= rows || !(q.LossSum >= 0) || math.IsInf(q.LossSum, 0) || !finite(q.TermSums) {
			return nil, bad("partial epoch %d with %d of %d graphs done (loss sum %v, terms %v) after %d of %d epochs", q.Epoch, q.Done, rows, q.LossSum, q.TermSums, len(p.History), gwf.Config.Epochs)
		}
		gwf.Partial = &training.PartialEpoch{Epoch: q.Epoch, Done: q.Done, LossSum: q.LossSum, TermSums: q.TermSums}
		done = q.Done
	}
	switch st := m.Optimizer; {
	case st == nil && (len(m.History) > 0 || done > 0):
		return nil, bad("%d epochs and %d graphs trained but no optimizer state to resume from", len(m.History), done)
	case st != nil && (st.Epoch != len(m.History) || st.Done != done):
		return nil, bad("optimizer state after epoch %d and %d graphs, the model stopped after epoch %d and %d graphs", st.Epoch, st.Done, len(m.History), done)
	}
	if err := m.checkOptimizer(); err != nil {
		return nil, bad("%v", err)
	}
	return m, nil
}

// checkHeadShapes checks the head's declared layer shapes, before any is allocated: layer l
// maps the previous layer's width (K for the first) to Hidden[l] units, the last to at least
// two classes, each weight matrix rectangular with a bias of its width.
func (p *filePayload) checkHeadShapes(k int) error {
	if len(p.HeadW) != len(p.Config.Hidden)+1 || len(p.HeadB) != len(p.HeadW) {
		return fmt.Errorf("head: %d weight and %d bias layers for %d hidden layers", len(p.HeadW), len(p.HeadB), len(p.Config.Hidden))
	}
	in := k
	for l, rows := range p.HeadW {
		if len(rows) != in || len(rows[0]) == 0 || len(p.HeadB[l]) != len(rows[0]) || (l < len(p.Config.Hidden) && len(rows[0]) != p.Config.Hidden[l]) {
			return fmt.Errorf("head layer %d has the wrong shape", l)
		}
		for i, row := range rows {
			if len(row) != len(rows[0]) {
				return fmt.Errorf("head layer %d: row %d has %d entries, row 0 has %d", l, i, len(row), len(rows[0]))
			}
		}
		in = len(rows[0])
	}
	if in < 2 {
		return fmt.Errorf("head has %d classes", in)
	}
	return nil
}

// checkBounds refuses a head larger than MaxHiddenLayers layers of MaxHiddenUnits units.
func (c Config) checkBounds() error {
	if len(c.Hidden) > MaxHiddenLayers {
		return fmt.Errorf("semisup: %d hidden layers, more than %d", len(c.Hidden), MaxHiddenLayers)
	}
	for _, h := range c.Hidden {
		if h > MaxHiddenUnits {
			return fmt.Errorf("semisup: hidden layer of %d units, more than %d", h, MaxHiddenUnits)
		}
	}
	return nil
}
