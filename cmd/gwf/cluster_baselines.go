package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/sirupsen/logrus"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/baselines"
	"github.com/gwf-graphs/gwf/training/cluster"
)

// Clustering methods of "gwf cluster --method".
const (
	methodGWF   = "gwf"
	methodFGWK  = "fgwk"
	methodGWBKM = "gwb-km"
)

// baselineRun is one seed of a baseline.
type baselineRun struct {
	Run       int     `json:"run"`
	Seed      uint64  `json:"seed"`
	Accuracy  float64 `json:"accuracy"`
	NMI       float64 `json:"nmi"`
	ARI       float64 `json:"ari"`
	RandIndex float64 `json:"rand_index"`
	GWDs      int     `json:"gwds"`
	Seconds   float64 `json:"seconds"`
}

// baselineReport is what "gwf cluster --method fgwk|gwb-km" prints.
type baselineReport struct {
	Method   string  `json:"method"`
	Dataset  string  `json:"dataset"`
	Graphs   int     `json:"graphs"`
	Classes  int     `json:"classes"`
	Features string  `json:"features"`
	Solver   string  `json:"solver"`
	Gamma    float64 `json:"gamma"`
	Layers   int     `json:"layers"`
	// FeatureWeight weighs the node-feature cost in the fused GW discrepancies.
	FeatureWeight float64       `json:"feature_weight"`
	Runs          []baselineRun `json:"runs"`
	Accuracy      meanStd       `json:"accuracy"`
	NMI           meanStd       `json:"nmi"`
	ARI           meanStd       `json:"ari"`
	RandIndex     meanStd       `json:"rand_index"`
	Seconds       meanStd       `json:"seconds"`
	GWDs          int           `json:"gwds"` // per run (FGWK: computed once, shared by the runs)
	Interrupted   bool          `json:"interrupted,omitempty"`
}

// runBaselines clusters data with FGWK or GWB-KM, --runs times, and reports like runCluster.
func runBaselines(ctx context.Context, a *app, f *clusterFlags, cfg training.Config, ds *graphs.Dataset, data []*graphs.Graph, truth []int, k int, out io.Writer) error {
	solver, err := cfg.GWDSolver()
	if err != nil {
		return usagef("%v", err)
	}
	rep := &baselineReport{Method: f.method, Dataset: ds.Name, Graphs: len(data), Classes: k, Features: f.data.features,
		Solver: cfg.Solver, Gamma: cfg.Gamma, Layers: cfg.Layers, FeatureWeight: cfg.FeatureWeight}
	a.log.Infof("clustering %s (%d graphs, %d classes) with %s, %d run(s), %s γ=%g M=%d", ds.Name, len(data), k, f.method, f.runs, cfg.Solver, cfg.Gamma, cfg.Layers)
	// FGWK's discrepancies do not depend on the seed (only its K-means does): computed once.
	var kernel *mat.SymDense
	var pairStats baselines.Stats
	if f.method == methodFGWK {
		opt := baselines.Options{Solver: solver, Workers: f.train.workers, Progress: gwdProgress(a, logrus.Fields{"method": f.method}, f.quiet)}
		d, st, err := baselines.PairwiseGWD(ctx, data, opt)
		if err != nil {
			if ctx.Err() != nil {
				return interruptedError{"interrupted before the first run completed"}
			}
			return fmt.Errorf("fgwk: %w", err)
		}
		kernel, pairStats = baselines.Kernel(d), st
	}
	for r := 0; r < f.runs; r++ {
		seed := cfg.Seed + uint64(r)
		fields := logrus.Fields{"run": fmt.Sprintf("%d/%d", r+1, f.runs), "method": f.method}
		opt := baselines.Options{Solver: solver, Workers: f.train.workers, Seed: seed, Progress: gwdProgress(a, fields, f.quiet)}
		var assign []int
		var st baselines.Stats
		if f.method == methodFGWK {
			t0 := time.Now()
			assign, err = baselines.SpectralClustering(kernel, k, seed)
			st = baselines.Stats{GWDs: pairStats.GWDs, Seconds: pairStats.Seconds + time.Since(t0).Seconds()}
		} else {
			assign, st, err = baselines.GWBKMeans(ctx, data, k, baselines.GWBKMOptions{Options: opt, Iterations: f.iterations, GWBLayers: cfg.GWBLayers})
		}
		if err != nil {
			if ctx.Err() != nil {
				rep.Interrupted = true
				break
			}
			return fmt.Errorf("run %d: %w", r, err)
		}
		s, err := cluster.Evaluate(truth, assign)
		if err != nil {
			return fmt.Errorf("run %d: %w", r, err)
		}
		run := baselineRun{Run: r, Seed: seed, Accuracy: s.Accuracy, NMI: s.NMI, ARI: s.ARI, RandIndex: s.RandIndex, GWDs: st.GWDs, Seconds: st.Seconds}
		a.log.WithFields(fields).Infof("accuracy %.2f%%, NMI %.4f, %d GWDs in %.1f s", 100*s.Accuracy, s.NMI, st.GWDs, st.Seconds)
		rep.Runs = append(rep.Runs, run)
	}
	if len(rep.Runs) == 0 {
		return interruptedError{"interrupted before the first run completed"}
	}
	ms := func(get func(baselineRun) float64) meanStd {
		xs := make([]float64, len(rep.Runs))
		for i, r := range rep.Runs {
			xs[i] = get(r)
		}
		m, s := cluster.MeanStd(xs)
		return meanStd{Mean: m, Std: s}
	}
	rep.Accuracy = ms(func(r baselineRun) float64 { return r.Accuracy })
	rep.NMI = ms(func(r baselineRun) float64 { return r.NMI })
	rep.ARI = ms(func(r baselineRun) float64 { return r.ARI })
	rep.RandIndex = ms(func(r baselineRun) float64 { return r.RandIndex })
	rep.Seconds = ms(func(r baselineRun) float64 { return r.Seconds })
	rep.GWDs = rep.Runs[0].GWDs
	if f.outputDir != "" {
		if err := writeOutput(nil, filepath.Join(f.outputDir, "report.json"), func(w io.Writer) error { return writeJSON(w, rep) }); err != nil {
			return err
		}
	}
	if f.json {
		err = writeJSON(out, rep)
	} else {
		err = rep.writeTable(out)
	}
	if err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	if rep.Interrupted {
		return interruptedError{fmt.Sprintf("interrupted: %d of %d runs completed (reported above)", len(rep.Runs), f.runs)}
	}
	return nil
}

