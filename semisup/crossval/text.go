package crossval

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/meanstd"
	"github.com/gwf-graphs/gwf/semisup/fgwsvm"
)

// The reports as text, as `gwf classify` and `gwf pool` print them.

// WriteText writes the report as `gwf semisup` prints it: the protocol and
// settings, a table of the folds (or the split's accuracy), the mean ± std and the baselines.
func (rep *GWFReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s: %d graphs, %d classes; %s\nhead: β = %g, hidden %v, %s; %s\n\n", rep.Dataset, rep.Graphs, rep.Classes, rep.Protocol,
		rep.Semisup.Beta, rep.Semisup.Hidden, rep.Semisup.Activation, rep.Config.Describe())
	if len(rep.Folds) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "fold\ttest graphs\taccuracy %\ton labelled graphs %\tchosen\tβ = 0 head %\tlogistic regression %\tseconds\t")
		for _, r := range rep.Folds {
			chosen, b0, lr := "–", "–", "–"
			if r.Choice != nil {
				chosen = DescribeFoldChoice(r)
			}
			if r.Beta0 != nil {
				b0, lr = fmt.Sprintf("%.2f", 100*r.Beta0.Accuracy), fmt.Sprintf("%.2f", 100*r.LogReg.Accuracy)
			}
			fmt.Fprintf(tw, "%d\t%d\t%.2f\t%.2f\t%s\t%s\t%s\t%.1f\t\n", r.Fold, r.Test, 100*r.Accuracy, 100*r.TrainAccuracy, chosen, b0, lr, r.Seconds)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if err := rep.Confusion.writeText(w); err != nil {
			return err
		}
		xs := make([]float64, len(rep.Folds))
		for i, r := range rep.Folds {
			xs[i] = r.Accuracy
		}
		if _, err := fmt.Fprintf(w, "\naccuracy: %s %% (mean ± std over %d folds)\n", meanstd.Format(xs, 100), len(rep.Folds)); err != nil {
			return err
		}
		if b := rep.Baselines; b != nil {
			beta0, logreg := b.Beats()
			fmt.Fprintf(w, "baselines on the same folds: β = 0 head %.1f ± %.1f %%, logistic regression on the unsupervised λ %.1f ± %.1f %%\n",
				100*b.Beta0.Mean, 100*b.Beta0.Std, 100*b.LogReg.Mean, 100*b.LogReg.Std)
			fmt.Fprintf(w, "semi-supervised beats the β = 0 head: %s (%d folds better, %d worse); beats logistic regression: %s (%d better, %d worse)\n",
				yesNo(beta0), b.WinsBeta0, b.LossesBeta0, yesNo(logreg), b.WinsLogReg, b.LossesLogReg)
			if b.SVM != nil {
				fmt.Fprintf(w, "SVM on the unsupervised λ (GDL's protocol): %.1f ± %.1f %%\n", 100*b.SVM.Mean, 100*b.SVM.Std)
			}
			if b.Joint != nil {
				fmt.Fprintf(w, "the validation split chose the β = 0 head in %d of %d folds; the trained model alone (without that candidate): %.1f ± %.1f %%\n",
					b.ChoseBeta0, b.Folds, 100*b.Joint.Mean, 100*b.Joint.Std)
			}
		}
		if last := LastEpoch(rep.Folds); len(last) > 0 {
			fmt.Fprintf(w, "the joint head after the last epoch, before it is trained alone (--head-steps 0): %s %%\n", meanstd.Format(last, 100))
		}
		if best := BestEpoch(rep.Folds); len(best) > 0 {
			_, err := fmt.Fprintf(w, "diagnostic, not a result: the best epoch's held-out accuracy, chosen on the held-out labels as the authors' code does: %s %%\n", meanstd.Format(best, 100))
			return err
		}
		return nil
	}
	if rep.Labeled == rep.Graphs || rep.Unscored > 0 {
		writeUnscored(w, rep.Predicted)
		_, err := fmt.Fprintf(w, "accuracy on the %d labelled graphs it was trained on: %.2f %%\n", rep.Labeled, 100*rep.Accuracy.Mean)
		return err
	}
	_, err := fmt.Fprintf(w, "accuracy on the %d unlabelled graphs: %.2f %% (%d labelled)\n", rep.Graphs-rep.Labeled, 100*rep.Accuracy.Mean, rep.Labeled)
	return err
}

