package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/cluster"
)

type classifyFlags struct {
	data       dataFlags
	train      trainFlags
	folds      int
	foldSeed   uint64
	beta       float64
	hidden     string
	activation string
	input      string
	detach     bool
	head       semisup.HeadTraining
	fraction   float64
	output     string
	model      string
	resume     bool
	json       bool
	quiet      bool
}

func newClassifyCmd(a *app) *cobra.Command {
	var f classifyFlags
	d := semisup.DefaultConfig()
	cmd := &cobra.Command{
		Use:   "classify (--dataset NAME | --tu DIR)",
		Short: "Semi-supervised GWF: classify graphs with an MLP head trained jointly with the model",
		Long: `classify trains GWF models with a classifier head on the embeddings (the paper's eq. ssl:
the GWF loss plus beta times the head's cross-entropy on the labelled graphs, one Gorgonia graph
and one backward pass per mini-batch) and scores its predictions. After the joint epochs the head
alone is trained to convergence on the final embeddings (--head-steps full-batch Adam steps; 0
turns this off): during them it gets only one step per mini-batch.

By default it runs stratified --folds cross-validation (the paper's Table 2 protocol): for each
fold, a model is trained on all graphs with the labels of the other folds, the held-out graphs
taking part in the GWF term unlabelled, and the head's predictions on the held-out fold are
scored. It prints the accuracy per fold and the mean ± std, and, as a diagnostic only, the mean
of each fold's best held-out accuracy over the epochs: the authors' code reports that number,
which is chosen on the held-out labels and so overstates the accuracy on new graphs.

With --labeled-fraction p it instead keeps the labels of a stratified random fraction p of the
graphs (seeded by --fold-seed), trains once and scores the predictions on the other graphs;
--output writes every graph's prediction as CSV.

Training flags are those of 'gwf fit' (the paper's defaults).`,
		Example: `  gwf classify --dataset MUTAG --folds 10
  gwf classify --dataset PROTEINS --folds 10 --beta 0.1 --hidden 64,32 --json
  gwf classify --dataset MUTAG --labeled-fraction 0.3 --output predictions.csv`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runClassify(cmd, a, &f)
		},
	}
	fs := cmd.Flags()
	f.data.register(fs)
	f.train.register(fs)
	fs.IntVar(&f.folds, "folds", 10, "cross-validation folds")
	fs.Uint64Var(&f.foldSeed, "fold-seed", 1, "seed of the fold split (and of the --labeled-fraction choice)")
	fs.Float64Var(&f.beta, "beta", d.Beta, "weight β of the classification loss")
	fs.StringVar(&f.hidden, "hidden", "32", `hidden layer sizes of the head, comma-separated ("" or 0: a linear head)`)
	fs.StringVar(&f.activation, "activation", d.Activation, "activation of the hidden layers: relu or tanh")
	fs.StringVar(&f.input, "head-input", d.Input, "what the head reads: centered (z minus its mean: the identifiable part of z), lambda (softmax(z)) or z (the raw embedding, as eq. ssl)")
	fs.BoolVar(&f.detach, "detach", false, "stop the classification gradient at the embeddings: the labels train the head only (eq. ssl lets them move z)")
	fs.IntVar(&f.head.Steps, "head-steps", d.Head.Steps, "after the joint epochs, train the head alone on the final embeddings for this many full-batch Adam steps (0: not at all)")
	fs.Float64Var(&f.head.LearningRate, "head-lr", d.Head.LearningRate, "learning rate of those head steps")
	fs.Float64Var(&f.head.WeightDecay, "head-decay", d.Head.WeightDecay, "weight decay (L2 on the head's weights) of those head steps")
	fs.Float64Var(&f.fraction, "labeled-fraction", 0, "train once with this fraction of labelled graphs and score the rest (instead of --folds)")
	fs.StringVar(&f.output, "output", "", "with --labeled-fraction: write every graph's prediction as CSV to this file")
	fs.StringVar(&f.model, "model", "", "with --labeled-fraction: write the model (atoms, embeddings, head) to this file after every epoch")
	fs.BoolVar(&f.resume, "resume", false, "with --model: continue training the model in that file (exactly where it stopped)")
	fs.BoolVar(&f.json, "json", false, "print the report as JSON")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "do not log progress")
	return cmd
}

// parseHidden reads "64,32" (or "" / "0" for none).
func parseHidden(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		return nil, nil
	}
	var out []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--hidden: %q is not a list of positive layer sizes", s)
		}
		if n > semisup.MaxHiddenUnits {
			return nil, fmt.Errorf("--hidden: a layer of %d units, more than %d", n, semisup.MaxHiddenUnits)
		}
		out = append(out, n)
	}
	if len(out) > semisup.MaxHiddenLayers {
		return nil, fmt.Errorf("--hidden: %d layers, more than %d", len(out), semisup.MaxHiddenLayers)
	}
	return out, nil
}

