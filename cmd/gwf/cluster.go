package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/sirupsen/logrus"
	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/layers/pairwise"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/cluster"
	"github.com/gwf-graphs/gwf/training/experiment"
	"github.com/gwf-graphs/gwf/training/progresslog"
	"github.com/gwf-graphs/gwf/training/shard"
)

// clusterFlags are the flags of "gwf cluster".
type clusterFlags struct {
	data       dataFlags
	train      trainFlags
	embedding  string
	runs       int
	clusters   int
	json       bool
	outputDir  string
	method     string
	iterations int
	model      string
	output     string
	distances  string
	encoder    encoderFlags
}

func newClusterCmd(a *app) *cobra.Command {
	var f clusterFlags
	cmd := &cobra.Command{
		Use:   "cluster (--dataset NAME | --tu DIR|FILE.zip | --graphs DIR) [--clusters K] [--output FILE.csv]",
		Short: "Fit GWF models and cluster their embeddings with K-means (the paper's experiment)",
		Long: fmt.Sprintf(`cluster runs the paper's clustering experiment --runs times: run r (r = 0, 1, ...) fits a GWF
model with seed --seed + r, clusters the graphs' embeddings with K-means (K = --clusters, by
default the number of classes; %d restarts, seeded) and scores the clusters against the class
labels: accuracy (best matching of clusters to classes), NMI, ARI and Rand index. The chosen
--embedding (z: raw embeddings, lambda: atom weights softmax(z); default %s) gives the main
scores; the other one is always scored too. Unlabelled data (a TU folder without graph labels,
a --graphs folder without labels.csv) need --clusters; the clusters are written (--output FILE.csv:
every run's cluster of each graph, "graph,label,cluster..."; --output-dir) but not scored.

The table shows each run and the mean ± std over runs (scores in %%); --json prints the report
as JSON instead (scores as fractions). --output-dir also writes, per run, the embeddings with
their clusters (embeddings-run<r>.csv), its scores and settings (run<r>.json) and the report
(report.json). A run whose run<r>.json is there with the same data and settings is reused, not
trained again, so a killed multi-run experiment continues where it stopped when rerun.

Training flags are those of 'gwf fit' and default to the paper's settings. --subset N picks N
graphs at random (seeded by --subset-seed, the same for all runs) for quick tries.

--method fgwk or gwb-km runs a baseline of the paper's Table 1 instead of GWF, with the GWD
module of --solver/--gamma/--layers/--inner: FGWK computes the (F)GW discrepancy of every pair
of graphs (I(I−1)/2 GWDs: use --subset on large datasets), the kernel exp(−d/β) with β the
median discrepancy, and spectral clustering; GWB-KM runs K-means with GW barycenters as centers
(--iterations rounds at most, --gwb-layers per barycenter). Both report the GWDs computed.
--distances FILE gives FGWK the discrepancies computed beforehand by 'gwf pairwise' (on one
machine or, sharded, on many) for the same data: it then computes none.

--encoder gin (or gcn) computes each graph's embedding with a graph neural network, z_i =
GNN(G_i), whose weights the GWF term trains together with the atoms (no labels: the model of
the "trained by the GWF term alone" baseline of 'gwf classify --encoder'), instead of the
paper's free z_i.

To cluster under a model trained by 'gwf fit', without training, use 'gwf embed --model FILE
--clusters K': it writes the embeddings with their clusters and scores them.

The experiment is the library package training/experiment; this command adds the flags, the
output and the progress log.`, cluster.DefaultRestarts, experiment.DefaultEmbedding),
		Example: `  gwf cluster --dataset MUTAG --runs 5
  gwf cluster --dataset PROTEINS --features labels --embedding lambda --json > proteins.json
  gwf cluster --dataset MUTAG --subset 40 --atoms 3 --layers 5 --epochs 2 --runs 2
  gwf cluster --tu ./data/MYDATA --output-dir results/
  gwf cluster --graphs ./my-graphs --clusters 3 --output clusters.csv
  gwf cluster --dataset IMDB-BINARY --encoder gin --runs 3
  gwf cluster --dataset AIDS --method fgwk --subset 500 --runs 5`,
		Annotations: cli.Interruptible("nothing written"),
		Args:        cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runCluster(cmd, a, &f)
		},
	}
	fs := cmd.Flags()
	f.data.register(fs)
	embeddingFlag(fs, &f.embedding, "embedding to cluster")
	fs.IntVar(&f.clusters, "clusters", 0, "number of clusters K (0: the number of classes; required when the data have no class labels)")
	jsonFlag(fs, &f.json, "the report")
	outputFlag(fs, &f.output, "", "file to write every run's cluster of each graph to (CSV: graph,label,cluster...; - for stdout)")
	f.train.register(fs)
	f.encoder.register(fs, "the GWF term")
	fs.IntVar(&f.runs, "runs", 1, "number of runs (seeds --seed, --seed+1, ...)")
	outputDirFlag(fs, &f.outputDir, "folder to write each run's embeddings CSV and report.json into, for a rerun to reuse")
	fs.StringVar(&f.method, "method", string(experiment.GWF), "clustering method: gwf (the model), fgwk (pairwise GW kernel + spectral clustering) or gwb-km (K-means with GW barycenter centers)")
	fs.IntVar(&f.iterations, "iterations", 10, "assign/update rounds of gwb-km")
	fs.StringVar(&f.distances, "distances", "", "with --method fgwk: the pairwise discrepancies written by 'gwf pairwise' for the same data, .npy, .npz or .csv, the matrix or --long's list (nothing is recomputed)")
	fs.StringVar(&f.model, "model", "", "moved: clustering under a trained model is 'gwf embed --model FILE --clusters K'")
	_ = fs.MarkHidden("model")
	return cmd
}

