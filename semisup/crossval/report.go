package crossval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gwf-graphs/gwf/internal/jsonread"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/experiment"
)

// The classifiers a report can be of.
const (
	MethodSVM = "fgw-svm" // an SVM on a kernel of pairwise FGW discrepancies
	MethodGWF = "gwf"     // the paper's semi-supervised GWF model
)

// MaxReportBytes bounds a report Read accepts: one of 10 folds is a few hundred kilobytes (its
// held-out predictions and validation curves).
const MaxReportBytes = 256 << 20

// MeanStd is a metric's mean and standard deviation over folds.
type MeanStd = experiment.MeanStd

// GWFReport is what `gwf semisup` reports: a cross-validation (Folds) or one
// split of labelled and unlabelled graphs (Labeled, History).
type GWFReport struct {
	Dataset  string          `json:"dataset"`
	Graphs   int             `json:"graphs"`
	Classes  int             `json:"classes"`
	Protocol string          `json:"protocol"`
	Semisup  semisup.Config  `json:"semisup"`
	Config   training.Config `json:"config"`
	Folds    []FoldResult    `json:"folds,omitempty"`
	Accuracy MeanStd         `json:"accuracy"`
	Labeled  int             `json:"labeled,omitempty"`
	// Unscored are the graphs the data give no label (Fraction.Given): predicted (Predicted),
	// not scored; Accuracy is then that on the labelled graphs trained on.
	Unscored  int                  `json:"unscored,omitempty"`
	Predicted []Prediction         `json:"predicted,omitempty"`
	History   []semisup.EpochStats `json:"history,omitempty"`
	// Selection and Baselines: the nested protocol's candidates, and the baselines' summary.
	Selection *Selection `json:"selection,omitempty"`
	Baselines *Summary   `json:"baselines,omitempty"`
	// Confusion counts the held-out graphs by class and prediction (HeldOut, Confusion).
	Confusion *ConfusionMatrix `json:"confusion,omitempty"`
	// Version is the build of gwf that made the report (buildinfo.Version).
	Version string `json:"gwf_version,omitempty"`
}

// SVMReport is what `gwf classify` reports: a cross-validation (Folds) or one
// split (Labeled, Choice).
type SVMReport struct {
	Dataset  string              `json:"dataset"`
	Graphs   int                 `json:"graphs"`
	Classes  int                 `json:"classes"`
	Method   string              `json:"method"`
	Protocol string              `json:"protocol"`
	Features string              `json:"features"` // the node features read (DescribeFeatures)
	Settings fgwsvm.Settings     `json:"settings"`
	Cost     fgwsvm.Stats        `json:"cost"`
	Folds    []fgwsvm.FoldResult `json:"folds,omitempty"`
	// Weighed are the folds where the template model (Templates) was weighed against the
	// FGW-SVM: where set, their accuracies and predictions are the report's.
	Weighed   []WeighedFold           `json:"weighed,omitempty"`
	Templates *semisup.TemplateConfig `json:"templates,omitempty"`
	Accuracy  MeanStd                 `json:"accuracy"`
	Labeled   int                     `json:"labeled,omitempty"`
	// Unscored are the graphs the data give no label (Fraction.Given): predicted (Predicted),
	// not scored; Accuracy is then the chosen settings' cross-validated accuracy on the others.
	Unscored  int            `json:"unscored,omitempty"`
	Predicted []Prediction   `json:"predicted,omitempty"`
	Choice    *fgwsvm.Choice `json:"choice,omitempty"`
	// Voters are all the choices that vote where there are more than one (Choice is the
	// first).
	Voters fgwsvm.Vote `json:"voters,omitempty"`
	// Confusion counts the held-out graphs by class and prediction (cross-validation only).
	Confusion *ConfusionMatrix `json:"confusion,omitempty"`
	// Version is the build of gwf that made the report (buildinfo.Version).
	Version string `json:"gwf_version,omitempty"`
}

// FoldAccuracies are the held-out accuracies of the report's folds.
func (r *GWFReport) FoldAccuracies() []float64 {
	xs := make([]float64, len(r.Folds))
	for i, f := range r.Folds {
		xs[i] = f.Accuracy
	}
	return xs
}

// SetChosen records what one classifier chose: Choice, the best, and Voters where more than one
// voted.
func (r *SVMReport) SetChosen(v fgwsvm.Vote) {
	r.Choice, r.Voters = &v[0], nil
	if len(v) > 1 {
		r.Voters = v
	}
}

