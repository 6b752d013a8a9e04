package crossval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/buildinfo"
	"github.com/gwf-graphs/gwf/internal/meanstd"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
)

// MethodLambdaSVM names the lambda-svm classifier in reports: the paper's GWF model trained
// without labels on every graph, and an SVM on its λ trained on the labelled graphs (GDL's
// protocol, Vincent-Cuaz et al., ICML 2021).
const MethodLambdaSVM = "lambda-svm"

// LambdaSVMSpec configures the lambda-svm classifier.
type LambdaSVMSpec struct {
	// Epochs are the epochs (1-based, at most the model's) whose λ the SVM's inner
	// cross-validation chooses among, with γ and C; none: the last epoch alone.
	Epochs []int `json:"epochs,omitempty"`
	// InnerFolds is the number of folds of that cross-validation (0: 5).
	InnerFolds int `json:"inner_folds"`
	// InnerRepeats repeats that cross-validation over this many fold assignments and ranks the
	// candidates by the mean accuracy (0: DefaultInnerRepeats; at most MaxInnerRepeats; 1 is
	// GDL's protocol).
	InnerRepeats int `json:"inner_repeats,omitempty"`
	// LabelsAlone, in the labelled-fraction protocol, also fits the same model on the labelled
	// graphs alone, embeds every graph with its atoms fixed as unseen graphs are embedded
	// (training.Transform with as many steps as the epoch; the labelled graphs too, so that the
	// SVM trains and predicts on one kind of embedding) and scores the same SVM: what the
	// unlabelled graphs add.
	LabelsAlone bool `json:"labels_alone,omitempty"`
	// WLLabels, when above 0, has the GWF model read each node's categorical features with its
	// hashed Weisfeiler-Lehman labels after 1..WLLabels iterations one-hot beside them
	// (semisup.WithWLLabels; the vocabulary from every graph read, no label read).
	WLLabels int `json:"wl_labels,omitempty"`
}

// Read returns the graphs as the GWF model reads them under s: data, or with their
// Weisfeiler-Lehman labels (WLLabels).
func (s LambdaSVMSpec) Read(data []*graphs.Graph) ([]*graphs.Graph, error) {
	out, err := semisup.WithWLLabels(data, s.WLLabels)
	if err != nil {
		return nil, fmt.Errorf("crossval: %w", err)
	}
	return out, nil
}

func (s LambdaSVMSpec) innerFolds() int {
	if s.InnerFolds == 0 {
		return 5
	}
	return s.InnerFolds
}

func (s LambdaSVMSpec) innerRepeats() int {
	if s.InnerRepeats == 0 {
		return DefaultInnerRepeats
	}
	return s.InnerRepeats
}

// DefaultInnerRepeats is LambdaSVMSpec.InnerRepeats' default: with five fold assignments the
// choice among near-equal epochs was steadier than with one, and it scored more on three of
// four datasets (docs/results/labelfree.md, R9), for three to four times the SVM's selection
// time.
const DefaultInnerRepeats = 5

// MaxInnerRepeats bounds LambdaSVMSpec.InnerRepeats.
const MaxInnerRepeats = 100

// describeInner says how the SVM's inner cross-validation runs, for the report's protocol.
func (s LambdaSVMSpec) describeInner() string {
	if s.innerRepeats() == 1 {
		return fmt.Sprintf("%d-fold cross-validation", s.innerFolds())
	}
	return fmt.Sprintf("%d-fold cross-validation repeated over %d fold assignments", s.innerFolds(), s.innerRepeats())
}

// Validate checks the spec against the model's number of epochs.
func (s LambdaSVMSpec) Validate(epochs int) error {
	if s.InnerFolds != 0 && s.InnerFolds < 2 {
		return fmt.Errorf("crossval: %d inner folds: want at least 2", s.InnerFolds)
	}
	if s.WLLabels < 0 || s.WLLabels > graphs.MaxWLIterations {
		return fmt.Errorf("crossval: %d Weisfeiler-Lehman iterations: want 0 to %d", s.WLLabels, graphs.MaxWLIterations)
	}
	if s.InnerRepeats < 0 || s.InnerRepeats > MaxInnerRepeats {
		return fmt.Errorf("crossval: %d repeats of the inner folds: want 1 to %d (0: the default)", s.InnerRepeats, MaxInnerRepeats)
	}
	for _, e := range s.Epochs {
		if e < 1 || e > epochs {
			return fmt.Errorf("crossval: SVM epoch %d: want 1 to the model's %d epochs", e, epochs)
		}
	}
	return nil
}

