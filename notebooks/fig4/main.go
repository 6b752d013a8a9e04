// Command fig4 reproduces Figure 4 of the paper: t-SNE pictures of the learned embeddings
// λ = softmax(z) of each dataset (colour = class), the loss and the cumulative training time per
// epoch, and pictures of the learned atoms (heat maps of U_k = ReLU(V_k)). It writes PNGs, a
// CSV of the per-epoch loss and time, and report.md to --output-dir.
//
//	go run ./notebooks/fig4 --output-dir results/fig4                  # the paper's data and settings
//	go run ./notebooks/fig4 --output-dir /tmp/fig4 --datasets MUTAG --subset 60 --epochs 2 --atoms 4 --layers 10
//
// The pictures are drawn by training/plot, as by `gwf plot`. Its t-SNE layout comes from
// github.com/danaugrs/go-tsne, which draws its initial layout from math/rand's global source;
// plot.TSNELayout seeds that source with --seed (rand.Seed is a no-op since Go 1.24 unless
// randseednop=0, set below), so the pictures are reproducible too.
//
//go:debug randseednop=0
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection/dataflags"
	"github.com/gwf-graphs/gwf/notebooks/internal/nb"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/plot"
)

type options struct {
	datasets []string
	// collection, when its --dataset, --tu or --graphs is given, is drawn instead of datasets
	// (structure only, --subset applied).
	collection    dataflags.Flags
	features      nb.Features
	subset        int
	epochs, atoms int
	layers        int
	seed          uint64
	tsneIter      int
	out           string
}

