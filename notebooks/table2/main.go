// Command table2 reproduces Table 2 of the paper — 10-fold semi-supervised classification
// accuracy of GWF — and shows how the accuracy moves with the fraction of labelled graphs. It
// writes report.md, table2.csv, fractions.csv and fractions.png to --output-dir. Every finished fold is
// kept in OUT/cells/DATASET-SOLVER[-FEATURES]/fold<f>.json with the data and settings it ran
// under, and the fold in training after each of its epochs: rerun after an interruption and the
// folds already done with the same settings are reused, the one interrupted resumed. Node features
// follow nb.DefaultFeatures (PROTEINS with its attribute standardized and balanced, IMDB-BINARY without).
// By default the protocol is nested (--nested): a validation split of each fold's labels chooses
// the stopping epoch, and the β = 0 head and a logistic regression on the unsupervised λ are
// scored on the same folds; --cv-seeds repeats it with other fold splits and model seeds, and
// --encoders compares free z with graph encoders (GIN or GCN, with or without the GWF term).
//
//	go run ./notebooks/table2 --output-dir results/table2       # PROTEINS and IMDB-BINARY, both solvers; fractions on MUTAG
//	go run ./notebooks/table2 --output-dir docs/results/table2-nested --datasets MUTAG --solvers ppa --cv-seeds 3 --fractions-dataset ""
//	go run ./notebooks/table2 --output-dir /tmp/t2 --datasets MUTAG --solvers ppa --encoders none,gin,gin-alone --fractions-dataset ""
//	go run ./notebooks/table2 --output-dir /tmp/t2 --datasets MUTAG --solvers ppa --folds 3 --subset 60 --epochs 2 --atoms 4 --layers 10 --fractions 0.2,0.6 --seeds 1
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/notebooks/internal/nb"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/experiment"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/cluster"
	"github.com/gwf-graphs/gwf/training/plot"
)

type options struct {
	datasets, solvers []string
	features          nb.Features
	folds, subset     int
	epochs, atoms     int
	layers            int
	beta              float64
	input             string
	detach            *bool // nil: the embedding's default (semisup.DefaultDetach)
	fractionsData     string
	fractions         []float64
	seeds             int
	out               string
	// The nested protocol (experiment.CVOptions.Select and Baselines).
	nested     bool
	validation float64
	refit      bool
	unsup      bool // the β = 0 head a candidate too (experiment.Selection.Unsupervised)
	cvSeeds    int
	// variants are the embeddings compared by the nested table (see withVariant).
	variants []string
}

// paper is the paper's Table 2 (GWF rows), in %.
var paper = map[string]map[string]string{
	"ppa":   {"PROTEINS": "73.7 ± 2.0", "IMDB-BINARY": "63.9 ± 2.7"},
	"badmm": {"PROTEINS": "71.4 ± 3.6", "IMDB-BINARY": "62.4 ± 3.8"},
}

