package crossval

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/buildinfo"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
	"github.com/gwf-graphs/gwf/training"
)

// Fraction is the labelled-fraction protocol: a stratified share of the labels is kept
// (semisup.KeepLabels with Seed), a classifier is trained with them and scored on the graphs
// whose labels were hidden; with Share 1 it is scored on the graphs it was trained on.
type Fraction struct {
	Share float64 // in (0, 1]
	Seed  uint64
	// Given keeps the labels as the data give them instead (Share and Seed unused): the
	// graphs without one (semisup.Unlabeled) are predicted and, having no label, not scored.
	Given bool
}

// keep is the labels the classifier is trained with.
func (p Fraction) keep(labels []int) []int {
	if p.Given {
		return slices.Clone(labels)
	}
	return semisup.KeepLabels(labels, p.Share, p.Seed)
}

// Split is one run of the protocol: the labels kept (semisup.Unlabeled where hidden), the
// class predicted for every graph, and the accuracy on the Scored graphs.
type Split struct {
	Train, Predicted []int
	Accuracy         float64
	Scored           int
}

// Labelled is the number of graphs whose labels were kept.
func (s Split) Labelled() int {
	n := 0
	for _, l := range s.Train {
		if l != semisup.Unlabeled {
			n++
		}
	}
	return n
}

func (p Fraction) check() error {
	if !p.Given && !(p.Share > 0 && p.Share <= 1) {
		return fmt.Errorf("crossval: labelled fraction %v must be in (0, 1]", p.Share)
	}
	return nil
}

// score fills s's accuracy from the true labels (none with the labels as given).
func (p Fraction) score(s *Split, labels []int) {
	if p.Given {
		return
	}
	s.Accuracy, s.Scored = HeldOutAccuracy(labels, s.Train, s.Predicted, p.Share == 1)
}

// protocol describes the split in words.
func (p Fraction) protocol(s Split) string {
	if p.Given {
		return fmt.Sprintf("the labels as given: trained on the %d labelled graphs, the %d without a label predicted (not scored)", s.Labelled(), len(s.Train)-s.Labelled())
	}
	if p.Share == 1 {
		return "one classifier trained on all labelled graphs; accuracy on them (training accuracy)"
	}
	return fmt.Sprintf("%.0f%% of the labels kept (stratified, seed %d), accuracy on the other graphs", 100*p.Share, p.Seed)
}

// FractionSVM runs protocol p with the fgw-svm classifier of settings set on the graphs of ds
// (labels: class indices in [0, classes); the report names ds.Encoding's node features,
// DescribeFeatures): the candidate, γ and C are chosen by cross-validation on the kept labels
// only.
func FractionSVM(ctx context.Context, ds *graphs.Dataset, labels []int, classes int, p Fraction, set fgwsvm.Settings, opt fgwsvm.Options) (*SVMReport, Split, error) {
	if err := p.check(); err != nil {
		return nil, Split{}, err
	}
	s := Split{Train: p.keep(labels)}
	pred, v, st, err := fgwsvm.TrainPredict(ctx, ds.Graphs, s.Train, classes, set, opt)
	if err != nil {
		return nil, Split{}, err
	}
	s.Predicted = pred
	p.score(&s, labels)
	rep := &SVMReport{Version: buildinfo.Version(), Dataset: ds.Name, Graphs: len(ds.Graphs), Classes: classes, Method: MethodSVM,
		Features: DescribeFeatures(ds.Encoding), Settings: set, Cost: st, Labeled: s.Labelled(),
		Accuracy: MeanStd{Mean: s.Accuracy},
		Protocol: fmt.Sprintf("%s; settings chosen by %d-fold cross-validation on the labelled graphs", p.protocol(s), set.Grid.Folds)}
	if p.Given { // nothing held out to score: the chosen settings' validation accuracy
		rep.Unscored, rep.Accuracy = len(ds.Graphs)-s.Labelled(), MeanStd{Mean: v[0].Validation}
		rep.Predicted = unlabelledPredictions(ds, s, ds.ClassText)
	}
	rep.Settings = planned(set, st, len(ds.Graphs))
	rep.SetChosen(v)
	return rep, s, nil
}

