package nbkit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/plot"
)

// Fig4Config are the data and sizes of Figure 4.
type Fig4Config struct {
	Datasets []string // bundled datasets, one model each
	Features Features // node features per dataset (PaperFeatures: the paper's)
	// Collection, when not nil, is drawn instead of Datasets, with its own features and
	// subset (the programs' --dataset, --tu or --graphs).
	Collection *collection.Spec
	Subset     int    // graphs per dataset, spread evenly over the file (0: all)
	Epochs     int    // training epochs
	Atoms      int    // atoms K
	Layers     int    // layers M of PPA
	Seed       uint64 // training and t-SNE seed
	TSNEIter   int    // t-SNE iterations
}

// Fig4Paper are the paper's data and settings.
func Fig4Paper() Fig4Config {
	def := training.DefaultConfig()
	return Fig4Config{Datasets: []string{"AIDS", "PROTEINS", "PROTEINS_full", "IMDB-BINARY"}, Features: PaperFeatures(),
		Epochs: def.Epochs, Atoms: def.Atoms, Layers: def.Layers, Seed: 1, TSNEIter: 500}
}

// Fig4 reproduces Figure 4 of the paper: for each dataset a GWF model (PPA), a t-SNE picture
// of its embeddings λ = softmax(z) coloured by class, the loss and the cumulative training time
// per epoch, and heat maps of the four most used atoms U_k = ReLU(V_k), drawn by training/plot
// (as by `gwf plot`). It keeps the loss and time per epoch in training.csv. The t-SNE layout is
// reproducible for a seed only in a program with randseednop=0 (see plot.TSNELayout).
func Fig4(ctx context.Context, c Fig4Config, out Output) error {
	if c.Epochs < 1 || c.Atoms < 1 || c.Layers < 1 || c.Subset < 0 || c.TSNEIter < 1 {
		return errors.New("need epochs, atoms, layers, t-SNE iterations ≥ 1 and subset ≥ 0")
	}
	names, feats := c.Datasets, c.Features.Describe(c.Datasets)
	if c.Collection != nil {
		names, feats = []string{""}, "as given"
	}
	out.Markdown("GWF with PPA (γ = 0.01, M = %d), K = %d warm-started atoms, L = 2, Adam lr 0.05, batch 32, %d epochs, seed %d; node features %s.",
		c.Layers, c.Atoms, c.Epochs, c.Seed, feats)
	var csv strings.Builder
	csv.WriteString("dataset,epoch,loss,seconds\n")
	for _, name := range names {
		if err := fig4Dataset(ctx, c, name, out, &csv); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return out.File("training.csv", []byte(csv.String()))
}

// load reads a bundled dataset with its feature preparation, or the collection (name "").
func (c Fig4Config) load(name string) (*graphs.Dataset, float64, error) {
	if name == "" {
		ds, err := collection.Load(*c.Collection)
		if err != nil {
			return nil, 0, fmt.Errorf("load data: %w", err)
		}
		return ds, 1, nil
	}
	return c.Features.Load(name, c.Subset)
}

// fig4Dataset trains one model and shows its pictures.
func fig4Dataset(ctx context.Context, c Fig4Config, name string, out Output, csv *strings.Builder) error {
	ds, weight, err := c.load(name)
	if err != nil {
		return err
	}
	data := ds.Graphs
	cfg := training.DefaultConfig()
	cfg.Epochs, cfg.Atoms, cfg.Layers, cfg.Seed = c.Epochs, min(c.Atoms, len(data)), c.Layers, c.Seed
	cfg.FeatureWeight = weight
	m, err := training.NewModel(graphs.Slice(data), cfg)
	if err != nil {
		return err
	}
	out.Logf("fig4: training on %s (%d graphs, K = %d, feature weight %.3g)", ds.Name, len(data), cfg.Atoms, weight)
	start := time.Now()
	var secs []float64
	err = training.Fit(ctx, m, graphs.Slice(data), training.Options{EpochDone: func(m *training.Model) error {
		secs = append(secs, time.Since(start).Seconds())
		out.Logf("fig4: %s epoch %d, loss %.5g", ds.Name, len(m.History), m.History[len(m.History)-1].Loss)
		return nil
	}})
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	epochs := make([]float64, len(m.History))
	var rows [][]string
	for i, h := range m.History {
		epochs[i] = float64(h.Epoch)
		fmt.Fprintf(csv, "%s,%d,%.8g,%.2f\n", ds.Name, h.Epoch, h.Loss, secs[i])
		rows = append(rows, []string{fmt.Sprint(h.Epoch), fmt.Sprintf("%.5g", h.Loss), fmt.Sprintf("%.1f", secs[i])})
	}
	base := strings.ToLower(ds.Name)
	out.Markdown("## %s (%d graphs)\n\nt-SNE of λ = softmax(z), coloured by class:", ds.Name, len(data))
	lambda := training.Lambda(m.Z)
	class, classNames := plot.Classes(ds)
	if err := out.Figure(base+"-tsne.png", func(w io.Writer) error {
		return plot.TSNE(w, ds.Name+": t-SNE of λ = softmax(z)", lambda, class, classNames, c.Seed, c.TSNEIter)
	}); err != nil {
		return err
	}
	out.Markdown("Loss and cumulative training time per epoch:")
	if err := out.Figure(base+"-loss.png", func(w io.Writer) error { return plot.Loss(w, ds.Name+": loss per epoch", m) }); err != nil {
		return err
	}
	if err := out.Figure(base+"-time.png", func(w io.Writer) error {
		return plot.Lines(w, ds.Name+": cumulative training time", "epoch", "seconds", false, []plot.Series{{Name: "time", X: epochs, Y: secs}})
	}); err != nil {
		return err
	}
	out.Table([]string{"epoch", "loss", "cumulative s"}, rows)
	// The atoms most used by the data (largest mean λ), as heat maps of U = ReLU(V).
	top := plot.TopAtoms(lambda, 4)
	out.Markdown("The four most used atoms (largest mean λ), as heat maps of U = ReLU(V): atoms %v.", top)
	for r, k := range top {
		u := plot.Atom(m, k)
		if err := out.Figure(fmt.Sprintf("%s-atom%d.png", base, r+1), func(w io.Writer) error {
			return plot.HeatMap(w, fmt.Sprintf("atom %d (%d nodes)", k, u.RawMatrix().Rows), u)
		}); err != nil {
			return err
		}
	}
	return nil
}
