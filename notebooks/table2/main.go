// Command table2 reproduces Table 2 of the paper (nbkit.Table2, which the notebook table2.ipynb
// runs too) — 10-fold semi-supervised classification accuracy of GWF — and shows how the
// accuracy moves with the fraction of labelled graphs. It writes report.md, table2.csv,
// fractions.csv and fractions.png to --output-dir. Every finished fold is kept in
// OUT/cells/DATASET-SOLVER[-FEATURES]/fold<f>.json with the data and settings it ran under, and
// the fold in training after each of its epochs: rerun after an interruption and the folds
// already done with the same settings are reused, the one interrupted resumed. Node features
// follow the paper (datasets.PaperFeatures) unless --features says otherwise. By default the
// protocol is nested (--nested): a validation split of each fold's labels chooses the stopping
// epoch, and the β = 0 head and a logistic regression on the unsupervised λ are scored on the
// same folds; --cv-seeds repeats it with other fold splits and model seeds, and --encoders
// compares free z with graph encoders (GIN or GCN, with or without the GWF term).
//
//	go run ./notebooks/table2 --output-dir results/table2       # PROTEINS and IMDB-BINARY, both solvers; fractions on MUTAG
//	go run ./notebooks/table2 --output-dir docs/results/table2-nested --datasets MUTAG --solvers ppa --cv-seeds 3 --fractions-dataset ""
//	go run ./notebooks/table2 --output-dir /tmp/t2 --datasets MUTAG --solvers ppa --encoders none,gin,gin-alone --fractions-dataset ""
//	go run ./notebooks/table2 --output-dir /tmp/t2 --datasets MUTAG --solvers ppa --folds 3 --subset 60 --epochs 2 --atoms 4 --layers 10 --fractions 0.2,0.6 --seeds 1
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/gwf-graphs/gwf/notebooks/nbkit"
	"github.com/gwf-graphs/gwf/semisup"
)

func main() {
	c, err := parse(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "table2:", err)
		os.Exit(2)
	}
	if err := run(context.Background(), c, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "table2:", err)
		os.Exit(1)
	}
}

// parse reads the command line; the output folder is c.Keep. Its errors are the user's.
func parse(args []string) (nbkit.Table2Config, error) {
	c := nbkit.Table2Paper()
	ds, solvers, variants, fr := strings.Join(c.Datasets, ","), strings.Join(c.Solvers, ","), strings.Join(c.Variants, ","), nbkit.JoinFloats(c.Fractions)
	var input string
	fs := nbkit.NewFlagSet("table2")
	fs.StringVar(&ds, "datasets", ds, "comma-separated datasets for the 10-fold table (empty: skip it)")
	fs.StringVar(&solvers, "solvers", solvers, "comma-separated GWD modules")
	nbkit.FeaturesFlag(fs, &c.Features)
	fs.IntVar(&c.Folds, "folds", c.Folds, "cross-validation folds")
	fs.IntVar(&c.Subset, "subset", c.Subset, "graphs per dataset (0: all)")
	fs.IntVar(&c.Epochs, "epochs", c.Epochs, "training epochs")
	fs.IntVar(&c.Atoms, "atoms", c.Atoms, "atoms K")
	fs.IntVar(&c.Layers, "layers", c.Layers, "GWD layers M")
	fs.Float64Var(&c.Head.Beta, "beta", c.Head.Beta, "weight of the classification loss")
	fs.BoolVar(&c.Head.Detach, "detach", c.Head.Detach, "stop the classification gradient at the embeddings: the labels train the head alone (false by default with an encoder: semisup.DefaultDetach)")
	fs.StringVar(&input, "head-input", string(c.Head.Input), "what the head reads: centered, lambda or z")
	fs.StringVar(&c.FractionsDataset, "fractions-dataset", c.FractionsDataset, "dataset of the labelled-fraction study (empty: skip it)")
	fs.StringVar(&fr, "fractions", fr, "labelled fractions")
	fs.IntVar(&c.Seeds, "seeds", c.Seeds, "seeds per labelled fraction")
	nbkit.OutputDir(fs, &c.Keep, "results/table2")
	fs.BoolVar(&c.Nested, "nested", c.Nested, "nested protocol: a validation split of each fold's labels chooses the epoch; the β = 0 head and logistic regression on the unsupervised λ are scored on the same folds (false: fixed settings, last epoch)")
	fs.Float64Var(&c.Validation, "validation", c.Validation, "nested protocol: fraction of each fold's labelled graphs held out for validation")
	fs.BoolVar(&c.Refit, "refit", c.Refit, "nested protocol: retrain the chosen settings on all the fold's labels")
	fs.BoolVar(&c.Unsupervised, "select-unsupervised", c.Unsupervised, "nested protocol: the β = 0 head is a candidate too, kept where it scores better on the validation split (as gwf classify)")
	fs.StringVar(&variants, "encoders", variants, "nested protocol: comma-separated embeddings to compare: none (free z, the paper's model), gin, gcn (a graph encoder trained through the GWF term and the labels), gin-alone, gcn-alone (the encoder on the labels alone: what the GWF term adds)")
	fs.IntVar(&c.CVSeeds, "cv-seeds", c.CVSeeds, "cross-validation repeats: seed s sets the fold split, the validation split and the model's seed")
	fs.Parse(args) // exits on an error
	c.Datasets, c.Solvers, c.Variants = nbkit.SplitList(ds), nbkit.SplitList(solvers), nbkit.SplitList(variants)
	if input != "" {
		c.Head.Input = semisup.Input(input)
	}
	c.DetachGiven = fs.Changed("detach")
	c.Fractions = nil
	for _, s := range nbkit.SplitList(fr) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return c, fmt.Errorf("--fractions: %w", err)
		}
		c.Fractions = append(c.Fractions, v)
	}
	return c, nil
}

// run writes the tables to c.Keep, where the folds are kept.
func run(ctx context.Context, c nbkit.Table2Config, log io.Writer) error {
	detach := "" // the default, DefaultDetach of each embedding
	if c.DetachGiven {
		detach = fmt.Sprintf(" --detach=%v", c.Head.Detach)
	}
	f, err := nbkit.NewFolder(c.Keep, "Table 2: semi-supervised classification accuracy (%)",
		fmt.Sprintf("go run ./notebooks/table2 --output-dir %s --datasets %q --solvers %s --features %q --folds %d --subset %d --epochs %d --atoms %d --layers %d --beta %g --head-input %s%s --fractions-dataset %q --fractions %s --seeds %d --nested=%v --validation %g --refit=%v --select-unsupervised=%v --cv-seeds %d --encoders %s",
			c.Keep, strings.Join(c.Datasets, ","), strings.Join(c.Solvers, ","), c.Features.Describe(c.Datasets), c.Folds, c.Subset, c.Epochs, c.Atoms, c.Layers, c.Head.Beta, c.Head.Input, detach,
			c.FractionsDataset, nbkit.JoinFloats(c.Fractions), c.Seeds, c.Nested, c.Validation, c.Refit, c.Unsupervised, c.CVSeeds, strings.Join(c.Variants, ",")), log)
	if err != nil {
		return err
	}
	if err := nbkit.Table2(ctx, c, f); err != nil {
		return err
	}
	return f.Save()
}
