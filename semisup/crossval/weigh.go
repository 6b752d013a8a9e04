package crossval

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/subset"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
	"github.com/gwf-graphs/gwf/semisup/svm"
	"github.com/gwf-graphs/gwf/training"
)

// WeighedFold is one held-out fold of a cross-validation that weighs the template model
// against the FGW-SVM on the fold's training graphs (SVMSpec.Templates): the template model,
// trained on all of them but the FGW-SVM's first inner fold (Holdout graphs), is scored there
// (Templates) and compared with the FGW-SVM's inner cross-validation accuracy (SVM: its best
// voter's). The template model decides the fold only where it scores more than Margin higher,
// one standard error of an accuracy of SVM on Holdout graphs (a few dozen graphs tell two
// classifiers a few points apart by chance); it is then trained again on all the training
// graphs and predicts the held-out fold.
type WeighedFold struct {
	Fold      int     `json:"fold"`
	Holdout   int     `json:"holdout"`
	Templates float64 `json:"templates_accuracy"`
	SVM       float64 `json:"svm_accuracy"`
	Margin    float64 `json:"margin"`
	// Chosen is MethodTemplates or MethodSVM; Accuracy is its held-out accuracy.
	Chosen   string  `json:"chosen"`
	Accuracy float64 `json:"accuracy"`
	// Graphs are the held-out graphs (indices into the data), Predictions the chosen
	// classifier's classes for them.
	Graphs      []int   `json:"graphs"`
	Predictions []int   `json:"predictions"`
	Seconds     float64 `json:"seconds"`
}

// weighTemplates weighs the template model (cfg) against the FGW-SVM in each fold of res, the
// FGW-SVM's folds of the graphs of ds: see WeighedFold. A fold kept in spec.ReportDir
// (weighed-fold<f>.json) with the same settings and data is reused.
func weighTemplates(ctx context.Context, ds *graphs.Dataset, labels []int, classes int, cfg semisup.TemplateConfig, spec SVMSpec, res []fgwsvm.FoldResult) ([]WeighedFold, error) {
	out := make([]WeighedFold, 0, len(res))
	for _, r := range res {
		rec := weighedRecord{Config: cfg, Folds: spec.Folds, Seed: spec.Seed, Inner: spec.Grid.Folds, InnerSeed: spec.Grid.Seed,
			Labels: labelsFingerprint(labels), Graphs: len(ds.Graphs), SVM: r.Choice.Validation, Rule: weighRule}
		if spec.ReportDir != "" {
			if w, ok := savedWeighed(spec.ReportDir, r.Fold, rec); ok {
				spec.Observe.Say(false, "fold %d/%d: %s decides, %.2f%% (kept in %s)", r.Fold, spec.Folds, w.Chosen, 100*w.Accuracy, weighedPath(spec.ReportDir, r.Fold))
				out = append(out, w)
				continue
			}
		}
		w, err := weighFold(ctx, ds.Graphs, labels, classes, cfg, spec, r)
		if err != nil {
			return nil, fmt.Errorf("fold %d: template model: %w", r.Fold, err)
		}
		if spec.ReportDir != "" {
			rec.Result = w
			if err := saveWeighed(spec.ReportDir, rec); err != nil {
				return nil, fmt.Errorf("fold %d: %w", r.Fold, err)
			}
		}
		spec.Observe.Say(false, "fold %d/%d: the template model scored %.2f%% on %d of the training graphs, the FGW-SVM %.2f%% in its inner cross-validation: %s decides, %.2f%% on the held-out graphs (%.0f s)",
			r.Fold, spec.Folds, 100*w.Templates, w.Holdout, 100*w.SVM, w.Chosen, 100*w.Accuracy, w.Seconds)
		out = append(out, w)
	}
	return out, nil
}

// weighFold weighs the template model against the FGW-SVM's fold r (WeighedFold).
func weighFold(ctx context.Context, data []*graphs.Graph, labels []int, classes int, cfg semisup.TemplateConfig, spec SVMSpec, r fgwsvm.FoldResult) (WeighedFold, error) {
	start := time.Now()
	train := make([]int, 0, len(data)-len(r.Graphs))
	for i := range data {
		if !slices.Contains(r.Graphs, i) {
			train = append(train, i)
		}
	}
	w, m, err := weigh(ctx, data, labels, classes, cfg, spec, spec.Observe.InRun(r.Fold-1), train, r.Choice.Validation)
	if err != nil {
		return WeighedFold{}, err
	}
	w.Fold, w.Graphs, w.Predictions = r.Fold, r.Graphs, r.Predictions
	if m != nil {
		if w.Predictions, err = m.Predict(ctx, subset.Of(data, r.Graphs), spec.Workers); err != nil {
			return WeighedFold{}, err
		}
	}
	w.Accuracy = accuracyOf(w.Predictions, subset.Ints(labels, r.Graphs))
	w.Seconds = time.Since(start).Seconds()
	return w, nil
}