func runCluster(cmd *cobra.Command, a *app, f *clusterFlags) error {
	flags := cmd.Flags()
	if err := f.data.check(); err != nil {
		return err
	}
	if f.model != "" {
		return cli.Usagef("--model: clustering under a trained model is now 'gwf embed --model %s --clusters K' (with the same data flags)", f.model)
	}
	opt, err := f.options()
	if err != nil {
		return err
	}
	if f.output != "" && f.output != "-" && !strings.EqualFold(filepath.Ext(f.output), ".csv") {
		return cli.Usagef("--output %s: --output writes every run's clusters as CSV: give FILE.csv (the embeddings: --output-dir, or 'gwf embed --clusters K' under a trained model)", f.output)
	}
	release, err := lockOutputDir(f.outputDir, shard.Whole(), a.Log)
	if err != nil {
		return err
	}
	defer release()
	cfg, err := f.train.configLogged(flags, a.Log)
	if err != nil {
		return err
	}
	ds, err := f.data.loadTraining(a.Log)
	if err != nil {
		return err
	}
	if err := f.checkClusters(ds); err != nil {
		return err
	}
	if err := f.train.resolveFeatureWeight(&cfg, graphs.Slice(ds.Graphs), a.Log); err != nil {
		return err
	}
	if f.distances != "" {
		if opt.Method != experiment.FGWK {
			return cli.Usagef("--distances needs --method fgwk")
		}
		if opt.Distances, err = pairwise.ReadFile(f.distances, ds.Graphs); err != nil {
			return err
		}
	}
	opt.Config = cfg
	opt.Observe = progresslog.Observer(a.Log, "training", opt.Runs, logrus.Fields{"method": string(opt.Method)})
	how := cfg.Describe()
	if opt.Trainer != nil {
		how += ", embeddings by a " + opt.Trainer.Name() + " encoder"
	}
	a.Log.Infof("clustering %s (%d graphs, node features: %s) with %s, %d run(s): %s", ds.Name, len(ds.Graphs), f.data.Features, opt.Method, opt.Runs, how)
	rep, err := experiment.Run(cmd.Context(), ds, opt)
	if rep == nil {
		return err
	}
	out := cmd.OutOrStdout()
	if f.output != "" && len(rep.Runs) > 0 {
		if err := cli.WriteOutput(out, f.output, func(w io.Writer) error { return rep.WriteAssignments(w, ds) }); err != nil {
			return err
		}
		if f.output != "-" {
			a.Log.Infof("the clusters of %d run(s) written to %s", len(rep.Runs), f.output)
		}
	}
	if f.output != "-" {
		if err := f.writeReport(out, rep); err != nil {
			return err
		}
	}
	if rep.Interrupted {
		return cli.Interrupted(fmt.Sprintf("interrupted: %d of %d runs completed (reported above)", len(rep.Runs), f.runs))
	}
	return nil
}

// writeReport prints the report as --json says: JSON or the table.
func (f *clusterFlags) writeReport(out io.Writer, rep *experiment.Report) error {
	var err error
	if f.json {
		err = rep.WriteJSON(out)
	} else {
		err = rep.WriteTable(out)
	}
	if err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// checkClusters refuses, as a usage error, a number of clusters the data cannot have.
func (f *clusterFlags) checkClusters(ds *graphs.Dataset) error {
	switch {
	case f.clusters > len(ds.Graphs):
		return cli.Usagef("--clusters = %d is more than the %d graphs", f.clusters, len(ds.Graphs))
	case f.clusters == 0 && !ds.Graphs[0].HasLabel:
		return cli.Usagef("the data have no class labels: give the number of clusters with --clusters K")
	}
	return nil
}

// options checks the flags of the experiment; its errors are usage errors.
func (f *clusterFlags) options() (experiment.Options, error) {
	method, err := experiment.ParseMethod(f.method)
	if err != nil {
		return experiment.Options{}, cli.Usagef("--method: %w", err)
	}
	emb, err := training.ParseEmbedding(f.embedding)
	if err != nil {
		return experiment.Options{}, cli.Usagef("--embedding: %w", err)
	}
	// Zero would select the library's default: on the command line it is a mistake.
	if f.runs < 1 || f.iterations < 1 {
		return experiment.Options{}, cli.Usagef("--runs = %d and --iterations = %d must be at least 1", f.runs, f.iterations)
	}
	trainer, err := f.trainer()
	if err != nil {
		return experiment.Options{}, err
	}
	opt := experiment.Options{
		Method: method, Runs: f.runs, Clusters: f.clusters, Embedding: emb, Iterations: f.iterations,
		Workers: f.train.Workers, SkipNonFinite: f.train.SkipNonFinite, Features: f.data.Features, Dir: f.outputDir,
		Trainer: trainer,
	}
	if err := opt.Validate(); err != nil {
		return experiment.Options{}, cli.Usagef("%v", err)
	}
	return opt, nil
}

// trainer is the experiment's trainer of --encoder: nil for the paper's free embeddings.
func (f *clusterFlags) trainer() (experiment.Trainer, error) {
	if f.encoder.encoder() == semisup.EncoderNone {
		if f.encoder.hidden != defaultEncoderHidden || f.encoder.lr != 0 {
			return nil, cli.Usagef("--encoder-hidden and --encoder-lr need --encoder gcn or gin")
		}
		return nil, nil
	}
	hidden, err := f.encoder.widths()
	if err != nil {
		return nil, err
	}
	t := semisup.EncoderTrainer{Kind: f.encoder.encoder(), Hidden: hidden, LearningRate: f.encoder.lr}
	if err := t.Validate(); err != nil {
		return nil, cli.Usagef("--encoder: %v", err)
	}
	return t, nil
}
