// Command tour is a short walk through the library on a small bundled dataset: load it, compute
// a GW discrepancy (PPA and BADMM, layer by layer), learn a GWF model, cluster its embeddings and
// score the clusters. It writes trace.png, loss.png and report.md to --output-dir.
//
//	go run ./notebooks/tour --output-dir results/tour                     # MUTAG, the paper's settings
//	go run ./notebooks/tour --output-dir /tmp/tour --subset 40 --epochs 2 --atoms 4 --layers 10
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection/dataflags"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/notebooks/internal/nb"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/cluster"
	"github.com/gwf-graphs/gwf/training/plot"
)

type options struct {
	data          dataflags.Flags
	epochs, atoms int
	layers        int
	out           string
}

func main() {
	var o options
	fs := nb.NewFlagSet("tour")
	o.data.Register(fs) // the CLI's data flags; MUTAG when none is given
	fs.IntVar(&o.epochs, "epochs", 10, "training epochs")
	fs.IntVar(&o.atoms, "atoms", 30, "atoms K")
	fs.IntVar(&o.layers, "layers", 50, "GWD layers M")
	nb.OutputDir(fs, &o.out, "results/tour")
	fs.Parse(os.Args[1:])
	if !o.data.Given() {
		o.data.Dataset = "MUTAG"
	}
	if err := o.data.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "tour:", err)
		os.Exit(2)
	}
	if err := run(context.Background(), o, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "tour:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options, log io.Writer) error {
	if o.epochs < 1 || o.atoms < 1 || o.layers < 1 {
		return errors.New("need --epochs, --atoms, --layers ≥ 1")
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	rep := nb.NewReport("A tour of gwf", fmt.Sprintf("go run ./notebooks/tour --output-dir %s %s --epochs %d --atoms %d --layers %d",
		o.out, o.data.String(), o.epochs, o.atoms, o.layers))

	// 1. Data: a bundled TU dataset (offline), or any collection the data flags name.
	ds, err := o.data.Load()
	if err != nil {
		return err
	}
	data := ds.Graphs
	if len(data) < 2 {
		return fmt.Errorf("%s has %d graphs; the tour needs at least 2", ds.Name, len(data))
	}
	rep.Printf("## 1. Data\n\n`collection.Load` (%s): %d graphs, %d classes.\n\n", o.data.String(), len(data), ds.NumClasses())

	// 2. One GW discrepancy, layer by layer.
	a, b := data[0], data[1]
	var series []plot.Series
	var rows [][]string
	for _, s := range []layers.Solver{layers.PPA{Gamma: 0.01, Layers: o.layers, Inner: 5, Weight: 1}, layers.BADMM{Gamma: 1, Layers: o.layers, Weight: 1}} {
		st := layers.State{Trace: []float64{}}
		if err := layers.Solve(s, &st, layers.Space{A: a.A, Mu: a.Mu}, layers.Space{A: b.A, Mu: b.Mu}); err != nil {
			return err
		}
		x := make([]float64, len(st.Trace))
		for i := range x {
			x[i] = float64(i + 1)
		}
		series = append(series, plot.Series{Name: s.Name(), X: x, Y: st.Trace})
		rows = append(rows, []string{s.Name(), fmt.Sprintf("%.5g", st.Trace[len(st.Trace)-1]), fmt.Sprint(st.LogDomainLayers)})
	}
	if err := nb.SavePNG(filepath.Join(o.out, "trace.png"), func(w io.Writer) error {
		return plot.Lines(w, fmt.Sprintf("GW discrepancy of %s and %s", a.Name, b.Name), "layer", "<L(T),T>", false, series)
	}); err != nil {
		return err
	}
	rep.Printf("## 2. A GW discrepancy\n\n`layers.Solve(solver, &state, src, dst)` with `state.Trace` set records the objective after every layer.\n\n![trace](trace.png)\n\n")
	rep.Table([]string{"solver", "discrepancy", "log-domain layers"}, rows)

	// 3. A GWF model, 4. clusters.
	cfg := training.DefaultConfig()
	cfg.Epochs, cfg.Atoms, cfg.Layers = o.epochs, min(o.atoms, len(data)), o.layers
	m, err := training.NewModel(graphs.Slice(data), cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "tour: training %d epochs on %d graphs\n", cfg.Epochs, len(data))
	if err := training.Fit(ctx, m, graphs.Slice(data), training.Options{}); err != nil {
		return err
	}
	ep, loss := make([]float64, len(m.History)), make([]float64, len(m.History))
	for i, h := range m.History {
		ep[i], loss[i] = float64(h.Epoch), h.Loss
	}
	if err := nb.SavePNG(filepath.Join(o.out, "loss.png"), func(w io.Writer) error {
		return plot.Lines(w, "GWF loss per epoch", "epoch", "mean loss", false, []plot.Series{{Name: "loss", X: ep, Y: loss}})
	}); err != nil {
		return err
	}
	rep.Printf("## 3. A GWF model\n\n`training.NewModel(data, cfg)` then `training.Fit(ctx, m, data, training.Options{})`: K = %d atoms, %d epochs.\n\n![loss](loss.png)\n\n", cfg.Atoms, cfg.Epochs)
	classes := ds.NumClasses()
	if classes < 2 {
		rep.Printf("## 4. Clusters\n\nThe data has no class labels to score clusters against.\n")
		return rep.Save(o.out)
	}
	truth := make([]int, len(data))
	for i, g := range data {
		truth[i] = g.Label
	}
	var crow [][]string
	for _, e := range []training.Embedding{training.EmbeddingLambda, training.EmbeddingZ} {
		res, err := cluster.KMeans(e.Rows(m.Z), cluster.KMeansOptions{K: classes, Seed: 1})
		if err != nil {
			return err
		}
		sc, err := cluster.Evaluate(truth, res.Assign)
		if err != nil {
			return err
		}
		crow = append(crow, []string{string(e), fmt.Sprintf("%.1f", 100*sc.Accuracy), fmt.Sprintf("%.3f", sc.NMI), fmt.Sprintf("%.3f", sc.ARI)})
	}
	rep.Printf("## 4. Clusters\n\n`cluster.KMeans(embedding.Rows(m.Z), …)` and `cluster.Evaluate(truth, assign)`:\n\n")
	rep.Table([]string{"embedding", "accuracy %", "NMI", "ARI"}, crow)
	return rep.Save(o.out)
}