// FractionGWF runs protocol p with the semi-supervised model m on data (ds's graphs; labels:
// class indices). With Share 1 and free embeddings, the training graphs are then re-embedded
// as unseen graphs will be (atoms fixed, semisup.Model.Reembed with reembed) and the head is
// trained on those embeddings, so that a saved model predicts new graphs on the same footing.
func FractionGWF(ctx context.Context, m *semisup.Model, ds *graphs.Dataset, labels []int, p Fraction, opt semisup.Options, reembed training.Options) (*GWFReport, Split, error) {
	if err := p.check(); err != nil {
		return nil, Split{}, err
	}
	data := ds.Graphs
	s := Split{Train: p.keep(labels)}
	if err := semisup.Fit(ctx, m, data, s.Train, opt); err != nil {
		return nil, Split{}, err
	}
	if p.Share == 1 && m.Encoder == nil {
		if err := m.Reembed(ctx, data, s.Train, 0, reembed); err != nil {
			return nil, Split{}, err
		}
	}
	s.Predicted = m.Predict()
	p.score(&s, labels)
	rep := &GWFReport{Version: buildinfo.Version(), Dataset: ds.Name, Graphs: len(data), Classes: m.Head.Classes(), Protocol: p.protocol(s),
		Semisup: m.Config, Config: m.GWF.Config, Accuracy: MeanStd{Mean: s.Accuracy},
		Labeled: s.Labelled(), History: m.History}
	if p.Given { // nothing held out to score: the accuracy on the labelled graphs trained on
		rep.Unscored, rep.Accuracy = len(data)-s.Labelled(), MeanStd{Mean: trainingAccuracy(s)}
		rep.Predicted = unlabelledPredictions(ds, s, m.LabelText)
	}
	return rep, s, nil
}

// unlabelledPredictions are the graphs s was given no label for, each with its predicted
// class as text names it.
func unlabelledPredictions(ds *graphs.Dataset, s Split, text func(class int) string) []Prediction {
	var out []Prediction
	for i, l := range s.Train {
		if l == semisup.Unlabeled {
			out = append(out, Prediction{Graph: ds.Graphs[i].Name, Index: i, Predicted: text(s.Predicted[i])})
		}
	}
	return out
}

// trainingAccuracy is the share of the graphs trained with a label that s predicts right.
func trainingAccuracy(s Split) float64 {
	ok, n := 0, 0
	for i, l := range s.Train {
		if l != semisup.Unlabeled {
			n++
			if s.Predicted[i] == l {
				ok++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(ok) / float64(n)
}

// WritePredictions writes s as CSV, a row per graph: its name, its label and the predicted
// class as text names them, and whether its label was kept for training.
func WritePredictions(w io.Writer, names []string, labels []int, s Split, text func(class int) string) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"graph", "label", "predicted", "labelled_in_training"})
	for i, name := range names {
		label := "" // a graph the data give no label
		if labels[i] != semisup.Unlabeled {
			label = text(labels[i])
		}
		cw.Write([]string{name, label, text(s.Predicted[i]), strconv.FormatBool(s.Train[i] != semisup.Unlabeled)})
	}
	cw.Flush()
	return cw.Error()
}

// TrainSVM trains the fgw-svm classifier of settings set on every graph of ds (labels: class
// indices in [0, classes)) for unseen graphs, with ds's class names and feature encoding, and
// reports it: what it chose, the cross-validated accuracy of its best voter on the training
// graphs, and ds.Encoding's node features (DescribeFeatures).
func TrainSVM(ctx context.Context, ds *graphs.Dataset, labels []int, classes int, set fgwsvm.Settings, opt fgwsvm.Options) (*fgwsvm.Model, *SVMReport, error) {
	m, err := fgwsvm.Train(ctx, ds.Graphs, labels, classes, set, opt)
	if err != nil {
		return nil, nil, err
	}
	m.Classes, m.ClassNames, m.Features = ds.Classes, ds.ClassNames, ds.Encoding.Clone()
	v := m.Vote()
	rep := &SVMReport{Version: buildinfo.Version(), Dataset: ds.Name, Graphs: len(ds.Graphs), Classes: classes, Method: MethodSVM,
		Features: DescribeFeatures(ds.Encoding), Settings: set, Cost: m.Stats, Labeled: len(ds.Graphs),
		Accuracy: MeanStd{Mean: v[0].Validation},
		Protocol: fmt.Sprintf("one classifier trained on all %d labelled graphs, settings chosen by %d-fold cross-validation on them", len(ds.Graphs), set.Grid.Folds)}
	rep.Settings = planned(set, m.Stats, len(ds.Graphs))
	rep.SetChosen(v)
	return m, rep, nil
}
