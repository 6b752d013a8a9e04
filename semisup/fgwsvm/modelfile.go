package fgwsvm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/internal/classlabel"
	"github.com/gwf-graphs/gwf/internal/sealedfile"
	"github.com/gwf-graphs/gwf/semisup/svm"
)

// FormatName and FormatVersion identify the classifier file (internal/sealedfile: format,
// version, SHA-256 of the payload). Version 4 may hold vector candidates (Candidate.Kind: graph
// statistics and their scales, WL subtree counts), which a reader of version 3 would take for
// FGW candidates; version 3, candidates that leave the node features out
// (Candidate.WithoutFeatures), which a reader of version 2 would not know to drop: an older
// reader refuses the file instead. Files of versions 1 to 3 are still read.
const (
	FormatName    = "gwf-fgwsvm-classifier"
	FormatVersion = 4
)

// MaxVoters bounds the voters a classifier file may hold.
const MaxVoters = 1000

// ErrCorrupt is wrapped by errors about unreadable, truncated or tampered files.
var ErrCorrupt = errors.New("corrupt fgw-svm classifier file")

type filePayload struct {
	Voters []Voter `json:"voters,omitempty"`
	// Choice and SVM are version 1's single voter.
	Choice     *Choice                `json:"choice,omitempty"`
	SVM        *svm.Model             `json:"svm,omitempty"`
	Graphs     []json.RawMessage      `json:"graphs"` // each in the JSON form of graphs.WriteJSON
	Names      []string               `json:"names"`
	Solver     solverFile             `json:"solver"`
	Classes    []int                  `json:"classes,omitempty"`
	ClassNames []string               `json:"class_names,omitempty"`
	Features   graphs.FeatureEncoding `json:"features"`
	// Landmarks are Model.Landmarks. A reader of version 4 that ignores them predicts alike:
	// a landmark voter's SVM weighs the landmarks as an SVM weighs its support graphs.
	Landmarks []int `json:"landmarks,omitempty"`
}

// Encode writes the classifier file.
func (m *Model) Encode(w io.Writer) error {
	p := filePayload{Voters: m.Voters, Solver: fileSolver(m.Solver), Classes: m.Classes,
		ClassNames: m.ClassNames, Features: m.Features, Landmarks: m.Landmarks}
	for _, g := range m.Graphs {
		var b bytes.Buffer
		if err := graphs.WriteJSON(&b, g); err != nil {
			return fmt.Errorf("write fgw-svm classifier: graph %q: %w", g.Name, err)
		}
		p.Graphs, p.Names = append(p.Graphs, b.Bytes()), append(p.Names, g.Name)
	}
	payload, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("write fgw-svm classifier: %w", err)
	}
	sealed, err := sealedfile.Seal(FormatName, FormatVersion, payload)
	if err != nil {
		return fmt.Errorf("write fgw-svm classifier: %w", err)
	}
	_, err = w.Write(sealed)
	return err
}

// Save writes the classifier atomically.
func (m *Model) Save(path string) error { return atomicfile.Write(path, m.Encode) }

// Load reads a classifier file written by Save. A path to no gwf model file at all (a
// directory, an empty file) is told so (sealedfile.ErrNotModelFile), not called corrupt.
func Load(path string) (*Model, error) {
	return sealedfile.Load(path, Decode)
}

// IsClassifierFile reports whether the start of a file (its first bytes) names this format,
// so that a command can tell the kinds of model file apart before decoding one.
func IsClassifierFile(head []byte) bool {
	return bytes.Contains(head, []byte(`"`+FormatName+`"`))
}

