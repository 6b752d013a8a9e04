package main

import (
	"context"
	"strings"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/graphs/collection/dataflags"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/bench"
)

type benchFlags struct {
	datasets    []string
	train       trainFlags
	features    string
	standardize bool
	graphs      int
	minTime     time.Duration
	kernels     bool
	curve       bool
	curveMax    int
	json        bool
}

func newBenchCmd(a *app) *cobra.Command {
	f := &benchFlags{}
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Time the GWD/GWB kernels, the loss and training epochs on this machine",
		Long: `bench measures, with the paper's settings (PPA γ = 0.01, M = 50, 5 sweeps; K = 30
warm-started atoms, L = 2):

  gemm      the machine's dense matrix product rate on one core (256×256): the solvers' own
            kernel (internal/simd) and, for comparison, gonum's pure-Go Dgemm
  gwd       one GWD between two Barabási–Albert graphs (2 edges per new node) of N = 20, 40,
            100, 200 nodes, then between two dense weighted graphs (like barycenters) of the
            same sizes: time, allocations, and its floating-point work as the solver does it
            (sparse products by their non-zeros, 4·N² per Sinkhorn sweep; exps not counted)
            as a rate and as the time it would take at the GEMM rate
  gwb       one barycenter (K = 30 atoms of 35 nodes, N = 20, L = 2) with the final GWD
  loss      the same plus the envelope loss and its gradients
  curve     with --curve: one GWD between two BA graphs of N = 20, 50, 100, 200, 500 nodes
            with PPA (the paper's settings) and with CG (exact, run to convergence), and
            CG's mean number of iterations
  epoch     one training epoch on each --dataset (all graphs, or the first --count of a seeded
            shuffle, extrapolated to the whole dataset), on --workers goroutines, with the
            training flags of 'gwf fit' (the paper's settings by default)

Peak memory is the process's peak resident set so far (it only grows; bench one dataset per
run for a per-dataset figure).`,
		Example: `  gwf bench
  gwf bench --dataset AIDS --dataset PROTEINS --json
  gwf bench --dataset PROTEINS_full --count 200
  gwf bench --kernels=false --dataset IMDB-BINARY --solver badmm
  gwf bench --kernels=false --curve`,
		Args: cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBench(cmd, a, f)
		},
	}
	fs := cmd.Flags()
	fs.StringArrayVar(&f.datasets, "dataset", nil, "bundled dataset to time an epoch on (repeatable; none: kernels only)")
	fs.StringVar(&f.features, "features", "none", "node features for the epochs: none, labels, attributes or both (PROTEINS_full's, for its FGW setting)")
	fs.BoolVar(&f.standardize, "standardize", false, "standardize the node features (see 'gwf fit --help')")
	fs.IntVar(&f.graphs, "count", 0, "time the epoch on this many graphs (0: all) and extrapolate")
	cli.RenamedFlag(fs, "count", "graphs") // --graphs is a folder in the data commands
	fs.DurationVar(&f.minTime, "min-time", time.Second, "run each kernel benchmark at least this long")
	fs.BoolVar(&f.kernels, "kernels", true, "time the kernels (--kernels=false: only the epochs)")
	fs.BoolVar(&f.curve, "curve", false, "time PPA and CG for N = 20 to --curve-max")
	fs.IntVar(&f.curveMax, "curve-max", 500, "largest N of --curve")
	f.train.register(fs)
	_ = fs.MarkHidden("epochs") // one epoch is timed
	jsonFlag(fs, &f.json, "the report")
	return cmd
}

func runBench(cmd *cobra.Command, a *app, f *benchFlags) error {
	switch {
	case f.graphs < 0:
		return cli.Usagef("--count = %d must not be negative", f.graphs)
	case f.minTime <= 0:
		return cli.Usagef("--min-time must be positive")
	}
	cfg, err := f.train.configLogged(cmd.Flags(), a.Log)
	if err != nil {
		return err
	}
	cfg.Epochs = 1
	if _, err := graphs.ParseFeatureKind(f.features); err != nil {
		return cli.Usagef("--features: %w", err)
	}
	for _, d := range f.datasets {
		if !dataflags.IsBundled(d) {
			return cli.Usagef("unknown dataset %q (bundled: %s)", d, strings.Join(datasets.Names(), ", "))
		}
	}
	ctx := cmd.Context()
	rep := bench.NewReport("kernels: PPA γ=0.01 M=50 inner=5, K=30 warm-started atoms, L=2; epochs: " + cfg.Describe())
	logKernel := func(k bench.Kernel) { a.Log.Infof("%s: %.3f ms", k.Name, k.Millis) }
	if f.kernels {
		if err := bench.Kernels(&rep, f.minTime, logKernel); err != nil {
			return err
		}
		a.Log.Infof("gemm: %.2f GFLOP/s (one core, %s), gonum %.2f", rep.GEMMGflops, rep.Kernels, rep.GonumGflops)
	}
	if f.curve {
		if err := bench.Curves(&rep, f.curveMax, f.minTime, logKernel); err != nil {
			return err
		}
	}
	for _, d := range f.datasets {
		e, err := benchEpoch(ctx, a, d, f, cfg)
		if err != nil {
			return err
		}
		rep.Epochs = append(rep.Epochs, e)
	}
	rep.PeakRSSMiB = bench.PeakRSSMiB()
	if f.json {
		return cli.WriteJSON(cmd.OutOrStdout(), rep)
	}
	return rep.WriteTable(cmd.OutOrStdout())
}

// benchEpoch times one training epoch with the paper's settings on a bundled dataset (or the
// first --count graphs of a seeded shuffle of it).
func benchEpoch(ctx context.Context, a *app, name string, f *benchFlags, cfg training.Config) (bench.Epoch, error) {
	df := dataFlags{dataflags.Flags{Dataset: name, Features: f.features, Standardize: f.standardize, LimitFlags: dataflags.DefaultLimitFlags()}}
	ds, err := df.load(a.Log)
	if err != nil {
		return bench.Epoch{}, err
	}
	timed := ds.Graphs
	if pick := (collection.Spec{Subset: f.graphs, SubsetSeed: 1}).Pick(len(ds.Graphs)); len(pick) < len(ds.Graphs) {
		timed = make([]*graphs.Graph, len(pick))
		for k, i := range pick {
			timed[k] = ds.Graphs[i]
		}
	}
	if err := f.train.resolveFeatureWeight(&cfg, graphs.Slice(ds.Graphs), a.Log); err != nil {
		return bench.Epoch{}, err
	}
	e, err := bench.TimeEpoch(ctx, ds.Name, f.features, timed, len(ds.Graphs), cfg, training.Options{Workers: f.train.Workers, Observe: a.observer("bench epoch", logrus.Fields{"dataset": name})})
	if err != nil {
		return bench.Epoch{}, err
	}
	a.Log.Infof("%s: %.1f graphs/s, %.1f s per epoch", e.Dataset, e.GraphsPerSec, e.SecondsPerEpoch)
	return e, nil
}
