package crossval

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteText writes the report as `gwf semisup --method lambda-svm` prints it: the protocol and
// the GWF settings, a table of the folds (or the split), the mean ± std and, with the labelled
// graphs alone, what the unlabelled graphs added.
func (rep *LambdaSVMReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s: %d graphs, %d classes; %s\nnode features: %s; %s\nGWF training: %.0f s\n\n", rep.Dataset, rep.Graphs, rep.Classes, rep.Protocol,
		rep.Features, rep.Config.Describe(), rep.FitSeconds)
	row := "%s\t%d\t%.2f\t%d\t%g\t%g\t%.2f\t\n"
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "fold\ttest graphs\taccuracy %\tepoch\tγ\tC\tinner accuracy %\t")
	for _, r := range rep.Folds {
		fmt.Fprintf(tw, row, fmt.Sprint(r.Fold), r.Test, 100*r.Accuracy, r.Epoch, r.Gamma, r.C, 100*r.ValidationAccuracy)
	}
	if r := rep.Split; r != nil {
		name := "split"
		if rep.Unscored > 0 {
			name = "unlabelled (not scored)"
		}
		fmt.Fprintf(tw, row, name, r.Test, 100*r.Accuracy, r.Epoch, r.Gamma, r.C, 100*r.ValidationAccuracy)
	}
	if r := rep.LabelsAlone; r != nil {
		fmt.Fprintf(tw, row, "labels alone", r.Test, 100*r.Accuracy, r.Epoch, r.Gamma, r.C, 100*r.ValidationAccuracy)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(rep.Folds) > 0 {
		if err := rep.Confusion.writeText(w); err != nil {
			return err
		}
		_, err := fmt.Fprintf(w, "\naccuracy: %.1f ± %.1f %% (mean ± std over %d folds)\n", 100*rep.Accuracy.Mean, 100*rep.Accuracy.Std, len(rep.Folds))
		return err
	}
	if rep.Unscored > 0 {
		_, err := fmt.Fprintf(w, "\n%d graphs labelled, %d predicted\n", rep.Labeled, rep.Unscored)
		return err
	}
	fmt.Fprintf(w, "\naccuracy: %.1f %% on the %d graphs whose labels were hidden (%d labelled)\n", 100*rep.Accuracy.Mean, rep.Split.Test, rep.Labeled)
	if r := rep.LabelsAlone; r != nil {
		fmt.Fprintf(w, "the same model fitted on the labelled graphs alone: %.1f %%; the unlabelled graphs added %+.1f points\n", 100*r.Accuracy, 100*(rep.Accuracy.Mean-r.Accuracy))
	}
	return nil
}
