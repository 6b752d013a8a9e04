package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/experiment"
	"github.com/gwf-graphs/gwf/training/trainflags"
)

// embedFlags are the flags of "gwf embed".
type embedFlags struct {
	data      dataFlags
	model     string
	format    string
	embedding string
	output    string
	under     modelFlags
	shard     shardFlags
	clusters  int
	// clustering is whether --clusters was given (0 then means the number of classes).
	clustering bool
	report     string
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
per graph: its name, its class label as in the data files, and the embedding. npz writes a
NumPy .npz archive (numpy.load) of "embeddings" (graphs × K, float64), "graphs" (the names) and
"labels" (the class labels as in the data files, as text); npy writes the embeddings alone,
graphs in the CSV's order. The format follows the --output extension (.csv, .npz or .npy)
unless --format is given.

Pass the same data flags (--features, --subset, ...) as to 'gwf fit' to get the trained
embeddings back.

--clusters K also clusters the embeddings with K-means (as 'gwf cluster' does, without
training; --clusters 0: as many clusters as classes): the output gains a "cluster" column (CSV, after the label) or array (npz), and
where the graphs have class labels the clusters are scored against them (accuracy, NMI, ARI,
Rand index: logged, and written by --report FILE, JSON for a .json name, else a table).`,
		Example: `  gwf embed --model mutag.model --dataset MUTAG > mutag.csv
  gwf embed --model mutag.model --dataset MUTAG --embedding lambda --output lambda.npz
  gwf embed --model mutag.model --tu ./new-graphs --steps 20 --output new.csv
  gwf embed --model mutag.model --dataset MUTAG --clusters 2 --report scores.json --output clusters.csv`,
		Annotations: cli.Interruptible("nothing written"),
		Args:        cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runEmbed(cmd, a, &f)
		},
	}
	fs := cmd.Flags()
	f.data.register(fs)
	modelFlag(fs, &f.model, "model file written by 'gwf fit' (required)")
	formatFlag(fs, &f.format)
	embeddingFlag(fs, &f.embedding, "what to write")
	outputFlag(fs, &f.output, "-", "output file (- for stdout)")
	f.under.register(fs)
	f.shard.register(fs)
	fs.IntVar(&f.clusters, "clusters", 0, "also cluster the embeddings with K-means into this many clusters (0: the number of classes, as in 'gwf cluster'; without the flag, no clustering)")
	fs.StringVar(&f.report, "report", "", "with --clusters: write the clusters' scores to this file (.json: JSON, else a table; - for stdout)")
	return cmd
}

func runEmbed(cmd *cobra.Command, a *app, f *embedFlags) error {
	if f.model == "" {
		return cli.Usagef("--model FILE is required")
	}
	if err := f.data.check(); err != nil {
		return err
	}
	f.clustering = cmd.Flags().Changed("clusters")
	switch {
	case f.clusters < 0:
		return cli.Usagef("--clusters = %d must not be negative", f.clusters)
	case f.report != "" && !f.clustering:
		return cli.Usagef("--report writes the scores of --clusters: give --clusters K")
	case f.report == "-" && (f.output == "" || f.output == "-"):
		return cli.Usagef("--report - and the embeddings cannot both go to stdout: give --output FILE")
	}
	if sh, from, on, err := f.shard.resolve(os.Getenv); err != nil || on {
		if err != nil {
			return err
		}
		if f.clustering {
			return cli.Usagef("--clusters needs every embedding at once: it cannot be given with --shard or --chunk")
		}
		return runEmbedShard(cmd, a, f, sh, from)
	}
	emb, err := training.ParseEmbedding(f.embedding)
	if err != nil {
		return cli.Usagef("--embedding: %w", err)
	}
	format, err := outputFormat(f.format, f.output)
	switch {
	case err != nil:
		return err
	case f.clustering && format == "npy":
		return cli.Usagef("--clusters: a .npy file holds the embeddings alone; write CSV or .npz to keep the clusters")
	}
	m, ds, z, err := f.under.embed(cmd, a, f.model, &f.data)
	if err != nil {
		return err
	}
	// A signal while the model and the data were read (seconds when large) stops here too,
	// before anything is written, rather than being ignored.
	if err := cmd.Context().Err(); err != nil {
		return err
	}
	e := experiment.NewEmbeddings(ds, emb, emb.Rows(z))
	if f.clustering {
		if e, err = f.cluster(cmd.OutOrStdout(), a, m, ds, z, emb); err != nil {
			return err
		}
	}
	return writeEmbeddings(cmd.OutOrStdout(), f.output, format, e)
}

// cluster runs K-means on the embeddings (experiment.Cluster), logs the scores and writes
// --report; the embeddings it returns carry the clusters.
func (f *embedFlags) cluster(stdout io.Writer, a *app, m *training.Model, ds *graphs.Dataset, z *mat.Dense, emb training.Embedding) (experiment.Embeddings, error) {
	if f.clusters > len(ds.Graphs) {
		return experiment.Embeddings{}, cli.Usagef("--clusters = %d is more than the %d graphs", f.clusters, len(ds.Graphs))
	}
	rep, e, err := experiment.Cluster(m, ds, z, experiment.Options{Clusters: f.clusters, Embedding: emb, Features: f.data.Features, Workers: f.under.workers})
	if err != nil {
		return e, err
	}
	if rep.Scored() {
		r := rep.Runs[0]
		a.Log.Infof("%d clusters of %s against its %d classes: accuracy %.2f%%, NMI %.2f%%, ARI %.2f%%, Rand index %.2f%%",
			rep.Clusters, emb, rep.Classes, 100*r.Accuracy, 100*r.NMI, 100*r.ARI, 100*r.RandIndex)
	}
	if f.report != "" {
		write := rep.WriteTable
		if strings.EqualFold(filepath.Ext(f.report), ".json") {
			write = rep.WriteJSON
		}
		if err := cli.WriteOutput(stdout, f.report, write); err != nil {
			return e, err
		}
	}
	return e, nil
}

// writeEmbeddings writes e to output ("-": stdout) in format csv, npy or npz.
func writeEmbeddings(stdout io.Writer, output, format string, e experiment.Embeddings) error {
	return cli.WriteOutput(stdout, output, func(w io.Writer) error {
		switch format {
		case "npy":
			return e.WriteNPY(w)
		case "npz":
			return e.WriteNPZ(w)
		}
		return e.WriteCSV(w)
	})
}

// modelFlags say how a command computes the embeddings of a graph collection under a trained
// model: the trained ones for its training data, else transform mode.
type modelFlags struct {
	steps     int
	transform bool
	workers   int
}

// register adds the flags; --workers only when the command has none yet (cluster's training
// flags have one, which the caller copies into workers).
func (u *modelFlags) register(fs *pflag.FlagSet) {
	fs.IntVar(&u.steps, "steps", 0, "transform mode: Adam steps per graph (0: the model's number of epochs)")
	fs.BoolVar(&u.transform, "transform", false, "use transform mode even on the model's training data")
	if fs.Lookup("workers") == nil {
		trainflags.RegisterWorkers(fs, &u.workers, "transform mode: goroutines")
	}
}

// embed loads the model file and the data and returns the graphs' embeddings z under the
// model (experiment.Embed): the trained z for its training data unless --transform, else z
// computed with the atoms fixed.
func (u *modelFlags) embed(cmd *cobra.Command, a *app, model string, data *dataFlags) (*training.Model, *graphs.Dataset, *mat.Dense, error) {
	if u.steps < 0 || u.workers < 0 {
		return nil, nil, nil, cli.Usagef("--steps and --workers must not be negative")
	}
	if u.steps > training.MaxEpochs {
		return nil, nil, nil, cli.Usagef("--steps = %d must be at most %d", u.steps, training.MaxEpochs)
	}
	m, err := training.Load(model)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := data.useModelFeatures(a.Log, m.Features); err != nil {
		return nil, nil, nil, err
	}
	ds, err := data.load(a.Log)
	if err != nil {
		return nil, nil, nil, err
	}
	warnUnknownNodeLabels(a.Log, ds.UnknownNodeLabels)
	gs := ds.Graphs
	if dim := gs[0].Dim(); dim != m.Dim() {
		return nil, nil, nil, fmt.Errorf("%s: %s", cmd.Name(), featureHint(m.Dim(), dim))
	}
	steps := u.steps
	if steps == 0 {
		steps = m.Config.Epochs
	}
	if !u.transform && experiment.IsTrainingData(m, gs) {
		a.Log.Infof("the data are the model's training data: using the trained embeddings (%d graphs)", len(gs))
		if cli.Changed(cmd.Flags(), "steps") {
			a.Log.Warn("--steps is ignored: the data are the model's training data (add --transform to embed them anew)")
		}
	} else {
		a.Log.Infof("transform mode: embedding %d graphs with the atoms fixed, %d steps each", len(gs), steps)
	}
	z, _, err := experiment.Embed(cmd.Context(), m, gs, experiment.EmbedOptions{Steps: steps, Transform: u.transform, Workers: u.workers, Observe: a.observer("embedding", nil)})
	if err != nil {
		return nil, nil, nil, err
	}
	return m, ds, z, nil
}

// outputFormat resolves --format against the --output file name (.csv, .npy or .npz); its
// errors are usage errors.
func outputFormat(format, output string) (string, error) {
	switch f := strings.ToLower(format); f {
	case "csv", "npy", "npz":
		return f, nil
	case "":
		switch ext := strings.ToLower(filepath.Ext(output)); ext {
		case ".npy", ".npz":
			return ext[1:], nil
		}
		return "csv", nil
	}
	return "", cli.Usagef("--format: unknown format %q (want csv, npy or npz)", format)
}