// LambdaSVMFold is the lambda-svm classifier's result on one held-out fold (or, Fold 0, on the
// graphs a labelled fraction hid): the SVM's accuracy, the epoch, γ and C its inner
// cross-validation chose and that cross-validation's accuracy (ValidationAccuracy).
type LambdaSVMFold struct {
	Fold int `json:"fold,omitempty"`
	Test int `json:"test"`
	Baseline
	Graphs      []int `json:"graphs,omitempty"`
	Predictions []int `json:"predictions,omitempty"`
}

// LambdaSVMReport is what `gwf semisup --method lambda-svm` reports: a cross-validation
// (Folds) or one split (Split), with the model trained without labels on every graph.
type LambdaSVMReport struct {
	Dataset  string `json:"dataset"`
	Graphs   int    `json:"graphs"`
	Classes  int    `json:"classes"`
	Method   string `json:"method"`
	Protocol string `json:"protocol"`
	// FoldSeed is the seed of a cross-validation's folds (0 for one split): the GWF model's
	// seed is Config.Seed.
	FoldSeed uint64          `json:"fold_seed,omitempty"`
	Features string          `json:"features"`
	Config   training.Config `json:"config"`
	Spec     LambdaSVMSpec   `json:"svm"`
	Folds    []LambdaSVMFold `json:"folds,omitempty"`
	Split    *LambdaSVMFold  `json:"split,omitempty"`
	Accuracy MeanStd         `json:"accuracy"`
	Labeled  int             `json:"labeled,omitempty"`
	// Unscored are the graphs the data give no label (Fraction.Given): predicted, not scored.
	Unscored int `json:"unscored,omitempty"`
	// LabelsAlone is the same model fitted on the labelled graphs alone (Spec.LabelsAlone).
	LabelsAlone *LambdaSVMFold `json:"labels_alone,omitempty"`
	// FitSeconds is the time spent training the GWF model(s); Seconds the whole run's.
	FitSeconds float64          `json:"fit_seconds"`
	Seconds    float64          `json:"seconds"`
	Confusion  *ConfusionMatrix `json:"confusion,omitempty"`
	Version    string           `json:"gwf_version,omitempty"`
}

// FoldAccuracies are the folds' held-out accuracies, in fold order.
func (r *LambdaSVMReport) FoldAccuracies() []float64 {
	out := make([]float64, len(r.Folds))
	for k, f := range r.Folds {
		out[k] = f.Accuracy
	}
	return out
}

// HeldOut is every fold's held-out predictions.
func (r *LambdaSVMReport) HeldOut() []HeldOutFold {
	out := make([]HeldOutFold, len(r.Folds))
	for k, f := range r.Folds {
		out[k] = HeldOutFold{Fold: f.Fold, Graphs: f.Graphs, Predictions: f.Predictions}
	}
	return out
}

// describeLambdaFeatures says how the GWF model reads the node features under spec.
func describeLambdaFeatures(e graphs.FeatureEncoding, spec LambdaSVMSpec) string {
	s := DescribeFeatures(e)
	if spec.WLLabels > 0 {
		s += fmt.Sprintf(" --wl-labels %d", spec.WLLabels)
	}
	return s
}

func newLambdaSVMReport(ds *graphs.Dataset, classes int, gwf training.Config, spec LambdaSVMSpec) *LambdaSVMReport {
	return &LambdaSVMReport{Version: buildinfo.Version(), Dataset: ds.Name, Graphs: len(ds.Graphs), Classes: classes, Method: MethodLambdaSVM,
		Features: describeLambdaFeatures(ds.Encoding, spec), Config: gwf, Spec: spec}
}

// describeEpochs says which epochs' λ the SVM reads.
func (s LambdaSVMSpec) describeEpochs(epochs int) string {
	if len(s.Epochs) == 0 {
		return fmt.Sprintf("λ after the last of %d epochs, γ and C chosen", epochs)
	}
	return fmt.Sprintf("λ after one of epochs %v, chosen with γ and C", s.Epochs)
}

