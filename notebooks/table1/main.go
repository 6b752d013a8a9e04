// Command table1 reproduces Table 1 of the paper: clustering accuracy of GWF (PPA and BADMM)
// on the benchmark datasets, mean ± std over seeds, beside the paper's numbers. Each cell is one
// `gwf cluster --runs R --output-dir OUT/DATASET-SOLVER[-FEATURES]` run; a cell whose
// report.json exists is reused, so an interrupted notebook continues where it stopped. It
// writes report.md and table1.csv (one row per run) to --out.
//
// Node features follow the paper (see nb.DefaultFeatures): AIDS, PROTEINS and PROTEINS_full are
// learned with their node attributes (FGW), standardized and weighed against the structure
// (--feature-weight auto); IMDB-BINARY from its structure only.
//
//	go run ./notebooks/table1 --out results/table1                       # the paper's protocol
//	go run ./notebooks/table1 --out /tmp/t1 --datasets MUTAG --subset 40 --epochs 2 --runs 2
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gwf-graphs/gwf/notebooks/internal/nb"
)

type options struct {
	datasets, solvers []string
	features          nb.Features // node features per dataset
	runs, subset      int
	epochs            int
	extra             []string // more gwf cluster flags (for tiny runs)
	gwf               string   // the gwf binary; "" builds one
	out               string
}

// paper holds the paper's Table 1 (GWF rows), in %.
var paper = map[string]map[string]string{
	"ppa":   {"AIDS": "99.5 ± 0.4", "PROTEINS": "70.7 ± 0.7", "PROTEINS_full": "69.3 ± 0.8", "IMDB-BINARY": "60.2 ± 1.6"},
	"badmm": {"AIDS": "97.6 ± 0.8", "PROTEINS": "69.2 ± 1.0", "PROTEINS_full": "68.1 ± 1.1", "IMDB-BINARY": "55.9 ± 1.8"},
}

func main() {
	var o options
	var datasets, solvers, features, extra string
	flag.StringVar(&datasets, "datasets", "AIDS,PROTEINS,PROTEINS_full,IMDB-BINARY", "comma-separated bundled datasets")
	flag.StringVar(&solvers, "solvers", "ppa,badmm", "comma-separated GWD modules")
	flag.StringVar(&features, "features", nb.DefaultFeatures, "node features per dataset, DATASET=none|labels|attributes|attributes-std|attributes-bal, comma-separated (unlisted: none)")
	flag.IntVar(&o.runs, "runs", 5, "seeds per cell (1, 2, ...)")
	flag.IntVar(&o.subset, "subset", 0, "graphs per dataset (0: all; the paper uses all)")
	flag.IntVar(&o.epochs, "epochs", 10, "training epochs")
	flag.StringVar(&extra, "extra", "", "more 'gwf cluster' flags, space-separated (e.g. \"--atoms 5\")")
	flag.StringVar(&o.gwf, "gwf", "", "gwf binary to run (default: build ./cmd/gwf)")
	flag.StringVar(&o.out, "out", "results/table1", "output folder")
	flag.Parse()
	o.datasets, o.solvers, o.extra = strings.Split(datasets, ","), strings.Split(solvers, ","), strings.Fields(extra)
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

// cellReport is the part of gwf cluster's report.json the table uses.
type cellReport struct {
	Dataset        string   `json:"dataset"`
	Graphs         int      `json:"graphs"`
	Accuracy       meanStd  `json:"accuracy"`
	AccuracyZ      meanStd  `json:"accuracy_z"`
	AccuracyLambda meanStd  `json:"accuracy_lambda"`
	NMI            meanStd  `json:"nmi"`
	Seconds        meanStd  `json:"seconds"`
	Epochs         int      `json:"epochs"`
	Runs           []runRow `json:"runs"`
}

type meanStd struct{ Mean, Std float64 }

type runRow struct {
	Seed           uint64  `json:"seed"`
	AccuracyZ      float64 `json:"accuracy_z"`
	AccuracyLambda float64 `json:"accuracy_lambda"`
	NMI            float64 `json:"nmi"`
	Seconds        float64 `json:"seconds"`
}

func run(ctx context.Context, o options, log io.Writer) error {
	if o.runs < 1 || o.epochs < 1 || o.subset < 0 || len(o.datasets) == 0 || len(o.solvers) == 0 {
		return errors.New("need --runs ≥ 1, --epochs ≥ 1, --subset ≥ 0 and some datasets and solvers")
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	gwf := o.gwf
	if gwf == "" {
		gwf = filepath.Join(o.out, "gwf")
		fmt.Fprintln(log, "table1: building ./cmd/gwf")
		build := exec.CommandContext(ctx, "go", "build", "-o", gwf, "github.com/gwf-graphs/gwf/cmd/gwf")
		build.Stdout, build.Stderr = log, log
		if err := build.Run(); err != nil {
			return fmt.Errorf("build gwf: %w", err)
		}
	}
	cells := map[string]*cellReport{}
	for _, d := range o.datasets {
		for _, s := range o.solvers {
			dir := filepath.Join(o.out, o.features.CellName(d, s))
			rep, err := readCell(dir)
			if err != nil {
				args := append([]string{"cluster", "--dataset", d, "--solver", s, "--runs", fmt.Sprint(o.runs),
					"--epochs", fmt.Sprint(o.epochs), "--subset", fmt.Sprint(o.subset), "--output-dir", dir, "--json"}, o.extra...)
				args = append(args, o.features.Flags(d)...)
				fmt.Fprintf(log, "table1: %s %s\n", gwf, strings.Join(args, " "))
				cmd := exec.CommandContext(ctx, gwf, args...)
				cmd.Stdout, cmd.Stderr = io.Discard, log
				if err := cmd.Run(); err != nil {
					return fmt.Errorf("%s, %s: %w", d, s, err)
				}
				if rep, err = readCell(dir); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(log, "table1: reusing %s\n", dir)
			}
			cells[d+"/"+s] = rep
		}
	}
	return write(o, cells)
}

func readCell(dir string) (*cellReport, error) {
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		return nil, err
	}
	var rep cellReport
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("%s/report.json: %w", dir, err)
	}
	return &rep, nil
}

func pct(m meanStd) string { return fmt.Sprintf("%.1f ± %.1f", 100*m.Mean, 100*m.Std) }

func write(o options, cells map[string]*cellReport) error {
	cmdline := fmt.Sprintf("go run ./notebooks/table1 --out %s --datasets %s --solvers %s --features %s --runs %d --epochs %d --subset %d",
		o.out, strings.Join(o.datasets, ","), strings.Join(o.solvers, ","), o.features.Describe(o.datasets), o.runs, o.epochs, o.subset)
	if len(o.extra) > 0 {
		cmdline += fmt.Sprintf(" --extra %q", strings.Join(o.extra, " "))
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
