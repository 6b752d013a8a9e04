package experiment

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/pairwise"
	"github.com/gwf-graphs/gwf/training/baselines"
	"github.com/gwf-graphs/gwf/training/cluster"
)

// runBaseline clusters data with FGWK or GWB-KM, once per seed, and scores the clusters.
func runBaseline(ctx context.Context, data []*graphs.Graph, truth []int, opt Options, rep *Report) error {
	// FGWK's discrepancies do not depend on the seed (only its K-means does): computed once.
	var kernel *mat.SymDense
	var pairStats baselines.Stats
	switch {
	case opt.Method == FGWK && opt.Distances != nil:
		if n := opt.Distances.SymmetricDim(); n != len(data) {
			return fmt.Errorf("experiment: fgwk: %d×%d discrepancies for %d graphs", n, n, len(data))
		}
		kernel = baselines.Kernel(opt.Distances)
	case opt.Method == FGWK:
		d, st, err := pairwise.Matrix(ctx, data, pairwise.Options{Solver: opt.Config.SolverOptions(), Workers: opt.Workers, Observe: opt.Observe.InRun(0)})
		if err != nil {
			return fmt.Errorf("experiment: fgwk: %w", err)
		}
		kernel, pairStats = baselines.Kernel(d), st
	}
	k := rep.Clusters
	for r := 0; r < opt.Runs; r++ {
		seed := opt.Config.Seed + uint64(r)
		var assign []int
		var st baselines.Stats
		var err error
		if opt.Method == FGWK {
			t0 := time.Now()
			assign, err = baselines.SpectralClustering(kernel, k, seed)
			st = baselines.Stats{GWDs: pairStats.GWDs, Seconds: pairStats.Seconds + time.Since(t0).Seconds()}
		} else {
			bo := baselines.Options{Config: opt.Config, Workers: opt.Workers, Seed: seed, Observe: opt.Observe.InRun(r)}
			assign, st, err = baselines.GWBKMeans(ctx, data, k, baselines.GWBKMOptions{Options: bo, Iterations: opt.Iterations})
		}
		if err != nil {
			return fmt.Errorf("experiment: run %d: %w", r, err)
		}
		run := RunResult{Run: r, Seed: seed, GWDs: st.GWDs, Seconds: st.Seconds, Assign: assign}
		if truth != nil {
			s, err := cluster.Evaluate(truth, assign)
			if err != nil {
				return fmt.Errorf("experiment: run %d: %w", r, err)
			}
			run.Accuracy, run.NMI, run.ARI, run.RandIndex = s.Accuracy, s.NMI, s.ARI, s.RandIndex
			opt.log(r, false, "accuracy %.2f%%, NMI %.4f, %d GWDs in %.1f s", 100*s.Accuracy, s.NMI, st.GWDs, st.Seconds)
		}
		rep.Runs = append(rep.Runs, run)
	}
	return nil
}
