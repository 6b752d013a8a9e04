package semisup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/internal/sealedfile"
	"github.com/gwf-graphs/gwf/training"
)

// TemplateFormat names the template model's file (internal/sealedfile: format, version,
// SHA-256 of the payload).
const TemplateFormat = "gwf-templates-model"

// templateFileVersion is the version of the template model's file.
const templateFileVersion = 1

// templatePayload is the file's payload: settings, weights and history (without wall-clock
// seconds, so identical runs give identical files).
type templatePayload struct {
	Config    TemplateConfig          `json:"config"`
	Inputs    int                     `json:"inputs"`
	WLVocab   [][]uint64              `json:"wl_vocabulary,omitempty"`
	EncoderW  [][][]float64           `json:"encoder_w,omitempty"`
	EncoderB  [][]float64             `json:"encoder_b,omitempty"`
	Templates []templateGraphFile     `json:"templates"`
	LogWeight *float64                `json:"log_feature_weight,omitempty"`
	Shift     []float64               `json:"shift"`
	Scale     []float64               `json:"scale"`
	StatShift []float64               `json:"statistics_shift,omitempty"`
	StatScale []float64               `json:"statistics_scale,omitempty"`
	HeadW     [][][]float64           `json:"head_w"`
	HeadB     [][]float64             `json:"head_b"`
	History   []templateEpochFile     `json:"history"`
	BestEpoch int                     `json:"best_epoch"`
	Features  *graphs.FeatureEncoding `json:"features,omitempty"`
	Classes   []int                   `json:"classes,omitempty"`
	Names     []string                `json:"class_names,omitempty"`
}

type templateGraphFile struct {
	V  [][]float64 `json:"v"`
	H  [][]float64 `json:"h,omitempty"`
	Mu []float64   `json:"mu"`
	// Logits are learned node weights (Mu is then their softmax, for readers).
	Logits []float64 `json:"logits,omitempty"`
}

type templateEpochFile struct {
	Epoch              int      `json:"epoch"`
	CrossEntropy       float64  `json:"cross_entropy"`
	ValidationAccuracy *float64 `json:"validation_accuracy,omitempty"`
}

// Encode writes the model file.
func (m *TemplateModel) Encode(w io.Writer) error {
	payload, err := json.Marshal(m.payload())
	if err != nil {
		return fmt.Errorf("write template model: %w", err)
	}
	file, err := sealedfile.Seal(TemplateFormat, templateFileVersion, payload)
	if err != nil {
		return fmt.Errorf("write template model: %w", err)
	}
	_, err = w.Write(file)
	return err
}

// payload is what the model's file holds.
func (m *TemplateModel) payload() templatePayload {
	p := templatePayload{Config: m.Config, Inputs: m.Inputs, WLVocab: m.WLVocabulary, Shift: m.Shift, Scale: m.Scale, StatShift: m.StatShift, StatScale: m.StatScale, BestEpoch: m.BestEpoch,
		Features: m.Features, Classes: m.Classes, Names: m.ClassNames}
	if m.logWeight != nil {
		p.LogWeight = &m.logWeight[0]
	}
	if m.Encoder != nil {
		for l, w := range m.Encoder.W {
			p.EncoderW, p.EncoderB = append(p.EncoderW, rows(w)), append(p.EncoderB, m.Encoder.B[l])
		}
	}
	for _, t := range m.Templates {
		f := templateGraphFile{V: rows(t.V), Mu: t.Weights(), Logits: t.Logits}
		if t.H != nil {
			f.H = rows(t.H)
		}
		p.Templates = append(p.Templates, f)
	}
	for l, w := range m.Head.W {
		p.HeadW, p.HeadB = append(p.HeadW, rows(w)), append(p.HeadB, m.Head.B[l])
	}
	for _, e := range m.History {
		f := templateEpochFile{Epoch: e.Epoch, CrossEntropy: e.CrossEntropy}
		if !math.IsNaN(e.ValidationAccuracy) {
			f.ValidationAccuracy = &e.ValidationAccuracy
		}
		p.History = append(p.History, f)
	}
	return p
}

func rows(m *mat.Dense) [][]float64 {
	r, _ := m.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = append([]float64(nil), m.RawRowView(i)...)
	}
	return out
}

// Save writes the model atomically (internal/atomicfile).
func (m *TemplateModel) Save(path string) error { return atomicfile.Write(path, m.Encode) }

// LoadTemplates reads a model file written by Save.
func LoadTemplates(path string) (*TemplateModel, error) {
	return sealedfile.Load(path, DecodeTemplates)
}

