package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/training/trainflags"
)

type predictFlags struct {
	data   dataFlags
	model  string
	output string
	json   bool
	embed  modelFlags // transform mode: --steps, --transform, --workers
}

func newPredictCmd(a *app) *cobra.Command {
	var f predictFlags
	cmd := &cobra.Command{
		Use:   "predict --model FILE (--dataset NAME | --tu DIR|FILE.zip | --graphs DIR)",
		Short: "Classify graphs with a classifier saved by 'gwf classify' or 'gwf semisup' (--output)",
		Long: `predict reads a classifier written by 'gwf classify' or 'gwf semisup' --labeled-fraction 1 --output FILE
and predicts the class of every graph of the data; where the data have class labels it also
reports the accuracy and, per class, the graphs, those right and those predicted as it (the
"score" of --json, logged otherwise).

A classifier of 'gwf classify' (an SVM on FGW discrepancies) keeps its support graphs: each graph is compared
with them by the FGW discrepancy the classifier chose (structure, feature weight) and the SVM
decides, exactly as cross-validation scored held-out graphs. Its CSV has no probability
columns.

A template classifier of 'gwf semisup' (its default model) compares each graph with its
templates by FGW, as in training, and its MLP decides.

A classifier of 'gwf semisup --method gwf' holds GWF atoms and an MLP head. Graphs the model
was not trained on are embedded by the classifier's graph encoder (--encoder gin|gcn: one forward
pass, milliseconds for hundreds of graphs) or, for free embeddings, in transform mode: each
graph's z takes --steps Adam steps on its own GWF loss with the atoms fixed, as 'gwf embed'
does. The model's own training data are
recognised by their fingerprint and read from the trained embeddings (--transform embeds them
anew). Node features are read as the training data's were: the classifier keeps their kind
(--features), the one-hot node-label values and the standardization's means and scales, and
applies them to the new graphs (a node label never seen in training gets a zero one-hot row,
with a warning); --features and --standardize need not be given again.

It writes CSV (graph,label,predicted,p_<label>...: the graph's name, its class in the data when
known, the prediction, the probabilities) or, with --json, {"predictions": [{"graph": NAME,
"index": i, "label": L, "predicted": P, "probabilities": [...]}, ...]}, labels in the data's own
encoding (MUTAG's -1 and 1, say) and probabilities in that order ("classes" lists it).`,
		Example: `  gwf classify --dataset MUTAG --labeled-fraction 1 --output mutag.classifier
  gwf predict --model mutag.classifier --tu ./new-graphs --json
  gwf predict --model mutag.classifier --tu ./new-graphs --steps 20 --output predictions.csv`,
		Annotations: cli.Interruptible("no predictions written"),
		Args:        cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPredict(cmd, a, &f)
		},
	}
	fs := cmd.Flags()
	f.data.register(fs)
	modelFlag(fs, &f.model, "classifier file written by 'gwf classify --output' (required)")
	outputFlag(fs, &f.output, "-", "output file (- for stdout)")
	jsonFlag(fs, &f.json, "the predictions (instead of CSV)")
	trainflags.RegisterWorkers(fs, &f.embed.workers, "goroutines of transform mode or of the discrepancies")
	f.embed.register(fs)
	return cmd
}

func runPredict(cmd *cobra.Command, a *app, f *predictFlags) error {
	if f.model == "" {
		return cli.Usagef("--model FILE is required")
	}
	if err := f.data.check(); err != nil {
		return err
	}
	if f.embed.steps < 0 || f.embed.workers < 0 {
		return cli.Usagef("--steps and --workers must not be negative")
	}
	c, err := crossval.LoadClassifier(f.model)
	if err != nil {
		return err
	}
	if c.GWF == nil && (cli.Changed(cmd.Flags(), "steps") || f.embed.transform) {
		return cli.Usagef("--steps and --transform are for GWF classifiers: an fgw-svm or template classifier compares graphs directly")
	}
	if err := f.data.useModelFeatures(a.Log, c.Features()); err != nil {
		return err
	}
	f.data.PartialLabels = graphs.PartialLabelsKept // the labelled graphs are scored, the others predicted alike
	ds, err := f.data.load(a.Log)
	if err != nil {
		return err
	}
	warnUnknownNodeLabels(a.Log, ds.UnknownNodeLabels)
	if c.GWF != nil {
		if dim := ds.Graphs[0].Dim(); dim != c.GWF.GWF.Dim() {
			return fmt.Errorf("predict: %s", featureHint(c.GWF.GWF.Dim(), dim))
		}
	}
	rep, err := c.Predict(cmd.Context(), ds, crossval.PredictOptions{Workers: f.embed.workers, Observe: a.observer("predicting", nil),
		Steps: f.embed.steps, Transform: f.embed.transform, Limits: f.data.Limits()})
	if err != nil {
		return err
	}
	return f.write(cmd.OutOrStdout(), a, rep)
}

// write logs the score of the predictions, where the data have class labels, and writes them
// as CSV or JSON.
func (f *predictFlags) write(stdout io.Writer, a *app, rep *crossval.Predictions) error {
	if s := rep.Score; s != nil {
		a.Log.Infof("accuracy on the %d labelled graphs: %.2f%% (%d right)", s.Graphs, 100*s.Accuracy, s.Correct)
		for _, c := range s.PerClass {
			a.Log.Infof("class %s: %d graphs, %d predicted right; %d graphs predicted as it", c.Label, c.Graphs, c.Correct, c.Predicted)
		}
	}
	return cli.WriteOutput(stdout, f.output, func(w io.Writer) error {
		if f.json {
			return cli.WriteJSON(w, rep)
		}
		return rep.WriteCSV(w)
	})
}
