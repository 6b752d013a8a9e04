package nbkit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/crossval"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/cluster"
	"github.com/gwf-graphs/gwf/training/plot"
)

// Table2Config are the data, sizes and protocol of Table 2.
type Table2Config struct {
	Datasets []string // datasets of the k-fold table (none: no table)
	Solvers  []string // GW-discrepancy modules: ppa, badmm
	Features Features // node features per dataset (PaperFeatures: the paper's)
	Folds    int      // cross-validation folds
	Subset   int      // graphs per dataset, spread evenly over the file (0: all)
	Epochs   int      // training epochs
	Atoms    int      // atoms K
	Layers   int      // layers M of the solver
	// Head is the semi-supervised head: its weight β, its input, whether the labels train the
	// head alone (Detach; for an encoder variant, semisup.DefaultDetach unless DetachGiven).
	Head        semisup.Config
	DetachGiven bool
	// FractionsDataset is the dataset of the labelled-fraction study ("": no study), Fractions
	// its labelled fractions and Seeds the seeds per fraction.
	FractionsDataset string
	Fractions        []float64
	Seeds            int
	// Nested is the nested protocol (crossval.CVOptions.Select and Baselines): a validation
	// split of each fold's labels (Validation, a fraction) chooses the stopping epoch (then
	// Refit retrains on all the fold's labels; with Unsupervised the β = 0 head is a candidate
	// too), and the β = 0 head and a logistic regression on the unsupervised λ are scored on
	// the same folds; CVSeeds repeats it with other fold splits and model seeds, and Variants
	// are the embeddings compared: none (free z, the paper's), gin, gcn (a graph encoder
	// trained through the GWF term and the labels), gin-alone, gcn-alone (without the GWF term).
	Nested       bool
	Validation   float64
	Refit        bool
	Unsupervised bool
	CVSeeds      int
	Variants     []string
	// Keep, when not empty, is a folder where every finished fold is kept under
	// cells/CELL/fold<f>.json with the data and settings it ran under, and the fold in training
	// after each of its epochs (crossval.CVOptions.Dir): a rerun reuses the folds done with
	// the same settings and resumes the one interrupted.
	Keep string
}

// Table2Paper is the paper's protocol, nested (the fixed settings of the paper choose the last
// epoch; Nested = false runs them), with the labelled-fraction study on MUTAG.
func Table2Paper() Table2Config {
	def := training.DefaultConfig()
	return Table2Config{Datasets: []string{"PROTEINS", "IMDB-BINARY"}, Solvers: []string{"ppa", "badmm"}, Features: PaperFeatures(),
		Folds: 10, Epochs: def.Epochs, Atoms: def.Atoms, Layers: def.Layers, Head: semisup.DefaultConfig(),
		FractionsDataset: "MUTAG", Fractions: []float64{0.05, 0.1, 0.3, 0.6, 0.9}, Seeds: 3,
		Nested: true, Validation: crossval.DefaultValidation, Unsupervised: true, CVSeeds: 1, Variants: []string{string(semisup.EncoderNone)}}
}

// table2Paper is the paper's Table 2 (GWF rows), in %.
func table2Paper() map[string]map[string]string {
	return map[string]map[string]string{
		"ppa":   {"PROTEINS": "73.7 ± 2.0", "IMDB-BINARY": "63.9 ± 2.7"},
		"badmm": {"PROTEINS": "71.4 ± 3.6", "IMDB-BINARY": "62.4 ± 3.8"},
	}
}