func main() {
	var o options
	var ds, features string
	fs := nb.NewFlagSet("fig4")
	fs.StringVar(&ds, "datasets", "AIDS,PROTEINS,PROTEINS_full,IMDB-BINARY", "comma-separated bundled datasets")
	o.collection.RegisterSources(fs)
	fs.StringVar(&features, "features", nb.DefaultFeatures, "node features per dataset, DATASET=none|labels|attributes|attributes-std|attributes-bal, comma-separated (unlisted: none)")
	fs.IntVar(&o.subset, "subset", 0, "graphs per dataset (0: all)")
	fs.IntVar(&o.epochs, "epochs", 10, "training epochs")
	fs.IntVar(&o.atoms, "atoms", 30, "atoms K")
	fs.IntVar(&o.layers, "layers", 50, "GWD layers M")
	fs.Uint64Var(&o.seed, "seed", 1, "training seed")
	fs.IntVar(&o.tsneIter, "tsne-iter", 500, "t-SNE iterations")
	nb.OutputDir(fs, &o.out, "results/fig4")
	fs.Parse(os.Args[1:])
	o.datasets = strings.Split(ds, ",")
	if o.collection.Given() {
		o.collection.Features, o.collection.Subset, o.collection.SubsetSeed = "none", o.subset, 1
		o.collection.LimitFlags = dataflags.DefaultLimitFlags()
		if err := o.collection.Check(); err != nil {
			fmt.Fprintln(os.Stderr, "fig4:", err)
			os.Exit(2)
		}
		o.datasets = []string{""}
	}
	var err error
	if o.features, err = nb.ParseFeatures(features); err != nil {
		fmt.Fprintln(os.Stderr, "fig4: --features:", err)
		os.Exit(2)
	}
	if err := run(context.Background(), o, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fig4:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options, log io.Writer) error {
	if o.epochs < 1 || o.atoms < 1 || o.layers < 1 || o.subset < 0 || o.tsneIter < 1 {
		return errors.New("need --epochs, --atoms, --layers, --tsne-iter ≥ 1 and --subset ≥ 0")
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	source, feats := fmt.Sprintf("--datasets %s --features %q", strings.Join(o.datasets, ","), o.features.Describe(o.datasets)), o.features.Describe(o.datasets)
	if o.collection.Given() {
		source, feats = o.collection.String(), "none"
	}
	rep := nb.NewReport("Figure 4: embeddings, training curves and atoms",
		fmt.Sprintf("go run ./notebooks/fig4 --output-dir %s %s --subset %d --epochs %d --atoms %d --layers %d --seed %d",
			o.out, source, o.subset, o.epochs, o.atoms, o.layers, o.seed))
	rep.Printf("GWF with PPA (γ = 0.01, M = %d), K = %d warm-started atoms, L = 2, Adam lr 0.05, batch 32, %d epochs, seed %d; node features %s.\n\n",
		o.layers, o.atoms, o.epochs, o.seed, feats)
	var csv strings.Builder
	csv.WriteString("dataset,epoch,loss,seconds\n")
	for _, name := range o.datasets {
		if err := dataset(ctx, o, name, rep, &csv, log); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := nb.WriteFile(filepath.Join(o.out, "training.csv"), []byte(csv.String())); err != nil {
		return err
	}
	return rep.Save(o.out)
}

// load reads a bundled dataset with its feature preparation, or the collection of the data
// flags (name "").
func (o options) load(name string) (*graphs.Dataset, float64, error) {
	if name == "" {
		ds, err := o.collection.Load()
		return ds, 1, err
	}
	return o.features.Load(name, o.subset)
}

// dataset trains one model and draws its pictures.
func dataset(ctx context.Context, o options, name string, rep *nb.Report, csv *strings.Builder, log io.Writer) error {
	ds, weight, err := o.load(name)
	if err != nil {
		return err
	}
	data := ds.Graphs
	cfg := training.DefaultConfig()
	cfg.Epochs, cfg.Atoms, cfg.Layers, cfg.Seed = o.epochs, min(o.atoms, len(data)), o.layers, o.seed
	cfg.FeatureWeight = weight
	m, err := training.NewModel(graphs.Slice(data), cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "fig4: training on %s (%d graphs)\n", ds.Name, len(data))
	start := time.Now()
	var secs []float64
	err = training.Fit(ctx, m, graphs.Slice(data), training.Options{EpochDone: func(m *training.Model) error {
		secs = append(secs, time.Since(start).Seconds())
		fmt.Fprintf(log, "fig4: %s epoch %d, loss %.5g\n", ds.Name, len(m.History), m.History[len(m.History)-1].Loss)
		return nil
	}})
	if err != nil {
		return err
	}
	epochs := make([]float64, len(m.History))
	for i, h := range m.History {
		epochs[i] = float64(h.Epoch)
		fmt.Fprintf(csv, "%s,%d,%.8g,%.2f\n", ds.Name, h.Epoch, h.Loss, secs[i])
	}
	base := strings.ToLower(ds.Name)
	if err := nb.SavePNG(filepath.Join(o.out, base+"-loss.png"), func(w io.Writer) error {
		return plot.Loss(w, ds.Name+": loss per epoch", m)
	}); err != nil {
		return err
	}
	if err := nb.SavePNG(filepath.Join(o.out, base+"-time.png"), func(w io.Writer) error {
		return plot.Lines(w, ds.Name+": cumulative training time", "epoch", "seconds", false, []plot.Series{{Name: "time", X: epochs, Y: secs}})
	}); err != nil {
		return err
	}
	// t-SNE of λ, coloured by class.
	lambda := training.Lambda(m.Z)
	class, names := plot.Classes(ds)
	if err := nb.SavePNG(filepath.Join(o.out, base+"-tsne.png"), func(w io.Writer) error {
		return plot.TSNE(w, ds.Name+": t-SNE of λ = softmax(z)", lambda, class, names, o.seed, o.tsneIter)
	}); err != nil {
		return err
	}
	// The atoms most used by the data (largest mean λ), as heat maps of U = ReLU(V).
	var atomPics []string
	for r, k := range plot.TopAtoms(lambda, 4) {
		u := plot.Atom(m, k)
		p := fmt.Sprintf("%s-atom%d.png", base, r+1)
		if err := nb.SavePNG(filepath.Join(o.out, p), func(w io.Writer) error {
			return plot.HeatMap(w, fmt.Sprintf("atom %d (%d nodes)", k, u.RawMatrix().Rows), u)
		}); err != nil {
			return err
		}
		atomPics = append(atomPics, fmt.Sprintf("![atom %d](%s)", k, p))
	}
	rep.Printf("## %s (%d graphs)\n\n![t-SNE](%s-tsne.png)\n\n![loss](%s-loss.png) ![time](%s-time.png)\n\nThe four most used atoms (largest mean λ):\n\n%s\n\n",
		ds.Name, len(data), base, base, base, strings.Join(atomPics, " "))
	rep.Table([]string{"epoch", "loss", "cumulative s"}, rowsOf(m.History, secs))
	return nil
}

func rowsOf(h []training.EpochStats, secs []float64) [][]string {
	var rows [][]string
	for i, e := range h {
		rows = append(rows, []string{fmt.Sprint(e.Epoch), fmt.Sprintf("%.5g", e.Loss), fmt.Sprintf("%.1f", secs[i])})
	}
	return rows
}