func main() {
	var o options
	var ds, solvers, features, fr, variants string
	fs := nb.NewFlagSet("table2")
	fs.StringVar(&ds, "datasets", "PROTEINS,IMDB-BINARY", "comma-separated datasets for the 10-fold table (empty: skip it)")
	fs.StringVar(&solvers, "solvers", "ppa,badmm", "comma-separated GWD modules")
	fs.StringVar(&features, "features", nb.DefaultFeatures, "node features per dataset, DATASET=none|labels|attributes|attributes-std|attributes-bal, comma-separated (unlisted: none)")
	fs.IntVar(&o.folds, "folds", 10, "cross-validation folds")
	fs.IntVar(&o.subset, "subset", 0, "graphs per dataset (0: all)")
	def := training.DefaultConfig() // the paper's settings
	fs.IntVar(&o.epochs, "epochs", def.Epochs, "training epochs")
	fs.IntVar(&o.atoms, "atoms", def.Atoms, "atoms K")
	fs.IntVar(&o.layers, "layers", def.Layers, "GWD layers M")
	fs.Float64Var(&o.beta, "beta", semisup.DefaultConfig().Beta, "weight of the classification loss")
	detach := fs.Bool("detach", semisup.DefaultConfig().Detach, "stop the classification gradient at the embeddings: the labels train the head alone (false by default with an encoder: semisup.DefaultDetach)")
	fs.StringVar(&o.input, "head-input", string(semisup.DefaultConfig().Input), "what the head reads: centered, lambda or z")
	fs.StringVar(&o.fractionsData, "fractions-dataset", "MUTAG", "dataset of the labelled-fraction study (empty: skip it)")
	fs.StringVar(&fr, "fractions", "0.05,0.1,0.3,0.6,0.9", "labelled fractions")
	fs.IntVar(&o.seeds, "seeds", 3, "seeds per labelled fraction")
	nb.OutputDir(fs, &o.out, "results/table2")
	fs.BoolVar(&o.nested, "nested", true, "nested protocol: a validation split of each fold's labels chooses the epoch; the β = 0 head and logistic regression on the unsupervised λ are scored on the same folds (false: fixed settings, last epoch)")
	fs.Float64Var(&o.validation, "validation", experiment.DefaultValidation, "nested protocol: fraction of each fold's labelled graphs held out for validation")
	fs.BoolVar(&o.refit, "refit", false, "nested protocol: retrain the chosen settings on all the fold's labels")
	fs.BoolVar(&o.unsup, "select-unsupervised", true, "nested protocol: the β = 0 head is a candidate too, kept where it scores better on the validation split (as gwf classify)")
	fs.StringVar(&variants, "encoders", "none", "nested protocol: comma-separated embeddings to compare: none (free z, the paper's model), gin, gcn (a graph encoder trained through the GWF term and the labels), gin-alone, gcn-alone (the encoder on the labels alone: what the GWF term adds)")
	fs.IntVar(&o.cvSeeds, "cv-seeds", 1, "cross-validation repeats: seed s sets the fold split, the validation split and the model's seed")
	fs.Parse(os.Args[1:])
	o.datasets, o.solvers, o.variants = splitList(ds), splitList(solvers), splitList(variants)
	if fs.Changed("detach") {
		o.detach = detach
	}
	var err error
	if o.features, err = nb.ParseFeatures(features); err != nil {
		fmt.Fprintln(os.Stderr, "table2: --features:", err)
		os.Exit(2)
	}
	for _, s := range splitList(fr) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "table2: --fractions:", err)
			os.Exit(2)
		}
		o.fractions = append(o.fractions, v)
	}
	if err := run(context.Background(), o, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "table2:", err)
		os.Exit(1)
	}
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func (o options) config(solver string, seed uint64, featureWeight float64) training.Config {
	c := training.DefaultConfig().WithSolverDefaults(layers.SolverName(solver))
	c.Epochs, c.Atoms, c.Layers, c.Seed, c.FeatureWeight = o.epochs, o.atoms, o.layers, seed, featureWeight
	return c
}

// load reads dataset name as features say, with its labels and the feature weight to train with.
func load(name string, subset int, features nb.Features) (*graphs.Dataset, []int, float64, error) {
	ds, weight, err := features.Load(name, subset)
	if err != nil {
		return nil, nil, 0, err
	}
	labels := make([]int, len(ds.Graphs))
	for i, g := range ds.Graphs {
		labels[i] = g.Label
	}
	return ds, labels, weight, nil
}