// Table2 reproduces Table 2 of the paper — k-fold semi-supervised classification accuracy of
// GWF with a classifier head trained jointly on the labelled graphs (package semisup; the
// held-out fold's graphs take part in the GWF term without their labels) — and shows how the
// accuracy moves with the fraction of labelled graphs. It keeps every fold in table2.csv, the
// fraction study in fractions.csv (and fractions.png).
func Table2(ctx context.Context, c Table2Config, out Output) error {
	if c.CVSeeds == 0 {
		c.CVSeeds = 1
	}
	if c.Folds < 2 || c.Epochs < 1 || c.Atoms < 1 || c.Layers < 1 || c.Seeds < 1 || c.Subset < 0 || c.CVSeeds < 1 {
		return errors.New("need folds ≥ 2, epochs, atoms, layers, seeds, cv-seeds ≥ 1, subset ≥ 0")
	}
	if c.Nested && !(c.Validation > 0 && c.Validation < 1) {
		return fmt.Errorf("validation = %v not in (0, 1)", c.Validation)
	}
	if len(c.Variants) == 0 {
		c.Variants = []string{string(semisup.EncoderNone)}
	}
	for _, v := range c.Variants {
		if _, err := c.withVariant(v); err != nil {
			return err
		}
	}
	if !c.Nested && (len(c.Variants) > 1 || c.Variants[0] != string(semisup.EncoderNone)) {
		return errors.New("encoders need the nested protocol")
	}
	for _, f := range c.Fractions {
		if !(f > 0 && f < 1) {
			return fmt.Errorf("fraction %v not in (0, 1)", f)
		}
	}
	sc := c.Head
	out.Markdown("GWF (K = %d, M = %d, L = 2, %d epochs) with an MLP head (hidden %v, %s, reading %s), β = %g, trained jointly%s; then the head alone, %d full-batch Adam steps on the final embeddings. Stratified %d-fold cross-validation: the held-out fold's graphs are in the GWF term without labels (transductive); accuracy on the held-out fold, mean ± std over folds (%%).",
		c.Atoms, c.Layers, c.Epochs, sc.Hidden, sc.Activation, sc.Input, sc.Beta, map[bool]string{true: " (the cross-entropy detached from the free z: it trains the head alone)", false: ""}[sc.Detach], sc.Head.Steps, c.Folds)
	if c.Nested {
		out.Markdown("Nested protocol, %d repeat(s) (seed s: fold split, validation split and model seed): in each fold a stratified %.0f%% of the labelled graphs is held out as well and chooses the stopping epoch (the head trained alone on every epoch's embeddings, the best validation accuracy kept%s%s); the held-out fold is scored once. On the same folds: the same head on the same model trained without labels (β = 0: GWF for free z, the encoder trained by the GWF term alone for an encoder; its epoch chosen on the same validation split) and a multinomial logistic regression on that model's λ (C from {0.01, 0.1, 1, 10, 100} by 5-fold cross-validation on the fold's training graphs). Mean ± std over folds × repeats.",
			c.CVSeeds, 100*c.Validation, map[bool]string{true: ", then refitted on all the fold's labels", false: ""}[c.Refit],
			map[bool]string{true: "; the β = 0 head below is a candidate too, kept where it scores better on validation", false: ""}[c.Unsupervised])
		if err := c.nested(ctx, out); err != nil {
			return err
		}
	} else if err := c.fixed(ctx, sc, out); err != nil {
		return err
	}
	if c.FractionsDataset != "" && len(c.Fractions) > 0 {
		return c.fractions(ctx, sc, out)
	}
	return nil
}

// fixed runs the paper's fixed settings (the last epoch) and shows the table.
func (c Table2Config) fixed(ctx context.Context, sc semisup.Config, out Output) error {
	var csv strings.Builder
	csv.WriteString("dataset,solver,fold,test_graphs,accuracy,train_accuracy,seconds\n")
	if len(c.Datasets) > 0 {
		header, rows := c.paperRows()
		for _, s := range c.Solvers {
			row := []string{"gwf " + strings.ToUpper(s)}
			fit := []string{"gwf " + strings.ToUpper(s) + ", on the labelled graphs"}
			last := []string{"gwf " + strings.ToUpper(s) + ", the joint head after the last epoch (--head-steps 0)"}
			best := []string{"gwf " + strings.ToUpper(s) + ", best epoch chosen on the held-out fold (the authors' rule; a diagnostic, optimistic)"}
			for _, d := range c.Datasets {
				res, err := c.crossValidate(ctx, d, s, sc, 1, false, out)
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
				last = append(last, foldsCell(crossval.LastEpoch(res)))
				best = append(best, foldsCell(crossval.BestEpoch(res)))
			}
			rows = append(rows, row, fit, last, best)
		}
		out.Table(header, rows)
	}
	return out.File("table2.csv", []byte(csv.String()))
}

// foldsCell shows per-fold accuracies that only some folds have as mean ± std (in %) with their
// count, "–" when none has one.
func foldsCell(xs []float64) string {
	if len(xs) == 0 {
		return "–"
	}
	return fmt.Sprintf("%s (%d folds)", cluster.FormatMeanStd(xs, 100), len(xs))
}

// config is the GWF configuration of a solver, a seed and a feature weight.
func (c Table2Config) config(solver string, seed uint64, featureWeight float64) training.Config {
	t := training.DefaultConfig().WithSolverDefaults(layers.SolverName(solver))
	t.Epochs, t.Atoms, t.Layers, t.Seed, t.FeatureWeight = c.Epochs, c.Atoms, c.Layers, seed, featureWeight
	return t
}

// load reads dataset name as the features say, with its labels and the feature weight to train with.
func (c Table2Config) load(name string) (*graphs.Dataset, []int, float64, error) {
	ds, weight, err := c.Features.Load(name, c.Subset)
	if err != nil {
		return nil, nil, 0, err
	}
	labels := make([]int, len(ds.Graphs))
	for i, g := range ds.Graphs {
		labels[i] = g.Label
	}
	return ds, labels, weight, nil
}