// gwdProgress logs the GWDs done every progressEvery, with rate and ETA, and at the end.
func gwdProgress(a *app, fields logrus.Fields, quiet bool) func(done, total int) {
	if quiet {
		return nil
	}
	var start, last time.Time
	return func(done, total int) {
		now := time.Now()
		if start.IsZero() {
			start, last = now, now
			return
		}
		if done < total && now.Sub(last) < progressEvery {
			return
		}
		last = now
		rate := float64(done) / now.Sub(start).Seconds()
		eta := time.Duration(float64(total-done) / rate * float64(time.Second))
		a.log.WithFields(fields).WithFields(logrus.Fields{
			"gwds": fmt.Sprintf("%d/%d", done, total), "gwds/s": fmt.Sprintf("%.0f", rate), "eta": eta.Round(time.Second).String(),
		}).Info("computing")
	}
}

func (rep *baselineReport) writeTable(w io.Writer) error {
	fmt.Fprintf(w, "%s: %d graphs, %d classes, node features: %s (weight %.4g); %s with %s (γ = %g, M = %d)\n\n",
		rep.Dataset, rep.Graphs, rep.Classes, rep.Features, rep.FeatureWeight, rep.Method, rep.Solver, rep.Gamma, rep.Layers)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "run\tseed\tacc %\tNMI %\tARI %\tRI %\tGWDs\tseconds\t")
	for _, r := range rep.Runs {
		fmt.Fprintf(tw, "%d\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%d\t%.1f\t\n", r.Run, r.Seed, 100*r.Accuracy, 100*r.NMI, 100*r.ARI, 100*r.RandIndex, r.GWDs, r.Seconds)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nmean ± std over %d run(s): accuracy %.1f ± %.1f %%, NMI %.1f ± %.1f %%, %.1f ± %.1f s\n", len(rep.Runs),
		100*rep.Accuracy.Mean, 100*rep.Accuracy.Std, 100*rep.NMI.Mean, 100*rep.NMI.Std, rep.Seconds.Mean, rep.Seconds.Std)
	return err
}
