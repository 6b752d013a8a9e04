// Command fig4 reproduces Figure 4 of the paper (nbkit.Fig4, which the notebook fig4.ipynb runs
// too): t-SNE pictures of the learned embeddings λ = softmax(z) of each dataset (colour =
// class), the loss and the cumulative training time per epoch, and pictures of the learned
// atoms. It writes PNGs, a CSV of the per-epoch loss and time, and report.md to --output-dir.
//
//	go run ./notebooks/fig4 --output-dir results/fig4                  # the paper's data and settings
//	go run ./notebooks/fig4 --output-dir /tmp/fig4 --datasets MUTAG --subset 60 --epochs 2 --atoms 4 --layers 10
//
// The t-SNE layout (github.com/danaugrs/go-tsne) draws its initial layout from math/rand's
// global source, which plot.TSNELayout seeds with --seed; rand.Seed is a no-op since Go 1.24
// unless randseednop=0, set below, so the pictures are reproducible too.
//
//go:debug randseednop=0
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gwf-graphs/gwf/graphs/collection/dataflags"
	"github.com/gwf-graphs/gwf/notebooks/nbkit"
)

// options are the command line: the configuration, the data flags (which replace --datasets
// when given) and the output folder.
type options struct {
	nbkit.Fig4Config
	collection dataflags.Flags
	out        string
}

func main() {
	o, err := parse(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "fig4:", err)
		os.Exit(2)
	}
	if err := run(context.Background(), o, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fig4:", err)
		os.Exit(1)
	}
}

// parse reads the command line; its errors are the user's.
func parse(args []string) (options, error) {
	o := options{Fig4Config: nbkit.Fig4Paper()}
	var ds string
	fs := nbkit.NewFlagSet("fig4")
	fs.StringVar(&ds, "datasets", strings.Join(o.Datasets, ","), "comma-separated bundled datasets")
	o.collection.RegisterSources(fs)
	nbkit.FeaturesFlag(fs, &o.Features)
	fs.IntVar(&o.Subset, "subset", o.Subset, "graphs per dataset (0: all)")
	fs.IntVar(&o.Epochs, "epochs", o.Epochs, "training epochs")
	fs.IntVar(&o.Atoms, "atoms", o.Atoms, "atoms K")
	fs.IntVar(&o.Layers, "layers", o.Layers, "GWD layers M")
	fs.Uint64Var(&o.Seed, "seed", o.Seed, "training seed")
	fs.IntVar(&o.TSNEIter, "tsne-iter", o.TSNEIter, "t-SNE iterations")
	nbkit.OutputDir(fs, &o.out, "results/fig4")
	fs.Parse(args) // exits on an error
	o.Datasets = nbkit.SplitList(ds)
	if o.collection.Given() {
		// Structure only, --subset applied.
		o.collection.Features, o.collection.Subset, o.collection.SubsetSeed = "none", o.Subset, 1
		o.collection.LimitFlags = dataflags.DefaultLimitFlags()
		if err := o.collection.Check(); err != nil {
			return o, err
		}
		spec := o.collection.Spec()
		o.Collection = &spec
	}
	return o, nil
}

func run(ctx context.Context, o options, log io.Writer) error {
	source := fmt.Sprintf("--datasets %s --features %q", strings.Join(o.Datasets, ","), o.Features.Describe(o.Datasets))
	if o.Collection != nil {
		source = o.collection.String()
	}
	f, err := nbkit.NewFolder(o.out, "Figure 4: embeddings, training curves and atoms",
		fmt.Sprintf("go run ./notebooks/fig4 --output-dir %s %s --subset %d --epochs %d --atoms %d --layers %d --seed %d --tsne-iter %d",
			o.out, source, o.Subset, o.Epochs, o.Atoms, o.Layers, o.Seed, o.TSNEIter), log)
	if err != nil {
		return err
	}
	if err := nbkit.Fig4(ctx, o.Fig4Config, f); err != nil {
		return err
	}
	return f.Save()
}
