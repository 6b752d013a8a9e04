package nbkit

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/experiment"
)

// Table1Config are the data and sizes of Table 1.
type Table1Config struct {
	Datasets []string // bundled datasets
	Solvers  []string // GW-discrepancy modules: ppa, badmm
	Features Features // node features per dataset (PaperFeatures: the paper's)
	Runs     int      // seeds per cell (1, 2, …)
	Subset   int      // graphs per dataset, spread evenly over the file (0: all)
	Epochs   int      // training epochs
	Atoms    int      // atoms K (0: the paper's 30)
	Layers   int      // layers M of the solver (0: the paper's 50)
	Workers  int      // goroutines per batch (0: one per CPU); results do not depend on it
	// Keep, when not empty, is a folder where every cell keeps its runs (run<r>.json,
	// embeddings-run<r>.csv) and report.json under DATASET-SOLVER[-FEATURES]: a finished cell is
	// reused without loading its data, and in an unfinished one every run made with the same
	// data and settings, so an interrupted table continues where it stopped.
	Keep string
}

// Table1Paper is the paper's protocol.
func Table1Paper() Table1Config {
	return Table1Config{Datasets: []string{"AIDS", "PROTEINS", "PROTEINS_full", "IMDB-BINARY"}, Solvers: []string{"ppa", "badmm"},
		Features: PaperFeatures(), Runs: 5, Epochs: training.DefaultConfig().Epochs}
}

// table1Paper holds the paper's Table 1 (GWF rows), in %.
func table1Paper() map[string]map[string]string {
	return map[string]map[string]string{
		"ppa":   {"AIDS": "99.5 ± 0.4", "PROTEINS": "70.7 ± 0.7", "PROTEINS_full": "69.3 ± 0.8", "IMDB-BINARY": "60.2 ± 1.6"},
		"badmm": {"AIDS": "97.6 ± 0.8", "PROTEINS": "69.2 ± 1.0", "PROTEINS_full": "68.1 ± 1.1", "IMDB-BINARY": "55.9 ± 1.8"},
	}
}

// Table1 reproduces Table 1 of the paper: clustering accuracy of GWF models (PPA and BADMM)
// learned without labels, mean ± std over seeds, beside the paper's numbers. Each cell is one
// experiment.Run (the library behind `gwf cluster`): it trains Runs models, clusters λ =
// softmax(z) (the main score) and z with 10 K-means restarts, and scores them. It keeps one row
// per run in table1.csv.
func Table1(ctx context.Context, c Table1Config, out Output) error {
	if c.Runs < 1 || c.Epochs < 1 || c.Subset < 0 || c.Atoms < 0 || c.Layers < 0 || len(c.Datasets) == 0 || len(c.Solvers) == 0 {
		return errors.New("need runs ≥ 1, epochs ≥ 1, subset, atoms, layers ≥ 0 and some datasets and solvers")
	}
	cells := map[string]*experiment.Report{}
	for _, d := range c.Datasets {
		var ds *graphs.Dataset
		var weight float64
		for _, s := range c.Solvers {
			dir := ""
			if c.Keep != "" {
				dir = filepath.Join(c.Keep, c.Features.CellName(d, s))
				if rep, err := experiment.ReadReport(dir); err == nil && !rep.Interrupted && len(rep.Runs) == c.Runs && rep.Epochs == c.Epochs {
					out.Logf("table1: reusing %s", dir) // a finished cell: nothing to load
					cells[d+"/"+s] = rep
					continue
				}
			}
			if ds == nil {
				var err error
				if ds, weight, err = c.Features.Load(d, c.Subset); err != nil {
					return err
				}
			}
			cfg := training.DefaultConfig().WithSolverDefaults(layers.SolverName(s))
			cfg.Epochs, cfg.FeatureWeight = c.Epochs, weight
			if c.Atoms > 0 {
				cfg.Atoms = min(c.Atoms, len(ds.Graphs))
			}
			if c.Layers > 0 {
				cfg.Layers = c.Layers
			}
			out.Logf("table1: %s, %s: %d run(s)", d, s, c.Runs)
			rep, err := experiment.Run(ctx, ds, experiment.Options{
				Config: cfg, Runs: c.Runs, Workers: c.Workers, Features: c.Features.Of(d), Dir: dir,
				Observe: func(e training.Event) {
					if e.Message != "" {
						out.Logf("table1: %s, %s, run %d: %s", d, s, e.Run, e.Message)
					}
				},
			})
			if err != nil {
				return fmt.Errorf("%s, %s: %w", d, s, err)
			}
			cells[d+"/"+s] = rep
		}
	}
	return table1Show(c, cells, out)
}

func pct(m experiment.MeanStd) string { return fmt.Sprintf("%.1f ± %.1f", 100*m.Mean, 100*m.Std) }

func table1Show(c Table1Config, cells map[string]*experiment.Report, out Output) error {
	first := cells[c.Datasets[0]+"/"+c.Solvers[0]]
	out.Markdown("K-means (10 restarts) on λ = softmax(z) (the default) and on z; mean ± std over %d seeds; %d epochs, K = %d, M = %d; %s. Clustering accuracy (%%) and the NMI of the λ clusters; the paper's GWF rows first.",
		c.Runs, c.Epochs, first.Config.Atoms, first.Config.Layers, map[bool]string{true: "all graphs", false: fmt.Sprintf("%d graphs per dataset", c.Subset)}[c.Subset == 0])
	header := []string{""}
	for _, d := range c.Datasets {
		header = append(header, fmt.Sprintf("%s (%s, %d graphs)", d, c.Features.Of(d), cells[d+"/"+c.Solvers[0]].Graphs))
	}
	paper := table1Paper()
	var rows [][]string
	for _, s := range c.Solvers {
		row := []string{"paper GWF-" + strings.ToUpper(s)}
		for _, d := range c.Datasets {
			row = append(row, orDash(paper[s][d]))
		}
		rows = append(rows, row)
	}
	for _, s := range c.Solvers {
		S := strings.ToUpper(s)
		lam, z, nmi, secs := []string{"gwf " + S + ", λ"}, []string{"gwf " + S + ", z"}, []string{"NMI (" + S + ", λ)"}, []string{"s per run (" + S + ")"}
		for _, d := range c.Datasets {
			r := cells[d+"/"+s]
			lam = append(lam, pct(r.AccuracyLambda))
			z = append(z, pct(r.AccuracyZ))
			nmi = append(nmi, fmt.Sprintf("%.3f ± %.3f", r.NMI.Mean, r.NMI.Std))
			secs = append(secs, fmt.Sprintf("%.1f", r.Seconds.Mean))
		}
		rows = append(rows, lam, z, nmi, secs)
	}
	out.Table(header, rows)
	var csv strings.Builder
	csv.WriteString("dataset,solver,seed,graphs,epochs,accuracy_lambda,accuracy_z,nmi,seconds\n")
	for _, d := range c.Datasets {
		for _, s := range c.Solvers {
			r := cells[d+"/"+s]
			for _, run := range r.Runs {
				fmt.Fprintf(&csv, "%s,%s,%d,%d,%d,%.6f,%.6f,%.6f,%.1f\n", d, s, run.Seed, r.Graphs, r.Epochs, run.AccuracyLambda, run.AccuracyZ, run.NMI, run.Seconds)
			}
		}
	}
	return out.File("table1.csv", []byte(csv.String()))
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
