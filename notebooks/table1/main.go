// Command table1 reproduces Table 1 of the paper: clustering accuracy of GWF (PPA and BADMM)
// on the benchmark datasets, mean ± std over seeds, beside the paper's numbers. Each cell is one
// experiment.Run (the library behind `gwf cluster`) with its runs saved under
// OUT/DATASET-SOLVER[-FEATURES]; a finished cell (its report.json) is reused without loading
// anything, and in an unfinished one every run saved with the same data and settings is reused,
// so an interrupted notebook continues where it stopped. It writes report.md and table1.csv (one
// row per run) to --output-dir.
//
// Node features follow the paper (see nb.DefaultFeatures): AIDS, PROTEINS and PROTEINS_full are
// learned with their node attributes (FGW), standardized and weighed against the structure
// (--feature-weight auto); IMDB-BINARY from its structure only.
//
//	go run ./notebooks/table1 --output-dir results/table1                       # the paper's protocol
//	go run ./notebooks/table1 --output-dir /tmp/t1 --datasets MUTAG --subset 40 --epochs 2 --runs 2
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/notebooks/internal/nb"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/experiment"
)

type options struct {
	datasets, solvers []string
	features          nb.Features // node features per dataset
	runs, subset      int
	epochs            int
	atoms, layers     int // 0: the paper's
	workers           int
	out               string
}

// paper holds the paper's Table 1 (GWF rows), in %.
var paper = map[string]map[string]string{
	"ppa":   {"AIDS": "99.5 ± 0.4", "PROTEINS": "70.7 ± 0.7", "PROTEINS_full": "69.3 ± 0.8", "IMDB-BINARY": "60.2 ± 1.6"},
	"badmm": {"AIDS": "97.6 ± 0.8", "PROTEINS": "69.2 ± 1.0", "PROTEINS_full": "68.1 ± 1.1", "IMDB-BINARY": "55.9 ± 1.8"},
}