func run(ctx context.Context, o options, log io.Writer) error {
	if o.cvSeeds == 0 {
		o.cvSeeds = 1
	}
	if o.folds < 2 || o.epochs < 1 || o.atoms < 1 || o.layers < 1 || o.seeds < 1 || o.subset < 0 || o.cvSeeds < 1 {
		return errors.New("need --folds ≥ 2, --epochs, --atoms, --layers, --seeds, --cv-seeds ≥ 1, --subset ≥ 0")
	}
	if o.nested && !(o.validation > 0 && o.validation < 1) {
		return fmt.Errorf("--validation = %v not in (0, 1)", o.validation)
	}
	if len(o.variants) == 0 {
		o.variants = []string{string(semisup.EncoderNone)}
	}
	for _, v := range o.variants {
		if _, err := withVariant(semisup.DefaultConfig(), v, nil); err != nil {
			return err
		}
	}
	if !o.nested && (len(o.variants) > 1 || o.variants[0] != string(semisup.EncoderNone)) {
		return errors.New("--encoders needs the nested protocol")
	}
	for _, f := range o.fractions {
		if !(f > 0 && f < 1) {
			return fmt.Errorf("fraction %v not in (0, 1)", f)
		}
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	sc := semisup.DefaultConfig()
	sc.Beta = o.beta
	if o.input != "" {
		sc.Input = semisup.Input(o.input)
	}
	detachFlag := "" // the default, DefaultDetach of each embedding
	if o.detach != nil {
		sc.Detach = *o.detach
		detachFlag = fmt.Sprintf(" --detach=%v", sc.Detach)
	}
	rep := nb.NewReport("Table 2: semi-supervised classification accuracy (%)",
		fmt.Sprintf("go run ./notebooks/table2 --output-dir %s --datasets %q --solvers %s --features %q --folds %d --subset %d --epochs %d --atoms %d --layers %d --beta %g --head-input %s%s --fractions-dataset %q --fractions %s --seeds %d --nested=%v --validation %g --refit=%v --select-unsupervised=%v --cv-seeds %d --encoders %s",
			o.out, strings.Join(o.datasets, ","), strings.Join(o.solvers, ","), o.features.Describe(o.datasets), o.folds, o.subset, o.epochs, o.atoms, o.layers, o.beta, sc.Input, detachFlag, o.fractionsData, joinFloats(o.fractions), o.seeds, o.nested, o.validation, o.refit, o.unsup, o.cvSeeds, strings.Join(o.variants, ",")))
	rep.Printf("GWF (K = %d, M = %d, L = 2, %d epochs) with an MLP head (hidden %v, %s, reading "+string(sc.Input)+"), β = %g, trained jointly%s; then the head alone, %d full-batch Adam steps on the final embeddings. Stratified %d-fold cross-validation: the held-out fold's graphs are in the GWF term without labels (transductive); accuracy on the held-out fold, mean ± std over folds.\n\n",
		o.atoms, o.layers, o.epochs, sc.Hidden, sc.Activation, sc.Beta, map[bool]string{true: " (the cross-entropy detached from the free z: it trains the head alone)", false: ""}[sc.Detach], sc.Head.Steps, o.folds)
	if o.nested {
		rep.Printf("Nested protocol, %d repeat(s) (seed s: fold split, validation split and model seed): in each fold a stratified %.0f%% of the labelled graphs is held out as well and chooses the stopping epoch (the head trained alone on every epoch's embeddings, the best validation accuracy kept%s%s); the held-out fold is scored once. On the same folds: the same head on the same model trained without labels (β = 0: GWF for free z, the encoder trained by the GWF term alone for an encoder; its epoch chosen on the same validation split) and a multinomial logistic regression on that model's λ (C from {0.01, 0.1, 1, 10, 100} by 5-fold cross-validation on the fold's training graphs). Mean ± std over folds × repeats.\n\n",
			o.cvSeeds, 100*o.validation, map[bool]string{true: ", then refitted on all the fold's labels", false: ""}[o.refit],
			map[bool]string{true: "; the β = 0 head below is a candidate too, kept where it scores better on validation", false: ""}[o.unsup])
		return o.runNested(ctx, sc, rep, log)
	}
	var csv strings.Builder
	csv.WriteString("dataset,solver,fold,test_graphs,accuracy,train_accuracy,seconds\n")
	if len(o.datasets) > 0 {
		header, rows := o.paperRows()
		for _, s := range o.solvers {
			row := []string{"gwf " + strings.ToUpper(s)}
			fit := []string{"gwf " + strings.ToUpper(s) + ", on the labelled graphs"}
			last := []string{"gwf " + strings.ToUpper(s) + ", the joint head after the last epoch (--head-steps 0)"}
			best := []string{"gwf " + strings.ToUpper(s) + ", best epoch chosen on the held-out fold (the authors' rule; a diagnostic, optimistic)"}
			for _, d := range o.datasets {
				res, err := o.crossValidate(ctx, d, s, sc, 1, false, log)
				if err != nil {
					return fmt.Errorf("%s, %s: %w", d, s, err)
				}
				xs := make([]float64, len(res))
				var train []float64 // folds saved before the field existed lack it
				for i, r := range res {
					xs[i] = r.Accuracy
					trainCSV := "" // unknown
					if r.Predicted != nil {
						train = append(train, r.TrainAccuracy)
						trainCSV = fmt.Sprintf("%.6f", r.TrainAccuracy)
					}
					fmt.Fprintf(&csv, "%s,%s,%d,%d,%.6f,%s,%.1f\n", d, s, r.Fold, r.Test, r.Accuracy, trainCSV, r.Seconds)
				}
				row = append(row, cluster.FormatMeanStd(xs, 100))
				fit = append(fit, foldsCell(train))
				last = append(last, foldsCell(experiment.LastEpoch(res)))
				best = append(best, foldsCell(experiment.BestEpoch(res)))
			}
			rows = append(rows, row, fit, last, best)
		}
		rep.Table(header, rows)
	}
	if err := nb.WriteFile(filepath.Join(o.out, "table2.csv"), []byte(csv.String())); err != nil {
		return err
	}
	if o.fractionsData != "" && len(o.fractions) > 0 {
		if err := fractions(ctx, o, sc, rep, log); err != nil {
			return err
		}
	}
	return rep.Save(o.out)
}

// foldsCell shows per-fold accuracies that only some folds have as mean ± std (in %) with their
// count, "–" when none has one.
func foldsCell(xs []float64) string {
	if len(xs) == 0 {
		return "–"
	}
	return fmt.Sprintf("%s (%d folds)", cluster.FormatMeanStd(xs, 100), len(xs))
}

// fractions trains with a stratified fraction of the labels (several seeds) and scores the
// predictions on the unlabelled graphs.
func fractions(ctx context.Context, o options, sc semisup.Config, rep *nb.Report, log io.Writer) error {
	ds, labels, weight, err := load(o.fractionsData, o.subset, o.features)
	if err != nil {
		return err
	}
	var csv strings.Builder
	csv.WriteString("fraction,seed,labelled,accuracy\n")
	var xs, mean, std []float64
	var rows [][]string
	for _, f := range o.fractions {
		var accs []float64
		for s := 1; s <= o.seeds; s++ {
			train := semisup.KeepLabels(labels, f, uint64(s))
			m, err := semisup.NewModel(ds.Graphs, len(ds.Classes), o.config("ppa", uint64(s), weight), sc)
			if err != nil {
				return err
			}
			fmt.Fprintf(log, "table2: %s, %.0f%% labelled, seed %d\n", ds.Name, 100*f, s)
			if err := semisup.Fit(ctx, m, ds.Graphs, train, semisup.Options{}); err != nil {
				return err
			}
			acc, held := experiment.HeldOutAccuracy(labels, train, m.Predict(), false)
			labelled := len(labels) - held
			accs = append(accs, acc)
			fmt.Fprintf(&csv, "%g,%d,%d,%.6f\n", f, s, labelled, acc)
		}
		mu, sd := cluster.MeanStd(accs)
		xs, mean, std = append(xs, 100*f), append(mean, 100*mu), append(std, 100*sd)
		rows = append(rows, []string{fmt.Sprintf("%.0f%%", 100*f), cluster.FormatMeanStd(accs, 100)})
	}
	if err := nb.WriteFile(filepath.Join(o.out, "fractions.csv"), []byte(csv.String())); err != nil {
		return err
	}
	if err := nb.SavePNG(filepath.Join(o.out, "fractions.png"), func(w io.Writer) error {
		return plot.Lines(w, ds.Name+": accuracy vs labelled fraction", "labelled graphs (%)", "accuracy on the unlabelled graphs (%)", false,
			[]plot.Series{{Name: "GWF-PPA + MLP", X: xs, Y: mean, Err: std}})
	}); err != nil {
		return err
	}
	rep.Printf("## Accuracy vs labelled fraction (%s, %d graphs, PPA, %d seeds)\n\nA stratified random fraction of the graphs keeps its labels (seeded); the others are unlabelled in training and scored.\n\n![fractions](fractions.png)\n\n", ds.Name, len(ds.Graphs), o.seeds)
	rep.Table([]string{"labelled", "accuracy on the rest (%)"}, rows)
	return nil
}

// crossValidate runs the cell's folds, reusing those OUT/cells/NAME already holds for the same
// data and settings, and saving each new one as soon as it ends (experiment.CVOptions.Dir).
func (o options) crossValidate(ctx context.Context, d, solver string, sc semisup.Config, seed uint64, baselines bool, log io.Writer) ([]experiment.FoldResult, error) {
	ds, labels, weight, err := load(d, o.subset, o.features)
	if err != nil {
		return nil, err
	}
	cfg := o.config(solver, seed, weight)
	var sel *experiment.Selection
	name := o.features.CellName(d, solver)
	if v := variantName(sc); v != string(semisup.EncoderNone) {
		name += "-" + v
	}
	if o.nested {
		sel = &experiment.Selection{Validation: o.validation, Candidates: []semisup.Config{sc}, Refit: o.refit, Seed: seed, Unsupervised: o.unsup && !sc.NoGWF}
		name += fmt.Sprintf("-nested-seed%d", seed)
	}
	fmt.Fprintf(log, "table2: %s, %s: %d folds\n", d, solver, o.folds)
	rep, err := experiment.CrossValidateGWF(ctx, ds, labels, len(ds.Classes), cfg, sc, experiment.GWFSpec{CVOptions: experiment.CVOptions{
		Folds: o.folds, Seed: seed, Select: sel, Baselines: baselines, Dir: filepath.Join(o.out, "cells", name),
		Options: semisup.Options{Observe: func(e training.Event) {
			if e.Message != "" {
				fmt.Fprintf(log, "table2: %s, %s: %s\n", d, solver, e.Message)
			}
		}},
	}})
	if err != nil {
		return nil, err
	}
	return rep.Folds, nil
}

func joinFloats(xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.FormatFloat(x, 'g', -1, 64))
	}
	return strings.Join(s, ",")
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// paperRows are the table's header (one column per dataset, with its features) and the paper's
// rows, one per solver.
func (o options) paperRows() (header []string, rows [][]string) {
	header = []string{""}
	for _, d := range o.datasets {
		header = append(header, d+" ("+o.features.Of(d)+")")
	}
	for _, s := range o.solvers {
		row := []string{"paper GWF-" + strings.ToUpper(s)}
		for _, d := range o.datasets {
			row = append(row, orDash(paper[s][d]))
		}
		rows = append(rows, row)
	}
	return header, rows
}
