// Command tour is a short walk through the library (nbkit.Tour, which the notebook tour.ipynb
// runs too): load a collection of graphs, compute a GW discrepancy (PPA and BADMM, layer by
// layer), learn a GWF model, cluster its embeddings and score the clusters. It writes
// trace.png, loss.png and report.md to --output-dir.
//
//	go run ./notebooks/tour --output-dir results/tour                     # MUTAG, the paper's settings
//	go run ./notebooks/tour --output-dir /tmp/tour --subset 40 --epochs 2 --atoms 4 --layers 10
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gwf-graphs/gwf/graphs/collection/dataflags"
	"github.com/gwf-graphs/gwf/notebooks/nbkit"
)

// options are the command line: the configuration but for its data, the data flags, and the
// output folder.
type options struct {
	nbkit.TourConfig
	data dataflags.Flags
	out  string
}

func main() {
	o, err := parse(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "tour:", err)
		os.Exit(2)
	}
	if err := run(context.Background(), o, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "tour:", err)
		os.Exit(1)
	}
}

// parse reads the command line; its errors are the user's.
func parse(args []string) (options, error) {
	o := options{TourConfig: nbkit.TourPaper()}
	fs := nbkit.NewFlagSet("tour")
	o.data.Register(fs) // the CLI's data flags; MUTAG when none is given
	fs.IntVar(&o.Epochs, "epochs", o.Epochs, "training epochs")
	fs.IntVar(&o.Atoms, "atoms", o.Atoms, "atoms K")
	fs.IntVar(&o.Layers, "layers", o.Layers, "GWD layers M")
	nbkit.OutputDir(fs, &o.out, "results/tour")
	fs.Parse(args) // exits on an error
	if !o.data.Given() {
		o.data.Dataset = o.Data.Dataset
	}
	if err := o.data.Check(); err != nil {
		return o, err
	}
	o.Data = o.data.Spec()
	return o, nil
}

func run(ctx context.Context, o options, log io.Writer) error {
	f, err := nbkit.NewFolder(o.out, "A tour of gwf", fmt.Sprintf("go run ./notebooks/tour --output-dir %s %s --epochs %d --atoms %d --layers %d",
		o.out, o.data.String(), o.Epochs, o.Atoms, o.Layers), log)
	if err != nil {
		return err
	}
	if err := nbkit.Tour(ctx, o.TourConfig, f); err != nil {
		return err
	}
	return f.Save()
}