// WriteText writes the report as `gwf classify` prints it: the protocol, the candidates, a
// table of the folds (or what the split chose), the mean ± std and what it cost.
func (rep *SVMReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s: %d graphs, %d classes; %s\nclassifier: SVM on exp(−γ·d), d an FGW discrepancy or a distance of graph vectors; node features: %s; candidates: %s\n\n",
		rep.Dataset, rep.Graphs, rep.Classes, rep.Protocol, rep.Features, DescribeCandidates(rep.Settings.Candidates))
	if len(rep.Folds) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "fold\ttest graphs\taccuracy %\tchosen\tseconds")
		for _, r := range rep.Folds {
			fmt.Fprintf(tw, "%d\t%d\t%.2f\t%s\t%.1f\n", r.Fold, r.Test, 100*r.Accuracy, r.Chosen(), r.Seconds)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if err := rep.writeWeighed(w); err != nil {
			return err
		}
		if err := rep.Confusion.writeText(w); err != nil {
			return err
		}
		// The answer last, where a terminal leaves it: after the cost of every matrix.
		_, err := fmt.Fprintf(w, "\ncost: %s\n\naccuracy: %.2f ± %.2f %% (mean ± std over %d folds)\n", describeCost(rep.Cost), 100*rep.Accuracy.Mean, 100*rep.Accuracy.Std, len(rep.Folds))
		return err
	}
	if len(rep.Voters) > 1 {
		fmt.Fprintf(w, "chose %s\n", rep.Voters)
	} else if rep.Choice != nil {
		fmt.Fprintf(w, "chose %s\n", rep.Choice)
	}
	fmt.Fprintf(w, "cost: %s\n", describeCost(rep.Cost))
	writeUnscored(w, rep.Predicted)
	if rep.Labeled == rep.Graphs || rep.Unscored > 0 {
		what := "the chosen settings"
		if len(rep.Voters) > 1 {
			what = "the best voter (the vote itself is scored by --folds)"
		}
		_, err := fmt.Fprintf(w, "cross-validated accuracy of %s on the %d labelled graphs: %.2f %%\n", what, rep.Labeled, 100*rep.Accuracy.Mean)
		return err
	}
	_, err := fmt.Fprintf(w, "accuracy on the %d unlabelled graphs: %.2f %% (%d labelled)\n", rep.Graphs-rep.Labeled, 100*rep.Accuracy.Mean, rep.Labeled)
	return err
}

