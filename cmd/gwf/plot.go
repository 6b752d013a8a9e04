// go-tsne draws its random start from math/rand's global source only, which rand.Seed seeds
// only with this setting (a no-op since Go 1.24 otherwise): it makes 'gwf plot tsne'
// reproducible for a --seed.
//
//go:debug randseednop=0
package main

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/plot"
)

// plotFlags are the flags of the "gwf plot" commands.
type plotFlags struct {
	data      dataFlags
	under     modelFlags
	model     string
	output    string
	embedding string
	seed      uint64
	iter      int
	top       int
}

func newPlotCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plot (tsne | atoms | loss) --model FILE --output FILE.png",
		Short: "Draw a trained model: t-SNE of the graphs' embeddings, its atoms, its loss per epoch",
		Long: `plot draws a model trained by 'gwf fit' as a PNG picture (the pictures of the paper's Figure 4,
drawn by the library package training/plot, as the notebooks draw them):

  tsne   the t-SNE layout of the graphs' embeddings (--embedding, λ = softmax(z) by default),
         coloured by class when the graphs have labels; needs the data flags
  atoms  the --top atoms most used by the graphs (largest mean λ) as heat maps of U = ReLU(V);
         by the model's training embeddings, or by those of the data flags' graphs
  loss   the mean loss per epoch

The embeddings of graphs that are not the model's training data are computed with its atoms
fixed (transform mode, as 'gwf embed').`,
		Example: `  gwf plot tsne --model mutag.model --dataset MUTAG --output mutag-tsne.png
  gwf plot atoms --model mutag.model --top 6 --output mutag-atoms.png
  gwf plot loss --model mutag.model --output mutag-loss.png`,
		Args: cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	for _, kind := range []string{"tsne", "atoms", "loss"} {
		cmd.AddCommand(newPlotKindCmd(a, kind))
	}
	return cmd
}

func newPlotKindCmd(a *app, kind string) *cobra.Command {
	var f plotFlags
	short := map[string]string{
		"tsne":  "Draw the t-SNE layout of the graphs' embeddings, coloured by class",
		"atoms": "Draw the atoms most used by the graphs as heat maps",
		"loss":  "Draw the mean loss per epoch",
	}[kind]
	use := "tsne --model FILE (--dataset NAME | --tu DIR|FILE.zip | --graphs DIR) --output FILE.png"
	switch kind {
	case "atoms":
		use = "atoms --model FILE [--dataset NAME | --tu DIR|FILE.zip | --graphs DIR] --output FILE.png"
	case "loss":
		use = "loss --model FILE --output FILE.png"
	}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPlot(cmd, a, kind, &f)
		},
	}
	fs := cmd.Flags()
	modelFlag(fs, &f.model, "model file written by 'gwf fit' (required)")
	outputFlag(fs, &f.output, "", "PNG file to write (required; - for stdout)")
	if kind != "loss" {
		f.data.register(fs)
		f.under.register(fs)
	}
	switch kind {
	case "tsne":
		embeddingFlag(fs, &f.embedding, "embedding to lay out")
		fs.Uint64Var(&f.seed, "seed", 1, "seed of the t-SNE layout")
		fs.IntVar(&f.iter, "tsne-iter", 500, "t-SNE iterations")
	case "atoms":
		fs.IntVar(&f.top, "top", 4, "number of atoms to draw, most used first")
	}
	return cmd
}

func runPlot(cmd *cobra.Command, a *app, kind string, f *plotFlags) error {
	if f.model == "" || f.output == "" {
		return cli.Usagef("--model FILE and --output FILE.png are required")
	}
	var draw func(w io.Writer) error
	switch kind {
	case "loss":
		m, err := training.Load(f.model)
		if err != nil {
			return err
		}
		draw = func(w io.Writer) error { return plot.Loss(w, filepath.Base(f.model)+": loss per epoch", m) }
	case "atoms":
		if f.top < 1 {
			return cli.Usagef("--top = %d must be at least 1", f.top)
		}
		if f.data.Dataset == "" && f.data.TU == "" {
			m, err := training.Load(f.model)
			if err != nil {
				return err
			}
			draw = func(w io.Writer) error { return plot.Atoms(w, m, m.Z, f.top) }
			break
		}
		m, _, z, err := f.under.embed(cmd, a, f.model, &f.data)
		if err != nil {
			return err
		}
		draw = func(w io.Writer) error { return plot.Atoms(w, m, z, f.top) }
	case "tsne":
		emb, err := training.ParseEmbedding(f.embedding)
		if err != nil {
			return cli.Usagef("--embedding: %w", err)
		}
		if f.iter < 1 {
			return cli.Usagef("--tsne-iter = %d must be at least 1", f.iter)
		}
		if err := f.data.check(); err != nil {
			return err
		}
		_, ds, z, err := f.under.embed(cmd, a, f.model, &f.data)
		if err != nil {
			return err
		}
		class, names := plot.Classes(ds)
		x, title := z, ds.Name+": t-SNE of z"
		if emb == training.EmbeddingLambda {
			x, title = training.Lambda(z), ds.Name+": t-SNE of λ = softmax(z)"
		}
		a.Log.Infof("t-SNE of %d graphs, %d iterations", len(ds.Graphs), f.iter)
		draw = func(w io.Writer) error { return plot.TSNE(w, title, x, class, names, f.seed, f.iter) }
	}
	if err := cli.WriteOutput(cmd.OutOrStdout(), f.output, draw); err != nil {
		return err
	}
	if f.output != "-" && !strings.HasSuffix(strings.ToLower(f.output), ".png") {
		a.Log.Warnf("%s is a PNG picture whatever its name", f.output)
	}
	return nil
}