func main() {
	var o options
	var features string
	fs := nb.NewFlagSet("table1")
	fs.StringSliceVar(&o.datasets, "datasets", []string{"AIDS", "PROTEINS", "PROTEINS_full", "IMDB-BINARY"}, "bundled datasets")
	fs.StringSliceVar(&o.solvers, "solvers", []string{"ppa", "badmm"}, "GWD modules")
	fs.StringVar(&features, "features", nb.DefaultFeatures, "node features per dataset, DATASET=none|labels|attributes|attributes-std|attributes-bal, comma-separated (unlisted: none)")
	fs.IntVar(&o.runs, "runs", 5, "seeds per cell (1, 2, ...)")
	fs.IntVar(&o.subset, "subset", 0, "graphs per dataset (0: all; the paper uses all)")
	fs.IntVar(&o.epochs, "epochs", 10, "training epochs")
	fs.IntVar(&o.atoms, "atoms", 0, "atoms K (0: the paper's 30)")
	fs.IntVar(&o.layers, "layers", 0, "GWD layers M (0: the paper's 50)")
	fs.IntVar(&o.workers, "workers", 0, "goroutines per batch (0: one per CPU); results do not depend on it")
	nb.OutputDir(fs, &o.out, "results/table1")
	fs.Parse(os.Args[1:])
	var err error
	if o.features, err = nb.ParseFeatures(features); err != nil {
		fmt.Fprintln(os.Stderr, "table1: --features:", err)
		os.Exit(2)
	}
	if err := run(context.Background(), o, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "table1:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options, log io.Writer) error {
	if o.runs < 1 || o.epochs < 1 || o.subset < 0 || o.atoms < 0 || o.layers < 0 || len(o.datasets) == 0 || len(o.solvers) == 0 {
		return errors.New("need --runs ≥ 1, --epochs ≥ 1, --subset, --atoms, --layers ≥ 0 and some datasets and solvers")
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	cells := map[string]*experiment.Report{}
	for _, d := range o.datasets {
		var ds *graphs.Dataset
		var weight float64
		for _, s := range o.solvers {
			dir := filepath.Join(o.out, o.features.CellName(d, s))
			if rep, err := experiment.ReadReport(dir); err == nil && !rep.Interrupted && len(rep.Runs) == o.runs && rep.Epochs == o.epochs {
				fmt.Fprintf(log, "table1: reusing %s\n", dir) // a finished cell: nothing to load
				cells[d+"/"+s] = rep
				continue
			}
			if ds == nil {
				var err error
				if ds, weight, err = o.features.Load(d, o.subset); err != nil {
					return err
				}
			}
			cfg := training.DefaultConfig().WithSolverDefaults(layers.SolverName(s))
			cfg.Epochs, cfg.FeatureWeight = o.epochs, weight
			if o.atoms > 0 {
				cfg.Atoms = o.atoms
			}
			if o.layers > 0 {
				cfg.Layers = o.layers
			}
			fmt.Fprintf(log, "table1: %s, %s: %d run(s) in %s\n", d, s, o.runs, dir)
			rep, err := experiment.Run(ctx, ds, experiment.Options{
				Config: cfg, Runs: o.runs, Workers: o.workers, Features: o.features.Of(d), Dir: dir,
				Observe: func(e training.Event) {
					if e.Message != "" {
						fmt.Fprintf(log, "table1: %s, %s, run %d: %s\n", d, s, e.Run, e.Message)
					}
				},
			})
			if err != nil {
				return fmt.Errorf("%s, %s: %w", d, s, err)
			}
			cells[d+"/"+s] = rep
		}
	}
	return write(o, cells)
}

func pct(m experiment.MeanStd) string { return fmt.Sprintf("%.1f ± %.1f", 100*m.Mean, 100*m.Std) }

func write(o options, cells map[string]*experiment.Report) error {
	cmdline := fmt.Sprintf("go run ./notebooks/table1 --output-dir %s --datasets %s --solvers %s --features %s --runs %d --epochs %d --subset %d",
		o.out, strings.Join(o.datasets, ","), strings.Join(o.solvers, ","), o.features.Describe(o.datasets), o.runs, o.epochs, o.subset)
	if o.atoms > 0 || o.layers > 0 {
		cmdline += fmt.Sprintf(" --atoms %d --layers %d", o.atoms, o.layers)
	}
	rep := nb.NewReport("Table 1: clustering accuracy (%)", cmdline)
	rep.Printf("K-means (10 restarts) on λ = softmax(z) (the default) and on z; mean ± std over %d seeds; %d epochs; %s.\n\n",
		o.runs, o.epochs, map[bool]string{true: "all graphs", false: fmt.Sprintf("%d graphs per dataset", o.subset)}[o.subset == 0])
	header := []string{""}
	for _, d := range o.datasets {
		header = append(header, d+" ("+o.features.Of(d)+")")
	}
	var rows [][]string
	for _, s := range o.solvers {
		row := []string{"paper GWF-" + strings.ToUpper(s)}
		for _, d := range o.datasets {
			row = append(row, orDash(paper[s][d]))
		}
		rows = append(rows, row)
	}
	for _, s := range o.solvers {
		lam, z, nmi, secs := []string{"gwf " + strings.ToUpper(s) + ", λ"}, []string{"gwf " + strings.ToUpper(s) + ", z"}, []string{"NMI (λ)"}, []string{"s per run (" + strings.ToUpper(s) + ")"}
		for _, d := range o.datasets {
			c := cells[d+"/"+s]
			lam = append(lam, pct(c.AccuracyLambda))
			z = append(z, pct(c.AccuracyZ))
			nmi = append(nmi, fmt.Sprintf("%.3f ± %.3f", c.NMI.Mean, c.NMI.Std))
			secs = append(secs, fmt.Sprintf("%.0f", c.Seconds.Mean))
		}
		rows = append(rows, lam, z, nmi, secs)
	}
	rep.Table(header, rows)
	var csv strings.Builder
	csv.WriteString("dataset,solver,seed,graphs,epochs,accuracy_lambda,accuracy_z,nmi,seconds\n")
	for _, d := range o.datasets {
		for _, s := range o.solvers {
			c := cells[d+"/"+s]
			for _, r := range c.Runs {
				fmt.Fprintf(&csv, "%s,%s,%d,%d,%d,%.6f,%.6f,%.6f,%.1f\n", d, s, r.Seed, c.Graphs, c.Epochs, r.AccuracyLambda, r.AccuracyZ, r.NMI, r.Seconds)
			}
		}
	}
	if err := nb.WriteFile(filepath.Join(o.out, "table1.csv"), []byte(csv.String())); err != nil {
		return err
	}
	return rep.Save(o.out)
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