// writeWeighed writes the folds where the template model was weighed against the FGW-SVM (none
// where it was not).
func (rep *SVMReport) writeWeighed(w io.Writer) error {
	if !rep.weighedFolds() {
		return nil
	}
	fmt.Fprintf(w, "\nthe template model weighed against the FGW-SVM (the accuracies above are the FGW-SVM's; the report's are the deciding classifier's):\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "fold\ttemplate model %\ton graphs\tFGW-SVM inner %\tdecides\taccuracy %\tseconds")
	for _, f := range rep.Weighed {
		fmt.Fprintf(tw, "%d\t%.2f\t%d\t%.2f\t%s\t%.2f\t%.1f\n", f.Fold, 100*f.Templates, f.Holdout, 100*f.SVM, f.Chosen, 100*f.Accuracy, f.Seconds)
	}
	return tw.Flush()
}

// WriteText writes the pooled reports as `gwf pool` prints them (first: the first report
// pooled, for the settings they share): a row per report, the pooled row and its mean ± std.
func (p Pooled) WriteText(w io.Writer, first Report) error {
	switch {
	case first.GWF != nil:
		return p.writeGWF(w, first.GWF)
	case first.LambdaSVM != nil:
		l := first.LambdaSVM
		return p.writeFoldSeeds(w, fmt.Sprintf("%s: %d graphs, %d classes; %d lambda-svm reports of %d folds; node features: %s; %s; %s",
			l.Dataset, l.Graphs, l.Classes, len(p.Reports), len(l.Folds), l.Features, l.Config.Describe(), l.Spec.describeEpochs(l.Config.Epochs)))
	case first.Templates != nil:
		t := first.Templates
		return p.writeFoldSeeds(w, fmt.Sprintf("%s: %d graphs, %d classes; %d template-model reports of %d folds; %s",
			t.Dataset, t.Graphs, t.Classes, len(p.Reports), len(t.Folds), t.describeModel()))
	}
	s := first.SVM
	return p.writeFoldSeeds(w, fmt.Sprintf("%s: %d graphs, %d classes; %d fgw-svm reports of %d folds; node features: %s", s.Dataset, s.Graphs, s.Classes,
		len(p.Reports), len(s.Folds), s.Features))
}

func (p Pooled) writeGWF(w io.Writer, first *GWFReport) error {
	settings := strings.TrimSuffix(first.Config.Describe(), fmt.Sprintf(", seed %d", first.Config.Seed))
	fmt.Fprintf(w, "%s: %d graphs, %d classes; %d reports of %d folds\nhead: β = %g, hidden %v, %s; %s\n\n", first.Dataset, first.Graphs, first.Classes,
		len(p.Reports), len(first.Folds), first.Semisup.Beta, first.Semisup.Hidden, first.Semisup.Activation, settings)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "report\tseed\taccuracy %\tβ = 0 head %\tlogistic regression %\tchose β = 0\t")
	for _, r := range append(p.Reports, p.Pooled) {
		file, seed, b0, lr, chose := "all pooled", "", "–", "–", "–"
		if r.File != "" {
			file, seed = r.File, fmt.Sprint(r.Seed)
		}
		if b := r.Baselines; b != nil {
			b0, lr = fmt.Sprintf("%.1f ± %.1f", 100*b.Beta0.Mean, 100*b.Beta0.Std), fmt.Sprintf("%.1f ± %.1f", 100*b.LogReg.Mean, 100*b.LogReg.Std)
			if b.Joint != nil {
				chose = fmt.Sprintf("%d of %d", b.ChoseBeta0, b.Folds)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f ± %.1f\t%s\t%s\t%s\t\n", file, seed, 100*r.Accuracy.Mean, 100*r.Accuracy.Std, b0, lr, chose)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := p.Pooled.Confusion.writeText(w); err != nil {
		return err
	}
	fmt.Fprintf(w, "\naccuracy: %.1f ± %.1f %% (mean ± std over %d folds of %d reports)\n", 100*p.Pooled.Accuracy.Mean, 100*p.Pooled.Accuracy.Std, p.Pooled.Folds, len(p.Reports))
	if b := p.Pooled.Baselines; b != nil {
		beta0, logreg := b.Beats()
		fmt.Fprintf(w, "semi-supervised beats the β = 0 head: %s (%d folds better, %d worse); beats logistic regression: %s (%d better, %d worse)\n",
			yesNo(beta0), b.WinsBeta0, b.LossesBeta0, yesNo(logreg), b.WinsLogReg, b.LossesLogReg)
		if b.Joint != nil {
			fmt.Fprintf(w, "the validation split chose the β = 0 head in %d of %d folds; the trained model alone (without that candidate): %.1f ± %.1f %%\n",
				b.ChoseBeta0, b.Folds, 100*b.Joint.Mean, 100*b.Joint.Std)
		}
	}
	return nil
}

// writeFoldSeeds writes the reports that differ in their fold seed alone (the SVM's, the
// template model's) under the line head.
func (p Pooled) writeFoldSeeds(w io.Writer, head string) error {
	fmt.Fprintf(w, "%s\n\n", head)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "report\tfold seed\taccuracy %\t")
	for _, r := range append(p.Reports, p.Pooled) {
		file, seed := "all pooled", ""
		if r.File != "" {
			file, seed = r.File, fmt.Sprint(r.Seed)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f ± %.1f\t\n", file, seed, 100*r.Accuracy.Mean, 100*r.Accuracy.Std)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := p.Pooled.Confusion.writeText(w); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\naccuracy: %.1f ± %.1f %% (mean ± std over %d folds of %d reports)\n", 100*p.Pooled.Accuracy.Mean, 100*p.Pooled.Accuracy.Std, p.Pooled.Folds, len(p.Reports))
	return err
}

// FoldLines describe a finished fold of folds, as lines of a log: its accuracy, what the
// nested protocol chose and the baselines' accuracies.
func FoldLines(r FoldResult, folds int) []string {
	at := fmt.Sprintf("fold %d/%d: ", r.Fold, folds)
	lines := []string{fmt.Sprintf("%saccuracy %.2f%% on %d graphs (labelled graphs: %.2f%%; predicted per class %v; %.0f s)",
		at, 100*r.Accuracy, r.Test, 100*r.TrainAccuracy, r.Predicted, r.Seconds)}
	if c := r.Choice; c != nil {
		val := c.ValidationAccuracy
		if c.Unsupervised {
			val = r.Beta0.ValidationAccuracy
		}
		lines = append(lines, fmt.Sprintf("%schose %s (validation accuracy %.2f%% on %d graphs)", at, DescribeFoldChoice(r), 100*val, c.Validation))
	}
	if r.Beta0 != nil {
		lines = append(lines, fmt.Sprintf("%sbaselines: β = 0 head %.2f%% (epoch %d), logistic regression on λ %.2f%% (C = %g)", at, 100*r.Beta0.Accuracy, r.Beta0.Epoch, 100*r.LogReg.Accuracy, r.LogReg.C))
	}
	if r.SVM != nil {
		lines = append(lines, fmt.Sprintf("%sbaseline: SVM on λ %.2f%% (γ = %g/median, C = %g)", at, 100*r.SVM.Accuracy, r.SVM.Gamma, r.SVM.C))
	}
	return lines
}

// DescribeFoldChoice names the model a fold of the nested protocol chose.
func DescribeFoldChoice(r FoldResult) string {
	if r.Choice.Unsupervised {
		return fmt.Sprintf("the β = 0 head, epoch %d (over %s, epoch %d: %.2f%% held out)", r.Beta0.Epoch, r.Choice.Config.Describe(), r.Choice.Epoch, 100**r.JointAccuracy)
	}
	return fmt.Sprintf("%s, epoch %d", r.Choice.Config.Describe(), r.Choice.Epoch)
}

// DescribeFeatures names the node features graphs were read with (e: their
// Dataset.Encoding) as gwf's data flags would ask for them: "--features " and the kind, then
// " --standardize" where they were standardized and " --edge-labels" where the graphs carry
// edge labels.
func DescribeFeatures(e graphs.FeatureEncoding) string {
	s := "--features " + e.Kind.String()
	if e.Standardized() {
		s += " --standardize"
	}
	if e.EdgeLabels {
		s += " --edge-labels"
	}
	return s
}

// DescribeCandidates lists candidates briefly: structure, features and weight.
func DescribeCandidates(cs []fgwsvm.Candidate) string {
	s := ""
	for i, c := range cs {
		if i > 0 {
			s += "; "
		}
		switch {
		case c.Kind == fgwsvm.KindStatistics:
			s += "graph statistics"
		case c.Kind == fgwsvm.KindWLSubtree && c.WithoutFeatures:
			s += fmt.Sprintf("WL-%d subtree counts from the degrees (no features)", c.WL)
		case c.Kind == fgwsvm.KindWLSubtree && c.EdgeLabels:
			s += fmt.Sprintf("WL-%d subtree counts of nodes and edges", c.WL)
		case c.Kind == fgwsvm.KindWLSubtree:
			s += fmt.Sprintf("WL-%d subtree counts", c.WL)
		case c.WithoutFeatures && c.WL > 0:
			s += fmt.Sprintf("%s with WL-%d labels from the degrees (no features), weight %.3g", c.Structure, c.WL, c.FeatureWeight)
		case c.WithoutFeatures:
			s += fmt.Sprintf("%s alone (no features)", c.Structure)
		case c.Degree:
			s += fmt.Sprintf("%s with degrees, weight %.3g", c.Structure, c.FeatureWeight)
		case c.WL > 0 && c.EdgeLabels:
			s += fmt.Sprintf("%s with WL-%d labels of nodes and edges, weight %.3g", c.Structure, c.WL, c.FeatureWeight)
		case c.WL > 0:
			s += fmt.Sprintf("%s with WL-%d labels, weight %.3g", c.Structure, c.WL, c.FeatureWeight)
		case c.Attributes > 0 && c.Part != "":
			s += fmt.Sprintf("%s with %s, weight %.3g", c.Structure, c.Part, c.FeatureWeight)
		case c.Attributes > 0:
			s += fmt.Sprintf("%s with attributes and labels, weight %.3g", c.Structure, c.FeatureWeight)
		default:
			s += fmt.Sprintf("%s, weight %.3g", c.Structure, c.FeatureWeight)
		}
	}
	return s
}

// describeCost says how many discrepancies were computed, in how long, and what in full.
func describeCost(st fgwsvm.Stats) string {
	s := fmt.Sprintf("%d discrepancies in %.0f s", st.GWDs, st.Seconds)
	if p := st.Budget; p != nil {
		s += "; " + describeBudget(*p)
	}
	if st.Screened > 0 {
		s += fmt.Sprintf(" (the candidates screened, in rounds, on a subset of up to %d graphs; in full: %s)", st.Screened, DescribeCandidates(st.Full()))
	}
	for _, m := range st.Matrices {
		on := fmt.Sprintf("%d graphs", m.Graphs)
		if m.Landmarks > 0 {
			on += fmt.Sprintf(" to %d landmarks", m.Landmarks)
		}
		if m.Reused {
			s += fmt.Sprintf("\n  %s on %s: reused", m.Candidate, on)
		} else {
			s += fmt.Sprintf("\n  %s on %s: %d discrepancies, %.0f s", m.Candidate, on, m.GWDs, m.Seconds)
		}
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// shownPredictions is how many predictions of unlabelled graphs a text report lists.
const shownPredictions = 20

// writeUnscored lists the predictions of the graphs without a class label, the first
// shownPredictions of them.
func writeUnscored(w io.Writer, predicted []Prediction) {
	if len(predicted) == 0 {
		return
	}
	fmt.Fprintf(w, "predicted the %d graphs without a class label:\n", len(predicted))
	for _, p := range predicted[:min(len(predicted), shownPredictions)] {
		fmt.Fprintf(w, "  %s\t%v\n", p.Graph, p.Predicted)
	}
	if len(predicted) > shownPredictions {
		fmt.Fprintf(w, "  … and %d more (--predictions writes every graph's, --json lists them all)\n", len(predicted)-shownPredictions)
	}
}
