package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/cluster"
	"github.com/gwf-graphs/gwf/training/experiment"
)

// embedFlags are the flags of "gwf embed".
type embedFlags struct {
	data      dataFlags
	model     string
	format    string
	embedding string
	output    string
	steps     int
	transform bool
	workers   int
	quiet     bool
}

func newEmbedCmd(a *app) *cobra.Command {
	var f embedFlags
	cmd := &cobra.Command{
		Use:   "embed --model FILE (--dataset NAME | --tu DIR|FILE.zip | --graphs DIR)",
		Short: "Write the embeddings of a dataset under a trained model",
		Long: `embed writes one embedding per graph: the trained z_i when the data are the model's training
data (same graphs in the same order, checked by fingerprint), otherwise embeddings computed
with the model's atoms held fixed (transform mode: each z starts as in training and takes
--steps Adam steps on its own GWF loss; 0 means the model's number of epochs).

--embedding z writes the raw z_i, --embedding lambda the atom weights softmax(z_i).

CSV (the default) has a header "graph,label,z0,...,z<K-1>" (lambda0,... for lambda) and one row
per graph: its name, its class label as in the data files, and the embedding. npy writes a
NumPy .npy file (format 1.0, float64, C order) of shape (graphs, K), graphs in the CSV's order.
The format follows the --output extension (.npy or .csv) unless --format is given.

Pass the same data flags (--features, --subset, ...) as to 'gwf fit' to get the trained
embeddings back.`,
		Example: `  gwf embed --model mutag.model --dataset MUTAG > mutag.csv
  gwf embed --model mutag.model --dataset MUTAG --embedding lambda --output lambda.npy
  gwf embed --model mutag.model --tu ./new-graphs --steps 20 --output new.csv`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runEmbed(cmd, a, &f)
		},
	}
	fs := cmd.Flags()
	f.data.register(fs)
	fs.StringVarP(&f.model, "model", "m", "", "model file written by 'gwf fit' (required)")
	fs.StringVar(&f.format, "format", "", "output format: csv or npy (default: from the --output extension, else csv)")
	fs.StringVar(&f.embedding, "embedding", string(cluster.DefaultEmbedding), "what to write: z (raw embeddings) or lambda (atom weights softmax(z))")
	fs.StringVarP(&f.output, "output", "o", "-", "output file (- for stdout)")
	fs.IntVar(&f.steps, "steps", 0, "transform mode: Adam steps per graph (0: the model's number of epochs)")
	fs.BoolVar(&f.transform, "transform", false, "use transform mode even on the model's training data")
	fs.IntVar(&f.workers, "workers", 0, "transform mode: goroutines (0: one per CPU)")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "do not log progress")
	return cmd
}

func runEmbed(cmd *cobra.Command, a *app, f *embedFlags) error {
	a.quiet(cmd.Flags(), f.quiet)
	if f.model == "" {
		return usagef("--model FILE is required")
	}
	if err := f.data.check(); err != nil {
		return err
	}
	emb, err := training.ParseEmbedding(f.embedding)
	if err != nil {
		return usagef("--embedding: %w", err)
	}
	format, err := outputFormat(f.format, f.output)
	if err != nil {
		return err
	}
	if f.steps < 0 || f.workers < 0 {
		return usagef("--steps and --workers must not be negative")
	}
	m, err := training.Load(f.model)
	if err != nil {
		return err
	}
	ds, err := f.data.load()
	if err != nil {
		return err
	}
	data := ds.Graphs
	if dim := data[0].Dim(); dim != m.Dim() {
		return fmt.Errorf("embed: %s", featureHint(m.Dim(), dim))
	}
	var z *mat.Dense
	if r, _ := m.Z.Dims(); !f.transform && r == len(data) && training.Fingerprint(data) == m.Fingerprint {
		a.log.Infof("the data are the model's training data: writing the trained embeddings (%d graphs)", len(data))
		if changed(cmd.Flags(), "steps") {
			a.log.Warn("--steps is ignored: the data are the model's training data (add --transform to embed them anew)")
		}
		z = m.Z
	} else {
		steps := f.steps
		if steps == 0 {
			steps = m.Config.Epochs
		}
		a.log.Infof("transform mode: embedding %d graphs with the atoms fixed, %d steps each", len(data), steps)
		ctx, stop := withSignals(cmd.Context(), a.log)
		defer stop()
		p := newProgress(a.log, "embedding", nil)
		z, err = training.Transform(ctx, m, data, steps, training.Options{Workers: f.workers, Progress: p.callback(f.quiet)})
		if err != nil {
			if ctx.Err() != nil {
				return interruptedError{"interrupted: no embeddings written"}
			}
			return fmt.Errorf("transform: %w", err)
		}
	}
	rows := emb.Rows(z)
	return writeOutput(cmd.OutOrStdout(), f.output, func(w io.Writer) error {
		if format == "npy" {
			return writeNPY(w, mat.NewDense(len(rows), m.K(), flatten(rows)))
		}
		return experiment.NewEmbeddings(ds, emb, rows).WriteCSV(w)
	})
}

// outputFormat resolves --format against the --output file name; its errors are usage errors.
func outputFormat(format, output string) (string, error) {
	switch f := strings.ToLower(format); f {
	case "csv", "npy":
		return f, nil
	case "":
		if strings.EqualFold(filepath.Ext(output), ".npy") {
			return "npy", nil
		}
		return "csv", nil
	}
	return "", usagef("--format: unknown format %q (want csv or npy)", format)
}

// flatten concatenates equal-length rows.
func flatten(rows [][]float64) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}