// CrossValidateLambdaSVM runs nested stratified opt.Folds-fold cross-validation (fold seed
// opt.Seed) of the lambda-svm classifier on the graphs of ds (labels: class indices in [0,
// classes)): the GWF model of gwf is trained once, without labels, on every graph (with opt.Dir,
// checkpointed there after every epoch and reused by a rerun, as the baselines' model of
// CrossValidate is), and in each fold an SVM on its λ is trained on the other folds' graphs
// (Unsupervised.SVMFoldEpochs, inner folds seeded by opt.Seed) and scored on the held-out fold.
// No label is read before a fold is scored but those of its training graphs.
func CrossValidateLambdaSVM(ctx context.Context, ds *graphs.Dataset, labels []int, classes int, gwf training.Config, spec LambdaSVMSpec, opt CVOptions) (*LambdaSVMReport, error) {
	t0 := time.Now()
	if err := spec.Validate(gwf.Epochs); err != nil {
		return nil, err
	}
	fold, err := semisup.Folds(labels, opt.Folds, opt.Seed)
	if err != nil {
		return nil, err
	}
	data, err := spec.Read(ds.Graphs)
	if err != nil {
		return nil, err
	}
	u, err := fitLabelFree(ctx, data, classes, gwf, opt)
	if err != nil {
		return nil, err
	}
	rep := newLambdaSVMReport(ds, classes, gwf, spec)
	rep.FitSeconds, rep.FoldSeed = time.Since(t0).Seconds(), opt.Seed
	rep.Protocol = fmt.Sprintf("nested stratified %d-fold cross-validation (fold seed %d): the GWF model trained once without labels on every graph; in each fold an SVM on its %s by %s on the fold's training graphs, the held-out fold scored once",
		opt.Folds, opt.Seed, spec.describeEpochs(gwf.Epochs), spec.describeInner())
	accs := make([]float64, opt.Folds)
	for f := range opt.Folds {
		test := heldOut(fold, f)
		b, pred, err := u.SVMFoldEpochs(ctx, labels, test, spec.Epochs, spec.innerFolds(), spec.innerRepeats(), opt.Seed)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		rep.Folds = append(rep.Folds, LambdaSVMFold{Fold: f + 1, Test: len(test), Baseline: b, Graphs: test, Predictions: pred})
		accs[f] = b.Accuracy
		opt.log(false, fmt.Sprintf("fold %d/%d: accuracy %.2f%% on %d graphs; chose epoch %d, γ %g, C %g (inner accuracy %.2f%%)", f+1, opt.Folds, 100*b.Accuracy, len(test), b.Epoch, b.Gamma, b.C, 100*b.ValidationAccuracy))
	}
	m, s := meanstd.Of(accs)
	rep.Accuracy = MeanStd{Mean: m, Std: s}
	rep.Confusion = NewConfusion(ds, labels, classes, rep.HeldOut())
	rep.Seconds = time.Since(t0).Seconds()
	return rep, nil
}

// fitLabelFree trains the GWF model without labels on data, keeping every epoch's embeddings:
// through opt.Dir where it is set (resumable), with the head's settings of the paper's model.
func fitLabelFree(ctx context.Context, data []*graphs.Graph, classes int, gwf training.Config, opt CVOptions) (*Unsupervised, error) {
	cfg := semisup.DefaultConfig()
	if opt.Dir == "" {
		opt.log(false, "training the GWF model without labels on every graph")
		return FitUnsupervised(ctx, data, classes, gwf, cfg, opt.Options)
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("crossval: output directory: %w", err)
	}
	return unsupervisedInDir(ctx, opt.Dir, data, training.Fingerprint(data), classes, gwf, cfg, opt)
}

// FractionLambdaSVM runs protocol p (a labelled fraction under 1, or the labels as given) with
// the lambda-svm classifier on the graphs of ds: the GWF model trained without labels on every
// graph, the SVM trained on the labelled ones and scored on the others (those with a hidden
// label). With spec.LabelsAlone the same model is also fitted on the labelled graphs alone and
// scored the same way (rep.LabelsAlone): the comparison of the few-labels setting.
func FractionLambdaSVM(ctx context.Context, ds *graphs.Dataset, labels []int, classes int, gwf training.Config, p Fraction, spec LambdaSVMSpec, opt CVOptions) (*LambdaSVMReport, Split, error) {
	t0 := time.Now()
	if err := p.check(); err != nil {
		return nil, Split{}, err
	}
	if !p.Given && p.Share == 1 {
		return nil, Split{}, errors.New("crossval: lambda-svm with every label kept scores nothing and saves no classifier: use a fraction under 1, or cross-validation")
	}
	if err := spec.Validate(gwf.Epochs); err != nil {
		return nil, Split{}, err
	}
	s := Split{Train: p.keep(labels)}
	hidden := unlabelled(s.Train)
	if len(hidden) == 0 {
		return nil, Split{}, errors.New("crossval: no graph left to predict")
	}
	if err := checkSVMLabels(s.Train); err != nil {
		return nil, Split{}, err
	}
	data, err := spec.Read(ds.Graphs)
	if err != nil {
		return nil, Split{}, err
	}
	u, err := fitLabelFree(ctx, data, classes, gwf, opt)
	if err != nil {
		return nil, Split{}, err
	}
	rep := newLambdaSVMReport(ds, classes, gwf, spec)
	rep.FitSeconds = time.Since(t0).Seconds()
	b, pred, err := u.svmEpochs(ctx, s.Train, hidden, spec.Epochs, spec.innerFolds(), spec.innerRepeats(), p.Seed)
	if err != nil {
		return nil, Split{}, err
	}
	s.Predicted = pred
	p.score(&s, labels)
	b.Accuracy = s.Accuracy
	rep.Split = &LambdaSVMFold{Test: len(hidden), Baseline: b}
	rep.Labeled, rep.Accuracy = s.Labelled(), MeanStd{Mean: s.Accuracy}
	rep.Protocol = fmt.Sprintf("%s; the GWF model trained without labels on every graph, an SVM on its %s by %s on the labelled graphs",
		p.protocol(s), spec.describeEpochs(gwf.Epochs), spec.describeInner())
	if p.Given {
		rep.Unscored = len(hidden)
	}
	if spec.LabelsAlone && !p.Given {
		t1 := time.Now()
		alone, err := fitLabelsAlone(ctx, data, s.Train, classes, gwf, spec.Epochs, opt)
		if err != nil {
			return nil, Split{}, fmt.Errorf("crossval: the model fitted on the labelled graphs alone: %w", err)
		}
		rep.FitSeconds += time.Since(t1).Seconds()
		b, _, err := alone.SVMFoldEpochs(ctx, labels, hidden, spec.Epochs, spec.innerFolds(), spec.innerRepeats(), p.Seed)
		if err != nil {
			return nil, Split{}, fmt.Errorf("crossval: the model fitted on the labelled graphs alone: %w", err)
		}
		rep.LabelsAlone = &LambdaSVMFold{Test: len(hidden), Baseline: b}
		rep.Protocol += "; against the same model fitted on the labelled graphs alone, every graph then embedded as unseen graphs are (atoms fixed)"
	}
	rep.Seconds = time.Since(t0).Seconds()
	return rep, s, nil
}

