// Command table1 reproduces Table 1 of the paper (nbkit.Table1, which the notebook table1.ipynb
// runs too): clustering accuracy of GWF (PPA and BADMM) on the benchmark datasets, mean ± std
// over seeds, beside the paper's numbers. Each cell is one experiment.Run (the library behind
// `gwf cluster`) with its runs kept under OUT/DATASET-SOLVER[-FEATURES]; a finished cell (its
// report.json) is reused without loading anything, and in an unfinished one every run saved with
// the same data and settings is reused, so an interrupted table continues where it stopped. It
// writes report.md and table1.csv (one row per run) to --output-dir.
//
// Node features follow the paper (datasets.PaperFeatures) unless --features says otherwise.
//
//	go run ./notebooks/table1 --output-dir results/table1                       # the paper's protocol
//	go run ./notebooks/table1 --output-dir /tmp/t1 --datasets MUTAG --subset 40 --epochs 2 --runs 2
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gwf-graphs/gwf/notebooks/nbkit"
)

func main() {
	c := parse(os.Args[1:])
	if err := run(context.Background(), c, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "table1:", err)
		os.Exit(1)
	}
}

// parse reads the command line; the output folder is c.Keep.
func parse(args []string) nbkit.Table1Config {
	c := nbkit.Table1Paper()
	fs := nbkit.NewFlagSet("table1")
	fs.StringSliceVar(&c.Datasets, "datasets", c.Datasets, "bundled datasets")
	fs.StringSliceVar(&c.Solvers, "solvers", c.Solvers, "GWD modules")
	nbkit.FeaturesFlag(fs, &c.Features)
	fs.IntVar(&c.Runs, "runs", c.Runs, "seeds per cell (1, 2, ...)")
	fs.IntVar(&c.Subset, "subset", c.Subset, "graphs per dataset (0: all; the paper uses all)")
	fs.IntVar(&c.Epochs, "epochs", c.Epochs, "training epochs")
	fs.IntVar(&c.Atoms, "atoms", c.Atoms, "atoms K (0: the paper's 30)")
	fs.IntVar(&c.Layers, "layers", c.Layers, "GWD layers M (0: the paper's 50)")
	fs.IntVar(&c.Workers, "workers", c.Workers, "goroutines per batch (0: one per CPU); results do not depend on it")
	nbkit.OutputDir(fs, &c.Keep, "results/table1")
	fs.Parse(args) // exits on an error
	return c
}

// run writes the table to c.Keep, where the cells keep their runs.
func run(ctx context.Context, c nbkit.Table1Config, log io.Writer) error {
	cmdline := fmt.Sprintf("go run ./notebooks/table1 --output-dir %s --datasets %s --solvers %s --features %s --runs %d --epochs %d --subset %d",
		c.Keep, strings.Join(c.Datasets, ","), strings.Join(c.Solvers, ","), c.Features.Describe(c.Datasets), c.Runs, c.Epochs, c.Subset)
	if c.Atoms > 0 || c.Layers > 0 {
		cmdline += fmt.Sprintf(" --atoms %d --layers %d", c.Atoms, c.Layers)
	}
	f, err := nbkit.NewFolder(c.Keep, "Table 1: clustering accuracy (%)", cmdline, log)
	if err != nil {
		return err
	}
	if err := nbkit.Table1(ctx, c, f); err != nil {
		return err
	}
	return f.Save()
}