type classifyReport struct {
	Dataset  string               `json:"dataset"`
	Graphs   int                  `json:"graphs"`
	Classes  int                  `json:"classes"`
	Protocol string               `json:"protocol"`
	Semisup  semisup.Config       `json:"semisup"`
	Config   training.Config      `json:"config"`
	Folds    []semisup.FoldResult `json:"folds,omitempty"`
	Accuracy meanStd              `json:"accuracy"`
	Labeled  int                  `json:"labeled,omitempty"`
	History  []semisup.EpochStats `json:"history,omitempty"`
}

func runClassify(cmd *cobra.Command, a *app, f *classifyFlags) error {
	flags := cmd.Flags()
	a.quiet(flags, f.quiet)
	if err := f.data.check(); err != nil {
		return err
	}
	hidden, err := parseHidden(f.hidden)
	if err != nil {
		return usagef("%v", err)
	}
	sc := semisup.Config{Beta: f.beta, Hidden: hidden, Activation: f.activation, Input: f.input, Detach: f.detach, Head: f.head}
	if err := sc.Validate(); err != nil {
		return usagef("%v", err)
	}
	if !(f.fraction >= 0 && f.fraction < 1) {
		return usagef("--labeled-fraction = %v must be in (0, 1)", f.fraction)
	}
	if (f.output != "" || f.model != "") && f.fraction == 0 {
		return usagef("--output and --model need --labeled-fraction")
	}
	if f.resume && f.model == "" {
		return usagef("--resume needs --model")
	}
	cfg, warnings, err := f.train.config(flags)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		a.log.Warn(w)
	}
	ds, err := f.data.load()
	if err != nil {
		return err
	}
	data := ds.Graphs
	labels, k, err := classes(data)
	if err != nil {
		return err
	}
	if err := f.train.resolveFeatureWeight(&cfg, data, a.log); err != nil {
		return err
	}
	if f.fraction == 0 && (f.folds < 2 || f.folds > len(data)) {
		return usagef("--folds = %d must be between 2 and the number of graphs (%d)", f.folds, len(data))
	}
	if err := checkModelSize(cfg, data); err != nil {
		return err
	}
	classesN := max(k, len(ds.Classes))
	rep := &classifyReport{Dataset: ds.Name, Graphs: len(data), Classes: classesN, Semisup: sc, Config: cfg}
	ctx, stop := withSignals(cmd.Context(), a.log)
	defer stop()
	p := newProgress(a.log, "training", nil)
	opt := semisup.Options{Workers: f.train.workers, Progress: p.callback(f.quiet)}
	if f.fraction > 0 {
		return classifyFraction(cmd, a, f, rep, data, labels, classesN, cfg, sc, opt)
	}
	rep.Protocol = fmt.Sprintf("stratified %d-fold cross-validation (fold seed %d); held-out graphs unlabelled in the GWF term", f.folds, f.foldSeed)
	a.log.Infof("classifying %s (%d graphs, %d classes): %d folds, β=%g, hidden %v, %s", ds.Name, len(data), classesN, f.folds, sc.Beta, hidden, describeConfig(cfg))
	res, err := semisup.CrossValidate(ctx, data, labels, classesN, cfg, sc, semisup.CVOptions{
		Folds: f.folds, Seed: f.foldSeed, Options: opt,
		FoldDone: func(r semisup.FoldResult) {
			a.log.Infof("fold %d/%d: accuracy %.2f%% on %d graphs (labelled graphs: %.2f%%; predicted per class %v; %.0f s)",
				r.Fold, f.folds, 100*r.Accuracy, r.Test, 100*r.TrainAccuracy, r.Predicted, r.Seconds)
		},
	})
	if err != nil {
		if ctx.Err() != nil {
			return interruptedError{"interrupted"}
		}
		return err
	}
	rep.Folds = res
	m, s := semisup.MeanStd(res)
	rep.Accuracy = meanStd{Mean: m, Std: s}
	return writeClassify(cmd.OutOrStdout(), f.json, rep)
}

