package nbkit

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/cluster"
	"github.com/gwf-graphs/gwf/training/plot"
)

// TourConfig are the data and sizes of the tour.
type TourConfig struct {
	Data   collection.Spec // the graphs (a bundled dataset, a TU folder or a folder of graph files)
	Epochs int             // training epochs
	Atoms  int             // atoms K
	Layers int             // layers M of the GW-discrepancy solver
}

// TourPaper is the tour at the paper's settings, on all of MUTAG.
func TourPaper() TourConfig {
	def := training.DefaultConfig()
	return TourConfig{Data: collection.Spec{Dataset: "MUTAG"}, Epochs: def.Epochs, Atoms: def.Atoms, Layers: def.Layers}
}

// Tour walks through the library on a small collection of graphs: it loads them, computes a GW
// discrepancy of two of them with the two solvers of the paper layer by layer (trace.png),
// learns a GWF model (loss.png), clusters its embeddings and scores the clusters against the
// classes.
func Tour(ctx context.Context, c TourConfig, out Output) error {
	if c.Epochs < 1 || c.Atoms < 1 || c.Layers < 1 {
		return errors.New("need epochs, atoms and layers ≥ 1")
	}
	// 1. Data.
	ds, err := collection.Load(c.Data)
	if err != nil {
		return fmt.Errorf("load data: %w", err)
	}
	data := ds.Graphs
	if len(data) < 2 {
		return fmt.Errorf("%s has %d graphs; the tour needs at least 2", ds.Name, len(data))
	}
	s := graphs.Summarize(ds)
	out.Markdown("## 1. Data\n\n`collection.Load` reads a bundled dataset (package `graphs/datasets`: the TU files are embedded, nothing is downloaded), a TU folder or `.zip`, or a folder of graph files. %s: %d graphs, %d classes, %.1f nodes and %.1f edges a graph on average (%d to %d nodes).",
		s.Name, s.Graphs, s.Classes, s.AvgNodes, s.AvgEdges, s.MinNodes, s.MaxNodes)
	var rows [][]string
	for _, g := range data[:min(5, len(data))] {
		rows = append(rows, []string{g.Name, fmt.Sprint(g.N()), ds.ClassName(g)})
	}
	out.Table([]string{"graph", "nodes", "class"}, rows)

	// 2. One GW discrepancy, layer by layer.
	a, b := data[0], data[1]
	var series []plot.Series
	rows = nil
	for _, s := range []layers.Solver{layers.PPA{Gamma: 0.01, Layers: c.Layers, Inner: 5, Weight: 1}, layers.BADMM{Gamma: 1, Layers: c.Layers, Weight: 1}} {
		st := layers.State{Trace: []float64{}}
		if err := layers.Solve(ctx, s, &st, layers.Space{A: a.A, Mu: a.Mu}, layers.Space{A: b.A, Mu: b.Mu}); err != nil {
			return fmt.Errorf("%s: %w", s.Name(), err)
		}
		x := make([]float64, len(st.Trace))
		for i := range x {
			x[i] = float64(i + 1)
		}
		series = append(series, plot.Series{Name: s.Name(), X: x, Y: st.Trace})
		rows = append(rows, []string{s.Name(), fmt.Sprintf("%.5g", st.Trace[len(st.Trace)-1]), fmt.Sprint(st.LogDomainLayers)})
	}
	out.Markdown("## 2. A GW discrepancy, layer by layer\n\n`layers.Solve(ctx, solver, &state, src, dst)` computes the GW discrepancy of two graphs (their adjacency matrices with uniform node distributions) by unrolling the solver for %d layers; with `state.Trace` set it records the objective ⟨L(T), T⟩ after every layer. PPA (γ = 0.01, 5 Sinkhorn sweeps a layer) and BADMM (γ = 1), the paper's settings, on %s and %s:", c.Layers, a.Name, b.Name)
	if err := out.Figure("trace.png", func(w io.Writer) error {
		return plot.Lines(w, fmt.Sprintf("GW discrepancy of %s and %s", a.Name, b.Name), "layer", "<L(T),T>", false, series)
	}); err != nil {
		return err
	}
	out.Table([]string{"solver", "discrepancy after the last layer", "log-domain layers"}, rows)

	// 3. A GWF model.
	cfg := training.DefaultConfig()
	cfg.Epochs, cfg.Atoms, cfg.Layers = c.Epochs, min(c.Atoms, len(data)), c.Layers
	m, err := training.NewModel(graphs.Slice(data), cfg)
	if err != nil {
		return err
	}
	err = training.Fit(ctx, m, graphs.Slice(data), training.Options{EpochDone: func(m *training.Model) error {
		h := m.History[len(m.History)-1]
		out.Logf("tour: epoch %d, mean loss %.5g", h.Epoch, h.Loss)
		return nil
	}})
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	out.Markdown("## 3. A GWF model\n\n`training.NewModel(graphs.Slice(data), cfg)` starts a model of K atoms (each a random observed graph: the paper's warm start) and one embedding z_i per graph; `training.Fit` learns them (Algorithm 4 of the paper: mini-batches, Adam, PPA inside). `training.DefaultConfig()` holds the paper's settings; here K = %d atoms, %d epochs, M = %d layers, on %d graphs.", cfg.Atoms, cfg.Epochs, cfg.Layers, len(data))
	if err := out.Figure("loss.png", func(w io.Writer) error { return plot.Loss(w, ds.Name+": GWF loss per epoch", m) }); err != nil {
		return err
	}

	// 4. Clusters.
	out.Markdown("## 4. Clusters\n\nK-means on the embeddings — λ_i = softmax(z_i), the atom weights of each graph (the default), or the raw z_i — with as many clusters as classes (`cluster.KMeans(embedding.Rows(m.Z), …)`), scored against the classes by `cluster.Evaluate(truth, assign)`: clustering accuracy (best matching of clusters to classes), normalized mutual information and adjusted Rand index.")
	classes := ds.NumClasses()
	if classes < 2 {
		out.Markdown("The data has no class labels to score clusters against.")
		return nil
	}
	truth := make([]int, len(data))
	for i, g := range data {
		truth[i] = g.Label
	}
	rows = nil
	for _, e := range []training.Embedding{training.EmbeddingLambda, training.EmbeddingZ} {
		res, err := cluster.KMeans(e.Rows(m.Z), cluster.KMeansOptions{K: classes, Seed: 1})
		if err != nil {
			return fmt.Errorf("k-means on %s: %w", e, err)
		}
		sc, err := cluster.Evaluate(truth, res.Assign)
		if err != nil {
			return err
		}
		rows = append(rows, []string{string(e), fmt.Sprintf("%.1f", 100*sc.Accuracy), fmt.Sprintf("%.3f", sc.NMI), fmt.Sprintf("%.3f", sc.ARI)})
	}
	out.Table([]string{"embedding", "accuracy %", "NMI", "ARI"}, rows)
	return nil
}