// checkSVMLabels refuses, before anything trains, labels the SVM's inner cross-validation
// cannot use: each of its training parts needs two classes, which two classes of at least two
// labelled graphs each guarantee (stratified folds spread a class's graphs over its folds).
func checkSVMLabels(labels []int) error {
	count := map[int]int{}
	for _, l := range labels {
		if l != semisup.Unlabeled {
			count[l]++
		}
	}
	enough := 0
	for _, n := range count {
		if n >= 2 {
			enough++
		}
	}
	if enough < 2 {
		return fmt.Errorf("crossval: the SVM needs two classes with at least two labelled graphs each; of the %d labelled graphs, %d class(es) have two or more (keep more labels)", len(labelled(labels)), enough)
	}
	return nil
}

// unlabelled are the positions of labels without a label, labelled those with one.
func unlabelled(labels []int) []int { return positions(labels, false) }
func labelled(labels []int) []int   { return positions(labels, true) }

func positions(labels []int, withLabel bool) []int {
	var out []int
	for i, l := range labels {
		if (l != semisup.Unlabeled) == withLabel {
			out = append(out, i)
		}
	}
	return out
}

// fitLabelsAlone fits the label-free GWF model on the graphs train labels and, after each epoch
// of epochs (none: the last), embeds every graph as an unseen one (training.Transform: atoms
// fixed, as many steps as that epoch gave the training graphs). The labelled graphs are
// re-embedded too, as a model saved for 'gwf predict' is (FractionGWF): otherwise the SVM would
// train on training embeddings and predict from transform ones. The result's Z holds the
// embeddings at those epochs (nil at the others).
func fitLabelsAlone(ctx context.Context, data []*graphs.Graph, train []int, classes int, gwf training.Config, epochs []int, opt CVOptions) (*Unsupervised, error) {
	if len(epochs) == 0 {
		epochs = []int{gwf.Epochs}
	}
	sub := pick(data, labelled(train))
	m, u, err := newUnsupervised(sub, classes, gwf, semisup.DefaultConfig())
	if err != nil {
		return nil, err
	}
	out := &Unsupervised{Head: u.Head, Config: u.Config, Z: make([]*mat.Dense, gwf.Epochs)}
	epoch := 0
	fit := opt.Options
	fit.EpochDone = func(m *semisup.Model) error {
		epoch++
		if !slices.Contains(epochs, epoch) {
			return nil
		}
		opt.log(false, fmt.Sprintf("embedding the %d graphs with the atoms of epoch %d of the model fitted on the %d labelled graphs", len(data), epoch, len(sub)))
		z, err := training.Transform(ctx, m.GWF, data, epoch, training.Options{Workers: opt.Workers, Observe: opt.Observe})
		if err != nil {
			return err
		}
		out.Z[epoch-1] = z
		return nil
	}
	opt.log(false, fmt.Sprintf("training the same model on the %d labelled graphs alone", len(sub)))
	if err := semisup.Fit(ctx, m, sub, semisup.NoLabels(len(sub)), fit); err != nil {
		return nil, err
	}
	return out, nil
}

// pick is data at the positions idx.
func pick(data []*graphs.Graph, idx []int) []*graphs.Graph {
	out := make([]*graphs.Graph, len(idx))
	for j, i := range idx {
		out[j] = data[i]
	}
	return out
}