// Chosen is what SetChosen recorded (nil before).
func (r *SVMReport) Chosen() fgwsvm.Vote {
	switch {
	case r.Voters != nil:
		return r.Voters
	case r.Choice != nil:
		return fgwsvm.Vote{*r.Choice}
	}
	return nil
}

// weighedFolds reports whether the template model was weighed in each fold of a
// cross-validation, so that the folds' accuracies and predictions are those of Weighed.
func (r *SVMReport) weighedFolds() bool { return len(r.Folds) > 0 && len(r.Weighed) == len(r.Folds) }

// FoldAccuracies are the held-out accuracies of the report's folds (the weighed folds' where
// the template model was weighed).
func (r *SVMReport) FoldAccuracies() []float64 {
	if r.weighedFolds() {
		xs := make([]float64, len(r.Weighed))
		for i, f := range r.Weighed {
			xs[i] = f.Accuracy
		}
		return xs
	}
	xs := make([]float64, len(r.Folds))
	for i, f := range r.Folds {
		xs[i] = f.Accuracy
	}
	return xs
}

// Report is a report read back: exactly one of GWF, SVM, Templates and LambdaSVM is set, as
// Method says.
type Report struct {
	Method    string
	GWF       *GWFReport
	SVM       *SVMReport
	Templates *TemplatesReport
	LambdaSVM *LambdaSVMReport
}

// Dataset is the name of the data the report is of.
func (r Report) Dataset() string {
	switch {
	case r.GWF != nil:
		return r.GWF.Dataset
	case r.SVM != nil:
		return r.SVM.Dataset
	case r.Templates != nil:
		return r.Templates.Dataset
	case r.LambdaSVM != nil:
		return r.LambdaSVM.Dataset
	}
	return ""
}

// ErrNotCV is wrapped by Read's error for a report without folds (one split, not a
// cross-validation) or with an accuracy outside [0, 1].
var ErrNotCV = errors.New("not the report of a cross-validation")

// ReadFile reads the cross-validation report at path (see Read).
func ReadFile(path string) (Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return Report{}, err
	}
	defer f.Close()
	rep, err := Read(f)
	if err != nil {
		return Report{}, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// Read reads a cross-validation report of either classifier, at most MaxReportBytes. It must
// have folds, each of accuracy in [0, 1] (ErrNotCV otherwise).
func Read(r io.Reader) (Report, error) {
	b, err := jsonread.Object(r, MaxReportBytes)
	if err != nil {
		return Report{}, err
	}
	var head struct {
		Method string `json:"method"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return Report{}, fmt.Errorf("not a report of gwf classify --json: %w", err)
	}
	out := Report{Method: head.Method}
	var accs []float64
	switch head.Method {
	case "", MethodGWF: // reports written before fgw-svm name no method
		out.Method, out.GWF = MethodGWF, new(GWFReport)
		err = json.Unmarshal(b, out.GWF)
		accs = out.GWF.FoldAccuracies()
	case MethodSVM:
		out.SVM = new(SVMReport)
		err = json.Unmarshal(b, out.SVM)
		accs = out.SVM.FoldAccuracies()
	case MethodTemplates:
		out.Templates = new(TemplatesReport)
		err = json.Unmarshal(b, out.Templates)
		accs = out.Templates.FoldAccuracies()
	case MethodLambdaSVM:
		out.LambdaSVM = new(LambdaSVMReport)
		err = json.Unmarshal(b, out.LambdaSVM)
		accs = out.LambdaSVM.FoldAccuracies()
	default:
		return Report{}, fmt.Errorf("a report of an unknown classifier %q (want %s, %s, %s or %s)", head.Method, MethodGWF, MethodSVM, MethodTemplates, MethodLambdaSVM)
	}
	if err != nil {
		return Report{}, fmt.Errorf("not a report of gwf classify --json: %w", err)
	}
	if len(accs) == 0 {
		return Report{}, fmt.Errorf("%w: no folds (gwf classify --folds, --json)", ErrNotCV)
	}
	for i, a := range accs {
		if !(a >= 0 && a <= 1) {
			return Report{}, fmt.Errorf("%w: fold %d: accuracy %v is not in [0, 1]", ErrNotCV, i+1, a)
		}
	}
	return out, nil
}

// WriteJSON writes a report (or any value) as indented JSON, the form Read reads back.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
