package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training/baselines"
	"github.com/gwf-graphs/gwf/training/shard"
)

type pairwiseFlags struct {
	data   dataFlags
	train  trainFlags
	shard  shardFlags
	output string
	quiet  bool
}

func newPairwiseCmd(a *app) *cobra.Command {
	var f pairwiseFlags
	cmd := &cobra.Command{
		Use:   "pairwise (--dataset NAME | --tu DIR|FILE.zip | --graphs DIR) [--shard i/n] --output FILE.csv",
		Short: "Compute the (F)GW discrepancy of every pair of graphs, on one machine or many",
		Long: `pairwise computes the GW discrepancy (fused GW with node features) of every pair of graphs i < j
with the GWD module of --solver/--gamma/--layers/--inner/--tol/--feature-weight: the matrix of
the FGWK baseline ('gwf cluster --method fgwk'). It writes CSV, one row per pair in the order
(0,1), (0,2), ..., (1,2), ...: "i,j,graph_i,graph_j,gwd" with 0-based indices in data order;
an --output ending in .npy gets the square matrix instead (float64, n×n, zero diagonal, rows
and columns in data order), as numpy.load reads it.

The pairs are independent: with --shard i/n (or a Slurm job array or Kubernetes Indexed Job,
see 'gwf embed --help' and the README) a process computes only its contiguous slice of the
pairs into OUTPUT.shard-i-of-n.csv; 'gwf merge' joins the parts into the file one process
writes, byte for byte. 'gwf cluster --method fgwk --distances FILE' then clusters from the
file without computing anything.`,
		Example: `  gwf pairwise --dataset MUTAG --output mutag-gwd.csv
  gwf pairwise --dataset MUTAG --structure sp --solver cg --output mutag-gwd.npy   # numpy.load
  gwf pairwise --dataset MUTAG --shard 0/2 --output mutag-gwd.csv &   # mutag-gwd.shard-0-of-2.csv
  gwf pairwise --dataset MUTAG --shard 1/2 --output mutag-gwd.csv &   # mutag-gwd.shard-1-of-2.csv
  wait; gwf merge --output mutag-gwd.csv mutag-gwd.shard-*-of-2.csv
  gwf cluster --dataset MUTAG --method fgwk --distances mutag-gwd.csv --runs 10`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runPairwise(cmd, a, &f) },
	}
	fs := cmd.Flags()
	f.data.register(fs)
	f.train.register(fs)
	f.shard.registerShard(fs, "compute only shard i/n (0-based) of the pairs")
	fs.StringVarP(&f.output, "output", "o", "-", "file of the discrepancies: CSV of the pairs (- for stdout), or FILE.npy: the square matrix")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "do not log progress")
	return cmd
}

func runPairwise(cmd *cobra.Command, a *app, f *pairwiseFlags) error {
	flags := cmd.Flags()
	a.quiet(flags, f.quiet)
	if err := f.data.check(); err != nil {
		return err
	}
	sh, from, sharded, err := f.shard.resolve(os.Getenv)
	if err != nil {
		return err
	}
	output := f.output
	square := isNPY(output)
	if square && sharded && sh.Count > 1 {
		return usagef("--shard writes its part of the pairs as CSV: give --output FILE.csv (or compute the whole .npy matrix on one machine)")
	}
	if sharded && sh.Count > 1 {
		if output == "" || output == "-" {
			return usagef("--shard %s needs --output FILE: the shard writes FILE's part, FILE.shard-i-of-n.csv", sh)
		}
		output = shard.PartName(output, sh)
	}
	cfg, err := f.train.configLogged(flags, a.log)
	if err != nil {
		return err
	}
	ds, err := f.data.load()
	if err != nil {
		return err
	}
	data := ds.Graphs
	if len(data) < 2 {
		return usagef("pairwise: %d graphs, need at least 2", len(data))
	}
	if err := f.train.resolveFeatureWeight(&cfg, graphs.Slice(data), a.log); err != nil {
		return err
	}
	lo, hi := sh.Range(baselines.Pairs(len(data)))
	if sharded {
		a.log.Infof("shard %s (from %s): pairs %d..%d of %d, writing %s", sh, from, lo, hi-1, baselines.Pairs(len(data)), output)
	}
	ctx, stop := withSignals(cmd.Context(), a.log)
	defer stop()
	opt := baselines.Options{Config: cfg, Workers: f.train.workers}
	if !f.quiet {
		opt.Progress = gwdProgress(a, nil)
	}
	start := time.Now()
	if square {
		d, _, err := baselines.PairwiseGWD(ctx, data, opt)
		if err != nil {
			if ctx.Err() != nil {
				return interruptedError{"interrupted: no discrepancies written"}
			}
			return err
		}
		if err := writeOutput(cmd.OutOrStdout(), output, func(w io.Writer) error { return baselines.WriteMatrixNPY(w, d) }); err != nil {
			return err
		}
		a.log.Infof("%d discrepancies in %.1f s, written to %s as a %d×%d matrix", hi-lo, time.Since(start).Seconds(), output, len(data), len(data))
		return nil
	}
	err = writeOutput(cmd.OutOrStdout(), output, func(w io.Writer) error {
		pw := baselines.NewPairCSVWriter(w, data)
		if _, err := baselines.PairwiseRange(ctx, data, opt, lo, hi, pw.Write); err != nil {
			return err
		}
		return pw.Flush()
	})
	if err != nil {
		if ctx.Err() != nil {
			return interruptedError{"interrupted: no discrepancies written"}
		}
		return err
	}
	a.log.Infof("%d discrepancies in %.1f s, written to %s", hi-lo, time.Since(start).Seconds(), output)
	return nil
}

// isNPY reports whether path names a NumPy array file.
func isNPY(path string) bool { return strings.EqualFold(filepath.Ext(path), ".npy") }

// readDistances reads what 'gwf pairwise' wrote for data: the CSV of pairs, or a square .npy
// matrix (numpy's, too).
func readDistances(path string, data []*graphs.Graph) (*mat.SymDense, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if isNPY(path) {
		st, err := f.Stat()
		if err != nil {
			return nil, err
		}
		d, err := baselines.ReadMatrixNPY(f, st.Size(), len(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return d, nil
	}
	d, err := baselines.ReadPairwiseCSV(bufio.NewReader(f), data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}