// ErrCorruptTemplates is wrapped by errors about unreadable, truncated, tampered or
// inconsistent template model files.
var ErrCorruptTemplates = errors.New("corrupt template model file")

// DecodeTemplates reads and checks a template model file: settings, every shape against the
// others and every value finite.
func DecodeTemplates(r io.Reader) (*TemplateModel, error) {
	raw, err := sealedfile.Open(r, TemplateFormat, templateFileVersion, "gwf template model", training.MaxFileBytes)
	if errors.Is(err, sealedfile.ErrCorrupt) {
		return nil, fmt.Errorf("%w: %w", ErrCorruptTemplates, err)
	} else if err != nil {
		return nil, err
	}
	var p templatePayload
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorruptTemplates, err)
	}
	m, err := p.model()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorruptTemplates, err)
	}
	return m, nil
}

// model rebuilds the model, checking what the file says against itself.
func (p *templatePayload) model() (*TemplateModel, error) {
	if err := p.Config.Validate(); err != nil {
		return nil, err
	}
	if p.Config.Encoder == EncoderAuto {
		return nil, fmt.Errorf("encoder auto: a trained model has encoder none or gin")
	}
	if p.Inputs < 1 || p.Inputs > maxWidth {
		return nil, fmt.Errorf("%d input features", p.Inputs)
	}
	m := &TemplateModel{Config: p.Config, Inputs: p.Inputs, Shift: p.Shift, Scale: p.Scale, BestEpoch: p.BestEpoch, Features: p.Features}
	m.Classes, m.ClassNames = p.Classes, p.Names
	if (p.LogWeight != nil) != (p.Config.LearnWeight && p.Config.FeatureWeight > 0) {
		return nil, fmt.Errorf("a learned feature weight present %v with learn_weight %v", p.LogWeight != nil, p.Config.LearnWeight)
	}
	if p.LogWeight != nil {
		if w := math.Exp(*p.LogWeight); math.IsNaN(w) || math.IsInf(w, 0) || w == 0 {
			return nil, fmt.Errorf("a feature weight of exp(%v)", *p.LogWeight)
		}
		m.logWeight = []float64{*p.LogWeight}
	}
	if p.Config.WLLabels > 0 {
		if err := validVocabulary(p.WLVocab, p.Config.WLLabels); err != nil {
			return nil, err
		}
		m.WLVocabulary = p.WLVocab
	} else if p.WLVocab != nil {
		return nil, fmt.Errorf("a Weisfeiler-Lehman vocabulary without wl_labels")
	}
	features := m.readWidth()
	if len(p.EncoderW) > 0 {
		if len(p.EncoderW) != len(p.EncoderB) {
			return nil, fmt.Errorf("%d encoder weights and %d biases", len(p.EncoderW), len(p.EncoderB))
		}
		m.Encoder = &GNN{Kind: EncoderGIN}
		in := features
		for l, w := range p.EncoderW {
			d, err := matrixOf(w, in, -1, fmt.Sprintf("encoder layer %d", l+1))
			if err != nil {
				return nil, err
			}
			_, out := d.Dims()
			if len(p.EncoderB[l]) != out || !finite(p.EncoderB[l]) {
				return nil, fmt.Errorf("encoder layer %d: %d biases for %d units, or not finite", l+1, len(p.EncoderB[l]), out)
			}
			m.Encoder.W, m.Encoder.B = append(m.Encoder.W, d), append(m.Encoder.B, p.EncoderB[l])
			in, features = out, features+out
		}
	}
	K := len(p.Templates)
	if K < 1 || K > maxTemplates {
		return nil, fmt.Errorf("%d templates (1 to %d)", K, maxTemplates)
	}
	for k, t := range p.Templates {
		n := len(t.Mu)
		if n < 1 || n > maxTemplateNodes {
			return nil, fmt.Errorf("template %d: %d nodes (1 to %d)", k, n, maxTemplateNodes)
		}
		v, err := matrixOf(t.V, n, n, fmt.Sprintf("template %d", k))
		if err != nil {
			return nil, err
		}
		sum := 0.0
		for _, x := range t.Mu {
			if !(x > 0) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("template %d: node weight %v", k, x)
			}
			sum += x
		}
		if math.Abs(sum-1) > 1e-9 {
			return nil, fmt.Errorf("template %d: node weights sum to %v", k, sum)
		}
		tg := TemplateGraph{V: v, Mu: t.Mu}
		if (t.Logits != nil) != p.Config.LearnNodeWeights {
			return nil, fmt.Errorf("template %d: node-weight logits present %v with learned node weights %v", k, t.Logits != nil, p.Config.LearnNodeWeights)
		}
		if t.Logits != nil {
			if len(t.Logits) != n || !finite(t.Logits) {
				return nil, fmt.Errorf("template %d: %d node-weight logits for %d nodes, or not finite", k, len(t.Logits), n)
			}
			tg.Logits = t.Logits
		}
		if (t.H != nil) != (p.Config.FeatureWeight > 0) {
			return nil, fmt.Errorf("template %d: features present %v with feature weight %v", k, t.H != nil, p.Config.FeatureWeight)
		}
		if t.H != nil {
			if tg.H, err = matrixOf(t.H, n, features, fmt.Sprintf("template %d's features", k)); err != nil {
				return nil, err
			}
		}
		m.Templates = append(m.Templates, tg)
	}
	if len(p.Shift) != K || len(p.Scale) != K || !finite(p.Shift) || !finite(p.Scale) {
		return nil, fmt.Errorf("%d shifts and %d scales for %d templates, or not finite", len(p.Shift), len(p.Scale), K)
	}
	for _, s := range p.Scale {
		if !(s > 0) {
			return nil, fmt.Errorf("a scale of %v", s)
		}
	}
	S := 0
	if p.Config.GraphStatistics {
		S = graphs.NumStatistics
	}
	if len(p.StatShift) != S || len(p.StatScale) != S || !finite(p.StatShift) || !finite(p.StatScale) {
		return nil, fmt.Errorf("%d statistics' shifts and %d scales, want %d, or not finite", len(p.StatShift), len(p.StatScale), S)
	}
	for _, s := range p.StatScale {
		if !(s > 0) {
			return nil, fmt.Errorf("a statistic's scale of %v", s)
		}
	}
	m.StatShift, m.StatScale = p.StatShift, p.StatScale
	if len(p.HeadW) == 0 || len(p.HeadW) != len(p.HeadB) || len(p.HeadW) > MaxHiddenLayers {
		return nil, fmt.Errorf("a head of %d weights and %d biases", len(p.HeadW), len(p.HeadB))
	}
	m.Head = &MLP{Activation: ReLU}
	in := K + S
	for l, w := range p.HeadW {
		d, err := matrixOf(w, in, -1, fmt.Sprintf("head layer %d", l+1))
		if err != nil {
			return nil, err
		}
		_, out := d.Dims()
		if len(p.HeadB[l]) != out || !finite(p.HeadB[l]) {
			return nil, fmt.Errorf("head layer %d: %d biases for %d units, or not finite", l+1, len(p.HeadB[l]), out)
		}
		m.Head.W, m.Head.B = append(m.Head.W, d), append(m.Head.B, p.HeadB[l])
		in = out
	}
	if in < 2 {
		return nil, fmt.Errorf("a head of %d classes", in)
	}
	if (m.Classes != nil && len(m.Classes) != in) || (m.ClassNames != nil && len(m.ClassNames) != in) {
		return nil, fmt.Errorf("%d class labels and %d names for %d classes", len(m.Classes), len(m.ClassNames), in)
	}
	if p.BestEpoch < 0 || p.BestEpoch > len(p.History) {
		return nil, fmt.Errorf("best epoch %d of %d", p.BestEpoch, len(p.History))
	}
	for i, e := range p.History {
		st := TemplateEpoch{Epoch: e.Epoch, CrossEntropy: e.CrossEntropy, ValidationAccuracy: math.NaN()}
		if e.ValidationAccuracy != nil {
			st.ValidationAccuracy = *e.ValidationAccuracy
		}
		if e.Epoch != i+1 {
			return nil, fmt.Errorf("history entry %d is epoch %d", i+1, e.Epoch)
		}
		m.History = append(m.History, st)
	}
	return m, nil
}

// matrixOf makes a rows×cols matrix (cols < 0: any, the same for every row) of finite values.
func matrixOf(v [][]float64, rows, cols int, what string) (*mat.Dense, error) {
	if len(v) != rows || rows == 0 {
		return nil, fmt.Errorf("%s: %d rows, want %d", what, len(v), rows)
	}
	if cols < 0 {
		cols = len(v[0])
	}
	if cols < 1 || cols > maxWidth+maxTemplateNodes {
		return nil, fmt.Errorf("%s: %d columns", what, cols)
	}
	d := mat.NewDense(rows, cols, nil)
	for i, r := range v {
		if len(r) != cols || !finite(r) {
			return nil, fmt.Errorf("%s: row %d has %d entries (want %d) or a non-finite one", what, i, len(r), cols)
		}
		d.SetRow(i, r)
	}
	return d, nil
}
