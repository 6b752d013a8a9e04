package crossval

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
	"github.com/gwf-graphs/gwf/training"
)

// Classifier is a classifier file of any kind: an SVM on FGW discrepancies (gwf classify), a
// semi-supervised GWF model (gwf semisup) or a template model (gwf semisup --method templates),
// as written with --labeled-fraction 1 --output.
type Classifier struct {
	SVM       *fgwsvm.Model             // nil for a GWF or template model
	GWF       *semisup.Model            // nil for an SVM or a template model
	Templates *semisup.TemplateEnsemble // nil for an SVM or a GWF model
}

// LoadClassifier reads a classifier file of either kind, by its format name.
func LoadClassifier(path string) (*Classifier, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	f.Close()
	if fgwsvm.IsClassifierFile(head[:n]) {
		m, err := fgwsvm.Load(path)
		return &Classifier{SVM: m}, err
	}
	if semisup.IsTemplateFile(head[:n]) {
		m, err := semisup.LoadTemplateEnsemble(path)
		return &Classifier{Templates: m}, err
	}
	m, err := semisup.Load(path)
	return &Classifier{GWF: m}, err
}

// Features is how the classifier's training graphs' node features were read, so that new
// graphs are read alike (nil: a GWF model file from before encodings were kept).
func (c *Classifier) Features() *graphs.FeatureEncoding {
	if c.SVM != nil {
		return &c.SVM.Features
	}
	if c.Templates != nil {
		return c.Templates.Features
	}
	return c.GWF.GWF.Features
}

// PredictOptions say how Classifier.Predict works.
type PredictOptions struct {
	Workers int
	Observe training.Observer
	// Steps and Transform are for GWF models: the Adam steps of transform mode (0: the
	// model's epochs), and transform mode even on the model's training graphs. An SVM
	// compares graphs directly and refuses them.
	Steps     int
	Transform bool
	// Limits bound an SVM's structure matrices of the graphs (zero: graphs.DefaultLimits).
	Limits graphs.Limits
}

// Predict predicts the graphs of ds: an SVM from their discrepancies to its support graphs,
// as cross-validation computed them for held-out graphs; a GWF model from the trained
// embeddings of its training graphs, else from embeddings computed anew (semisup.Model.
// ClassProbabilities). opt.Observe is told which.
func (c *Classifier) Predict(ctx context.Context, ds *graphs.Dataset, opt PredictOptions) (*Predictions, error) {
	if c.SVM != nil {
		if opt.Steps != 0 || opt.Transform {
			return nil, fmt.Errorf("crossval: transform steps are for GWF classifiers: an fgw-svm classifier compares graphs directly")
		}
		m := c.SVM
		opt.Observe.Say(false, "comparing %d graphs with the classifier's %d support graphs (%s)", len(ds.Graphs), len(m.Graphs), m.Vote())
		pred, err := m.Predict(ctx, ds.Graphs, fgwsvm.Options{Workers: opt.Workers, Observe: opt.Observe, Limits: opt.Limits})
		if err != nil {
			return nil, err
		}
		return NewPredictions(ds, m.ClassLabels.Report(m.Voters[0].SVM.Classes), pred, nil)
	}
	if c.Templates != nil {
		return c.predictTemplates(ctx, ds, opt)
	}
	m := c.GWF
	if dim := ds.Graphs[0].Dim(); dim != m.GWF.Dim() {
		return nil, fmt.Errorf("crossval: the classifier's graphs have %d node features, these %d", m.GWF.Dim(), dim)
	}
	probs, transformed, err := m.ClassProbabilities(ctx, ds.Graphs, opt.Steps, opt.Transform, training.Options{Workers: opt.Workers, Observe: opt.Observe})
	if err != nil {
		return nil, err
	}
	switch {
	case transformed && m.Encoder != nil:
		opt.Observe.Say(false, "embedded %d graphs by the %s encoder's forward pass", len(ds.Graphs), m.Config.Encoder)
	case transformed:
		opt.Observe.Say(false, "transform mode: embedded %d graphs with the atoms fixed", len(ds.Graphs))
	default:
		opt.Observe.Say(false, "the data are the model's training data: predicted from the trained embeddings (%d graphs)", len(ds.Graphs))
	}
	return NewPredictions(ds, m.ClassLabels.Report(m.Head.Classes()), semisup.ArgMax(probs), probs)
}

// predictTemplates predicts with a template model: one forward pass, as cross-validation
// scored its held-out graphs.
func (c *Classifier) predictTemplates(ctx context.Context, ds *graphs.Dataset, opt PredictOptions) (*Predictions, error) {
	if opt.Steps != 0 || opt.Transform {
		return nil, fmt.Errorf("crossval: transform steps are for GWF classifiers: a template model embeds graphs by its forward pass")
	}
	e := c.Templates
	opt.Observe.Say(false, "comparing %d graphs with the %d templates of each of the model's %d members", len(ds.Graphs), len(e.Members[0].Templates), len(e.Members))
	probs, err := e.Probabilities(ctx, ds.Graphs, opt.Workers)
	if err != nil {
		return nil, err
	}
	return NewPredictions(ds, e.ClassLabels.Report(e.Members[0].Head.Classes()), semisup.ArgMax(probs), probs)
}
