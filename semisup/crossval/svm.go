package crossval

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/internal/buildinfo"
	"github.com/gwf-graphs/gwf/internal/meanstd"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
)

// SVMSpec is a nested cross-validation of the fgw-svm classifier.
type SVMSpec struct {
	Folds int
	Seed  uint64 // of the fold split (semisup.Folds: the GWF classifier's folds for the seed)
	fgwsvm.Settings
	fgwsvm.Options
	// FoldDone, if set, is called after each fold, after Options.Observe has been told the
	// fold's accuracy and choice.
	FoldDone func(fgwsvm.FoldResult)
	// ReportDir, if set, receives the report as report.json (usually Options.Dir, where the
	// matrices are kept), and each weighed fold as it finishes.
	ReportDir string
	// Templates, if set, is the template model weighed against the FGW-SVM in each fold
	// (WeighedFold), after the FGW-SVM's folds.
	Templates *semisup.TemplateConfig
}

// CrossValidateSVM runs the nested cross-validation spec of the fgw-svm classifier on the
// graphs of ds (labels: class indices in [0, classes)) and reports it: the protocol in words,
// ds.Encoding's node features (DescribeFeatures), every fold, the mean ± std and what the
// discrepancies cost.
func CrossValidateSVM(ctx context.Context, ds *graphs.Dataset, labels []int, classes int, spec SVMSpec) (*SVMReport, error) {
	rep := &SVMReport{Version: buildinfo.Version(), Dataset: ds.Name, Graphs: len(ds.Graphs), Classes: classes, Method: MethodSVM,
		Features: DescribeFeatures(ds.Encoding), Settings: spec.Settings}
	rep.Settings.Vote = spec.VoteFor(len(ds.Graphs))
	protocol := func() string {
		return fmt.Sprintf("nested stratified %d-fold cross-validation (fold seed %d): candidate, γ and C chosen by %d-fold cross-validation on each fold's training graphs (%s), held-out fold scored once; discrepancies use no label and are computed once for all graphs",
			spec.Folds, spec.Seed, spec.Grid.Folds, describeVote(rep.Settings.Vote, rep.Settings.VoteWithin))
	}
	rep.Protocol = protocol()
	done := func(r fgwsvm.FoldResult) {
		spec.Observe.Say(false, "fold %d/%d: accuracy %.2f%% on %d graphs; chose %s", r.Fold, spec.Folds, 100*r.Accuracy, r.Test, r.Chosen())
		if spec.FoldDone != nil {
			spec.FoldDone(r)
		}
	}
	res, st, err := fgwsvm.CrossValidate(ctx, ds.Graphs, labels, classes, spec.Folds, spec.Seed, spec.Settings, spec.Options, done)
	if err != nil {
		return nil, err
	}
	rep.Folds, rep.Cost = res, st
	if st.Budget != nil { // what ran: the plan's settings and vote
		rep.Settings = planned(spec.Settings, st, len(ds.Graphs))
		rep.Protocol = protocol()
	}
	if spec.Templates != nil {
		if rep.Weighed, err = weighTemplates(ctx, ds, labels, classes, *spec.Templates, spec, res); err != nil {
			return nil, err
		}
		rep.Templates = spec.Templates
		rep.Protocol += fmt.Sprintf("; the template model weighed against it in each fold: trained on the training graphs less the first of the %d inner folds and scored there, it decides where it scores more than a standard error above the FGW-SVM's inner accuracy", spec.Grid.Folds)
	}
	rep.Confusion = NewConfusion(ds, labels, classes, rep.HeldOut())
	m, s := meanstd.Of(rep.FoldAccuracies())
	rep.Accuracy = MeanStd{Mean: m, Std: s}
	if spec.ReportDir != "" {
		if err := atomicfile.Write(filepath.Join(spec.ReportDir, "report.json"), func(w io.Writer) error { return WriteJSON(w, rep) }); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

func describeVote(n int, within float64) string {
	if n <= 1 {
		return "the best candidate decides"
	}
	if within > 0 {
		return fmt.Sprintf("the SVMs of the best %d candidates vote, less those more than %g standard errors below the best", n, within)
	}
	return fmt.Sprintf("the SVMs of the best %d candidates vote", n)
}