// Decode reads and checks a classifier file: the SVM's shapes and values against its graphs,
// each graph under the default size limits.
func Decode(r io.Reader) (*Model, error) {
	file, err := io.ReadAll(io.LimitReader(r, sealedfile.MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	payload, err := sealedfile.Open(bytes.NewReader(file), FormatName, FormatVersion, "fgw-svm classifier", sealedfile.MaxFileBytes)
	for v := FormatVersion - 1; v >= 1 && errors.Is(err, sealedfile.ErrVersion); v-- {
		if old, errOld := sealedfile.Open(bytes.NewReader(file), FormatName, v, "fgw-svm classifier", sealedfile.MaxFileBytes); errOld == nil {
			payload, err = old, nil
		}
	}
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
	if len(p.Graphs) == 0 || len(p.Graphs) != len(p.Names) {
		return nil, bad("%d graphs and %d names", len(p.Graphs), len(p.Names))
	}
	if err := checkSolver(p.Solver.options()); err != nil {
		return nil, bad("%v", err)
	}
	if err := p.Features.Validate(); err != nil {
		return nil, bad("%v", err)
	}
	if p.Choice != nil && len(p.Voters) == 0 {
		p.Voters = []Voter{{Choice: *p.Choice, SVM: p.SVM}}
	}
	if len(p.Voters) == 0 || len(p.Voters) > MaxVoters {
		return nil, bad("%d voters, want 1..%d", len(p.Voters), MaxVoters)
	}
	for k, v := range p.Voters {
		if err := checkChoice(v.Choice); err != nil {
			return nil, bad("voter %d: %v", k+1, err)
		}
		if err := checkScales(v); err != nil {
			return nil, bad("voter %d: %v", k+1, err)
		}
		if err := checkSVM(v.SVM, len(p.Graphs)); err != nil {
			return nil, bad("voter %d: %v", k+1, err)
		}
		if v.SVM.Classes != p.Voters[0].SVM.Classes {
			return nil, bad("voter %d tells %d classes apart, voter 1 %d", k+1, v.SVM.Classes, p.Voters[0].SVM.Classes)
		}
	}
	if err := checkLandmarks(p.Landmarks, p.Voters, len(p.Graphs)); err != nil {
		return nil, bad("%v", err)
	}
	if c := p.Voters[0].SVM.Classes; c < len(p.Classes) || c < len(p.ClassNames) {
		return nil, bad("%d classes with %d labels and %d names", c, len(p.Classes), len(p.ClassNames))
	}
	m := &Model{Voters: p.Voters, Solver: p.Solver.options(), Features: p.Features, Landmarks: p.Landmarks,
		ClassLabels: classlabel.ClassLabels{Classes: p.Classes, ClassNames: p.ClassNames}}
	for i, raw := range p.Graphs {
		g, err := graphs.ReadJSON(bytes.NewReader(raw), p.Names[i], graphs.DefaultLimits())
		if err != nil {
			return nil, bad("%v", err)
		}
		if i > 0 && dim(g) != dim(m.Graphs[0]) {
			return nil, bad("graph %q has %d node features, graph %q %d", g.Name, dim(g), m.Graphs[0].Name, dim(m.Graphs[0]))
		}
		m.Graphs = append(m.Graphs, g)
	}
	return m, nil
}

func checkChoice(c Choice) error {
	for _, v := range []float64{c.Gamma, c.Median, c.C} {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("choice: γ, median and C must be positive and finite, got %v", v)
		}
	}
	if err := c.Candidate.check(); err != nil {
		return fmt.Errorf("choice: %w", err)
	}
	return nil
}

// checkScales refuses scales where the candidate takes none, and a statistics candidate's
// scales that are not NumStatistics positive finite values.
func checkScales(v Voter) error {
	if v.Choice.Candidate.Kind != KindStatistics {
		if len(v.Scales) > 0 {
			return fmt.Errorf("%d statistics scales for %s", len(v.Scales), v.Choice.Candidate)
		}
		return nil
	}
	if len(v.Scales) != graphs.NumStatistics {
		return fmt.Errorf("%d statistics scales, want %d", len(v.Scales), graphs.NumStatistics)
	}
	for _, s := range v.Scales {
		if !(s > 0) || math.IsInf(s, 0) {
			return fmt.Errorf("statistics scale %v", s)
		}
	}
	return nil
}

func checkSVM(m *svm.Model, n int) error {
	if m == nil {
		return errors.New("no svm")
	}
	if m.Classes < 2 || m.Classes > n*n+2 {
		return fmt.Errorf("svm: %d classes", m.Classes)
	}
	if len(m.Machines) == 0 || len(m.Machines) > m.Classes*(m.Classes-1)/2 {
		return fmt.Errorf("svm: %d machines for %d classes", len(m.Machines), m.Classes)
	}
	for k, mc := range m.Machines {
		if mc.A < 0 || mc.B <= mc.A || mc.B >= m.Classes {
			return fmt.Errorf("svm: machine %d separates classes %d and %d", k, mc.A, mc.B)
		}
		if len(mc.Support) != len(mc.Coef) {
			return fmt.Errorf("svm: machine %d has %d support indices and %d coefficients", k, len(mc.Support), len(mc.Coef))
		}
		if math.IsNaN(mc.Bias) || math.IsInf(mc.Bias, 0) {
			return fmt.Errorf("svm: machine %d bias %v", k, mc.Bias)
		}
		for a, i := range mc.Support {
			if i < 0 || i >= n {
				return fmt.Errorf("svm: machine %d support index %d out of %d graphs", k, i, n)
			}
			if v := mc.Coef[a]; math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("svm: machine %d coefficient %v", k, v)
			}
		}
	}
	return nil
}
