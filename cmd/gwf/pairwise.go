package main

import (
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/cli"
	"github.com/gwf-graphs/gwf/layers/pairwise"
	"github.com/gwf-graphs/gwf/training/shard"
)

type pairwiseFlags struct {
	data   dataFlags
	train  trainFlags
	shard  shardFlags
	output string
	long   bool
}

func newPairwiseCmd(a *app) *cobra.Command {
	var f pairwiseFlags
	cmd := &cobra.Command{
		Use:   "pairwise (--dataset NAME | --tu DIR|FILE.zip | --graphs DIR) --output FILE.npy|.npz|.csv [--long] [--shard i/n]",
		Short: "Compute the (F)GW discrepancy of every pair of graphs, on one machine or many",
		Long: `pairwise computes the GW discrepancy (fused GW with node features) of every pair of graphs i < j
with the GWD module of --solver/--gamma/--layers/--inner/--tol/--feature-weight: the matrix of
the FGWK baseline ('gwf cluster --method fgwk'). It writes the square matrix (n×n, zero
diagonal, rows and columns in data order) in the format of --output's extension: .npy or .npz
(float64; numpy.load, the .npz's array is "matrix") or .csv (and stdout): a header "name,<the
graphs' names>" and a row per graph, its name first (pandas.read_csv(path, index_col=0)).
--long writes instead the list of pairs, one row per pair in the order (0,1), (0,2), ...,
(1,2), ...: "i,j,graph_i,graph_j,gwd" with 0-based indices in data order.

The pairs are independent: with --shard i/n (or a Slurm job array or Kubernetes Indexed Job,
see 'gwf embed --help' and docs/scale.md) a process computes only its contiguous slice of the
pairs, as a list, into OUTPUT.shard-i-of-n.csv; 'gwf merge' joins the parts into the list one
process writes with --long, byte for byte. 'gwf cluster --method fgwk --distances FILE' then
clusters from any of these files without computing anything.`,
		Example: `  gwf pairwise --dataset MUTAG --output mutag-gwd.csv          # the 188×188 matrix, named
  gwf pairwise --dataset MUTAG --structure sp --solver cg --output mutag-gwd.npy   # numpy.load
  gwf pairwise --dataset MUTAG --output mutag-gwd-pairs.csv --long     # a row per pair
  gwf pairwise --dataset MUTAG --shard 0/2 --output mutag-gwd.csv &   # mutag-gwd.shard-0-of-2.csv
  gwf pairwise --dataset MUTAG --shard 1/2 --output mutag-gwd.csv &   # mutag-gwd.shard-1-of-2.csv
  wait; gwf merge --output mutag-gwd.csv mutag-gwd.shard-*-of-2.csv
  gwf cluster --dataset MUTAG --method fgwk --distances mutag-gwd.csv --runs 10`,
		Annotations: cli.Interruptible("no discrepancies written"),
		Args:        cli.NoArgs,
		RunE:        func(cmd *cobra.Command, _ []string) error { return runPairwise(cmd, a, &f) },
	}
	fs := cmd.Flags()
	f.data.register(fs)
	f.train.register(fs)
	f.shard.registerShard(fs, "compute only shard i/n (0-based) of the pairs")
	outputFlag(fs, &f.output, "-", "file of the discrepancies: FILE.npy, FILE.npz or FILE.csv (- for CSV on stdout)")
	fs.BoolVar(&f.long, "long", false, "write the list of pairs (i,j,graph_i,graph_j,gwd) instead of the square matrix, as CSV (--shard parts always are)")
	return cmd
}

func runPairwise(cmd *cobra.Command, a *app, f *pairwiseFlags) error {
	flags := cmd.Flags()
	if err := f.data.check(); err != nil {
		return err
	}
	sh, from, sharded, err := f.shard.resolve(os.Getenv)
	if err != nil {
		return err
	}
	output := f.output
	format := "csv"
	if output != "" && output != "-" {
		if format = pairwise.MatrixFormat(output); format == "" {
			return cli.Usagef("--output %s: name a .npy, .npz or .csv file (or - for CSV on stdout)", output)
		}
	}
	square := !f.long && !(sharded && sh.Count > 1)
	if format != "csv" && !square {
		return cli.Usagef("--long and --shard write a list of pairs as CSV: give --output FILE.csv (or compute the whole %s matrix on one machine)", format)
	}
	if sharded && sh.Count > 1 {
		if output == "" || output == "-" {
			return cli.Usagef("--shard %s needs --output FILE: the shard writes FILE's part, FILE.shard-i-of-n.csv", sh)
		}
		output = shard.PartName(output, sh)
	}
	cfg, err := f.train.configLogged(flags, a.Log)
	if err != nil {
		return err
	}
	ds, err := f.data.loadTraining(a.Log)
	if err != nil {
		return err
	}
	data := ds.Graphs
	if len(data) < 2 {
		return cli.Usagef("pairwise: %d graphs, need at least 2", len(data))
	}
	if err := f.train.resolveFeatureWeight(&cfg, graphs.Slice(data), a.Log); err != nil {
		return err
	}
	lo, hi := sh.Range(pairwise.Pairs(len(data)))
	if sharded {
		a.Log.Infof("shard %s (from %s): pairs %d..%d of %d, writing %s", sh, from, lo, hi-1, pairwise.Pairs(len(data)), output)
	}
	ctx := cmd.Context()
	opt := pairwise.Options{Solver: cfg.SolverOptions(), Workers: f.train.Workers, Observe: a.observer("computing", nil)}
	start := time.Now()
	if square {
		d, _, err := pairwise.Matrix(ctx, data, opt)
		if err != nil {
			return err
		}
		write := func(w io.Writer) error { return pairwise.WriteMatrix(w, format, d, graphNames(ds)) }
		if err := cli.WriteOutput(cmd.OutOrStdout(), output, write); err != nil {
			return err
		}
		a.Log.Infof("%d discrepancies in %.1f s, written to %s as a %d×%d matrix", hi-lo, time.Since(start).Seconds(), output, len(data), len(data))
		return nil
	}
	err = cli.WriteOutput(cmd.OutOrStdout(), output, func(w io.Writer) error {
		pw := pairwise.NewCSVWriter(w, data)
		if _, err := pairwise.Range(ctx, data, opt, lo, hi, pw.Write); err != nil {
			return err
		}
		return pw.Flush()
	})
	if err != nil {
		return err
	}
	a.Log.Infof("%d discrepancies in %.1f s, written to %s", hi-lo, time.Since(start).Seconds(), output)
	return nil
}