// weigh trains the template model on the graphs train less the first of spec.Grid's inner
// folds and scores it there; where it scores more than a standard error (WeighedFold.Margin)
// above svm, the FGW-SVM's inner accuracy, it is
// trained again on all of train and returned (nil where the FGW-SVM decides). The fold's
// graphs, predictions and accuracy are left for the caller.
func weigh(ctx context.Context, data []*graphs.Graph, labels []int, classes int, cfg semisup.TemplateConfig, spec SVMSpec, observe training.Observer, train []int, svmAcc float64) (WeighedFold, *semisup.TemplateEnsemble, error) {
	inner, err := svm.StratifiedFolds(subset.Ints(labels, train), spec.Grid.Folds, spec.Grid.Seed)
	if err != nil {
		return WeighedFold{}, nil, err
	}
	var fit, holdout []int // the FGW-SVM's first inner fold is the holdout
	for k, i := range train {
		if inner[k] == 0 {
			holdout = append(holdout, i)
		} else {
			fit = append(fit, i)
		}
	}
	opt := semisup.TemplateOptions{Workers: spec.Workers, Observe: observe}
	m, err := semisup.TrainTemplates(ctx, subset.Of(data, fit), subset.Ints(labels, fit), classes, cfg, opt)
	if err != nil {
		return WeighedFold{}, nil, err
	}
	pred, err := m.Predict(ctx, subset.Of(data, holdout), spec.Workers)
	if err != nil {
		return WeighedFold{}, nil, err
	}
	w := WeighedFold{Holdout: len(holdout), Templates: accuracyOf(pred, subset.Ints(labels, holdout)), SVM: svmAcc, Chosen: MethodSVM,
		Margin: math.Sqrt(svmAcc * (1 - svmAcc) / float64(len(holdout)))}
	if w.Templates <= w.SVM+w.Margin {
		return w, nil, nil
	}
	w.Chosen = MethodTemplates
	if m, err = semisup.TrainTemplates(ctx, subset.Of(data, train), subset.Ints(labels, train), classes, cfg, opt); err != nil {
		return WeighedFold{}, nil, err
	}
	return w, m, nil
}

// WeighTrained weighs the template model (cfg) against the FGW-SVM classifier trained on every
// graph of ds (TrainSVM's, whose report is rep) as a fold of CrossValidateSVM is weighed:
// trained on the graphs less the first of set's inner folds and scored there, against the
// FGW-SVM's inner accuracy. Where the template model scores clearly higher (WeighedFold) it is
// trained again on every
// graph and returned (with ds's class names and feature encoding), to replace the FGW-SVM;
// otherwise nil. rep records the weighing (Weighed, Templates; its accuracy then the winner's
// estimate).
func WeighTrained(ctx context.Context, ds *graphs.Dataset, labels []int, classes int, cfg semisup.TemplateConfig, set fgwsvm.Settings, opt fgwsvm.Options, rep *SVMReport) (*semisup.TemplateEnsemble, error) {
	start := time.Now()
	spec := SVMSpec{Settings: set, Options: opt}
	w, m, err := weigh(ctx, ds.Graphs, labels, classes, cfg, spec, opt.Observe, seq(len(ds.Graphs)), rep.Accuracy.Mean)
	if err != nil {
		return nil, fmt.Errorf("template model: %w", err)
	}
	w.Seconds = time.Since(start).Seconds()
	rep.Weighed, rep.Templates = []WeighedFold{w}, &cfg
	rep.Protocol += fmt.Sprintf("; the template model weighed against it: trained on the graphs less the first of the %d inner folds and scored there (%.2f%% against %.2f%%), %s decides", set.Grid.Folds, 100*w.Templates, 100*w.SVM, w.Chosen)
	if m == nil {
		return nil, nil
	}
	rep.Accuracy = MeanStd{Mean: w.Templates}
	m.Classes, m.ClassNames, m.Features = ds.Classes, ds.ClassNames, &ds.Encoding
	return m, nil
}

// EstimateTemplates is about how long weighing the template model (cfg) against the FGW-SVM
// takes on data, in a nested cross-validation of folds folds (1: for the one classifier
// WeighTrained trains on all of data) with innerFolds inner folds: two epochs on a sample of
// probeGraphs labelled graphs are timed, and each fold trains the model once on its training
// graphs less an inner fold and, where it wins, once more on all of them (counted in every
// fold: the estimate bounds that).
func EstimateTemplates(ctx context.Context, data []*graphs.Graph, labels []int, classes int, cfg semisup.TemplateConfig, folds, innerFolds, workers int) (time.Duration, error) {
	if folds < 1 || innerFolds < 2 {
		return 0, fmt.Errorf("crossval: %d folds and %d inner folds (need 1 or more, and 2 or more)", folds, innerFolds)
	}
	var sample []int
	if len(data) <= probeGraphs {
		sample = seq(len(data))
	} else {
		part, err := svm.StratifiedFolds(labels, len(data)/probeGraphs, cfg.Seed)
		if err != nil {
			return 0, err
		}
		for i, p := range part {
			if p == 0 {
				sample = append(sample, i)
			}
		}
	}
	probe := cfg
	probe.Epochs, probe.Patience = probeEpochs, 0
	start := time.Now()
	if _, err := semisup.TrainTemplates(ctx, subset.Of(data, sample), subset.Ints(labels, sample), classes, probe, semisup.TemplateOptions{Workers: workers}); err != nil {
		return 0, fmt.Errorf("crossval: timing the template model: %w", err)
	}
	perGraphEpoch := time.Since(start).Seconds() / float64(probeEpochs*len(sample))
	train := float64(len(data)) // in each fold
	if folds > 1 {
		train *= float64(folds-1) / float64(folds)
	}
	graphEpochs := float64(folds) * float64(cfg.Epochs) * (train*float64(innerFolds-1)/float64(innerFolds) + train)
	return time.Duration(perGraphEpoch * graphEpochs * float64(time.Second)), nil
}

// The probe of EstimateTemplates: epochs on a sample of about this many graphs.
const (
	probeGraphs = 48
	probeEpochs = 2
)

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