// classifyFraction trains once with a stratified fraction of labels and scores the rest.
func classifyFraction(cmd *cobra.Command, a *app, f *classifyFlags, rep *classifyReport, data []*graphs.Graph, labels []int, classesN int, cfg training.Config, sc semisup.Config, opt semisup.Options) error {
	train := semisup.KeepLabels(labels, f.fraction, f.foldSeed)
	n := 0
	for _, l := range train {
		if l != semisup.Unlabeled {
			n++
		}
	}
	rep.Protocol = fmt.Sprintf("%.0f%% of the labels kept (stratified, seed %d); accuracy on the other graphs", 100*f.fraction, f.foldSeed)
	rep.Labeled = n
	var m *semisup.Model
	var err error
	if f.resume {
		if m, err = semisup.Load(f.model); err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		if changed(cmd.Flags(), "epochs") {
			m.GWF.Config.Epochs = cfg.Epochs
		}
		if r, _ := m.GWF.Z.Dims(); r != len(data) || m.Head.Classes() != classesN {
			return fmt.Errorf("resume: %s holds a model of %d graphs and %d classes, the data has %d and %d", f.model, r, m.Head.Classes(), len(data), classesN)
		}
		a.log.Infof("resuming %s after epoch %d of %d", f.model, len(m.History), m.GWF.Config.Epochs)
	} else if m, err = semisup.NewModel(data, classesN, cfg, sc); err != nil {
		return err
	}
	if f.model != "" {
		opt.EpochDone = func(m *semisup.Model) error { return m.Save(f.model) }
	}
	ctx, stop := withSignals(cmd.Context(), a.log)
	defer stop()
	if err := semisup.Fit(ctx, m, data, train, opt); err != nil {
		if ctx.Err() != nil {
			return interruptedError{"interrupted"}
		}
		return err
	}
	pred := m.Predict()
	var truth, got []int
	for i, l := range train {
		if l == semisup.Unlabeled {
			truth, got = append(truth, labels[i]), append(got, pred[i])
		}
	}
	ok := 0
	for i := range truth {
		if truth[i] == got[i] {
			ok++
		}
	}
	rep.Accuracy = meanStd{Mean: float64(ok) / float64(len(truth))}
	rep.History = m.History
	if f.output != "" {
		err := writeOutput(nil, f.output, func(w io.Writer) error {
			cw := csv.NewWriter(w)
			cw.Write([]string{"graph", "label", "predicted", "labelled_in_training"})
			for i, g := range data {
				cw.Write([]string{g.Name, strconv.Itoa(labels[i]), strconv.Itoa(pred[i]), strconv.FormatBool(train[i] != semisup.Unlabeled)})
			}
			cw.Flush()
			return cw.Error()
		})
		if err != nil {
			return err
		}
	}
	return writeClassify(cmd.OutOrStdout(), f.json, rep)
}

func writeClassify(w io.Writer, asJSON bool, rep *classifyReport) error {
	if asJSON {
		return writeJSON(w, rep)
	}
	fmt.Fprintf(w, "%s: %d graphs, %d classes; %s\nhead: β = %g, hidden %v, %s; %s\n\n", rep.Dataset, rep.Graphs, rep.Classes, rep.Protocol,
		rep.Semisup.Beta, rep.Semisup.Hidden, rep.Semisup.Activation, describeConfig(rep.Config))
	if len(rep.Folds) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "fold\ttest graphs\taccuracy %\ton labelled graphs %\tseconds\t")
		for _, r := range rep.Folds {
			fmt.Fprintf(tw, "%d\t%d\t%.2f\t%.2f\t%.1f\t\n", r.Fold, r.Test, 100*r.Accuracy, 100*r.TrainAccuracy, r.Seconds)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		xs := make([]float64, len(rep.Folds))
		for i, r := range rep.Folds {
			xs[i] = r.Accuracy
		}
		if _, err := fmt.Fprintf(w, "\naccuracy: %s %% (mean ± std over %d folds)\n", cluster.FormatMeanStd(xs, 100), len(rep.Folds)); err != nil {
			return err
		}
		if last := semisup.LastEpoch(rep.Folds); len(last) > 0 {
			fmt.Fprintf(w, "the joint head after the last epoch, before it is trained alone (--head-steps 0): %s %%\n", cluster.FormatMeanStd(last, 100))
		}
		if best := semisup.BestEpoch(rep.Folds); len(best) > 0 {
			_, err := fmt.Fprintf(w, "diagnostic, not a result: the best epoch's held-out accuracy, chosen on the held-out labels as the authors' code does: %s %%\n", cluster.FormatMeanStd(best, 100))
			return err
		}
		return nil
	}
	_, err := fmt.Fprintf(w, "accuracy on the %d unlabelled graphs: %.2f %% (%d labelled)\n", rep.Graphs-rep.Labeled, 100*rep.Accuracy.Mean, rep.Labeled)
	return err
}