// fractions trains with a stratified fraction of the labels (several seeds) and scores the
// predictions on the unlabelled graphs.
func (c Table2Config) fractions(ctx context.Context, sc semisup.Config, out Output) error {
	ds, labels, weight, err := c.load(c.FractionsDataset)
	if err != nil {
		return err
	}
	var csv strings.Builder
	csv.WriteString("fraction,seed,labelled,accuracy\n")
	var xs, mean, std []float64
	var rows [][]string
	for _, f := range c.Fractions {
		var accs []float64
		for s := 1; s <= c.Seeds; s++ {
			train := semisup.KeepLabels(labels, f, uint64(s))
			m, err := semisup.NewModel(ds.Graphs, len(ds.Classes), c.config("ppa", uint64(s), weight), sc)
			if err != nil {
				return err
			}
			out.Logf("table2: %s, %.0f%% labelled, seed %d", ds.Name, 100*f, s)
			if err := semisup.Fit(ctx, m, ds.Graphs, train, semisup.Options{}); err != nil {
				return fmt.Errorf("%s, %.0f%% labelled, seed %d: %w", ds.Name, 100*f, s, err)
			}
			acc, held := crossval.HeldOutAccuracy(labels, train, m.Predict(), false)
			accs = append(accs, acc)
			fmt.Fprintf(&csv, "%g,%d,%d,%.6f\n", f, s, len(labels)-held, acc)
		}
		mu, sd := cluster.MeanStd(accs)
		xs, mean, std = append(xs, 100*f), append(mean, 100*mu), append(std, 100*sd)
		rows = append(rows, []string{fmt.Sprintf("%.0f%%", 100*f), cluster.FormatMeanStd(accs, 100)})
	}
	out.Markdown("## Accuracy vs labelled fraction (%s, %d graphs, PPA, %d seeds)\n\nA stratified random fraction of the graphs keeps its labels (`semisup.KeepLabels`, seeded); the model is trained on all graphs with those labels (`semisup.NewModel`, `semisup.Fit`), and its predictions for the other graphs (`Model.Predict`) are scored.", ds.Name, len(ds.Graphs), c.Seeds)
	if err := out.Figure("fractions.png", func(w io.Writer) error {
		return plot.Lines(w, ds.Name+": accuracy vs labelled fraction", "labelled graphs (%)", "accuracy on the unlabelled graphs (%)", false,
			[]plot.Series{{Name: "GWF-PPA + MLP", X: xs, Y: mean, Err: std}})
	}); err != nil {
		return err
	}
	out.Table([]string{"labelled", "accuracy on the rest (%)"}, rows)
	return out.File("fractions.csv", []byte(csv.String()))
}

// crossValidate runs the cell's folds, reusing those Keep/cells/NAME already holds for the same
// data and settings, and saving each new one as soon as it ends (crossval.CVOptions.Dir).
func (c Table2Config) crossValidate(ctx context.Context, d, solver string, sc semisup.Config, seed uint64, baselines bool, out Output) ([]crossval.FoldResult, error) {
	ds, labels, weight, err := c.load(d)
	if err != nil {
		return nil, err
	}
	var sel *crossval.Selection
	name := c.Features.CellName(d, solver)
	if v := variantName(sc); v != string(semisup.EncoderNone) {
		name += "-" + v
	}
	if c.Nested {
		sel = &crossval.Selection{Validation: c.Validation, Candidates: []semisup.Config{sc}, Refit: c.Refit, Seed: seed, Unsupervised: c.Unsupervised && !sc.NoGWF}
		name += fmt.Sprintf("-nested-seed%d", seed)
	}
	dir := ""
	if c.Keep != "" {
		dir = filepath.Join(c.Keep, "cells", name)
	}
	out.Logf("table2: %s, %s: %d folds", d, solver, c.Folds)
	rep, err := crossval.CrossValidateGWF(ctx, ds, labels, len(ds.Classes), c.config(solver, seed, weight), sc, crossval.GWFSpec{CVOptions: crossval.CVOptions{
		Folds: c.Folds, Seed: seed, Select: sel, Baselines: baselines, Dir: dir,
		Options: semisup.Options{Observe: func(e training.Event) { // each fold's result, its ETA
			if e.Message != "" {
				out.Logf("table2: %s, %s: %s", d, solver, e.Message)
			}
		}},
	}})
	if err != nil {
		return nil, err
	}
	return rep.Folds, nil
}

// paperRows are the table's header (one column per dataset, with its features) and the paper's
// rows, one per solver.
func (c Table2Config) paperRows() (header []string, rows [][]string) {
	header = []string{""}
	for _, d := range c.Datasets {
		header = append(header, d+" ("+c.Features.Of(d)+")")
	}
	paper := table2Paper()
	for _, s := range c.Solvers {
		row := []string{"paper GWF-" + strings.ToUpper(s)}
		for _, d := range c.Datasets {
			row = append(row, orDash(paper[s][d]))
		}
		rows = append(rows, row)
	}
	return header, rows
}
