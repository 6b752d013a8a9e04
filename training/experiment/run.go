package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/buildinfo"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/cluster"
)

// Run runs the experiment on the graphs of ds (all of them, in order) Options.Runs times and
// returns the report. The graphs need class labels to be scored; without labels Options.Clusters
// must be given and the runs are not scored.
//
// When ctx is cancelled, Run stops within one graph (GWF) or GWD and returns the report
// of the runs completed, with Interrupted set, and an error wrapping ctx.Err(); the report is
// nil when no run completed.
func Run(ctx context.Context, ds *graphs.Dataset, opt Options) (*Report, error) {
	opt = opt.withDefaults()
	if err := opt.check(); err != nil {
		return nil, fmt.Errorf("experiment: %w", err)
	}
	if opt.Method == GWF && opt.Config.Epochs < 1 {
		return nil, fmt.Errorf("experiment: epochs = %d must be at least 1 (0 would score the random initialisation)", opt.Config.Epochs)
	}
	if ds == nil || len(ds.Graphs) == 0 {
		return nil, errors.New("experiment: no graphs")
	}
	truth, classes, err := labels(ds.Graphs)
	if err != nil {
		return nil, fmt.Errorf("experiment: %w", err)
	}
	k := opt.Clusters
	if k == 0 {
		if truth == nil {
			return nil, fmt.Errorf("experiment: %s has no class labels: give the number of clusters", ds.Name)
		}
		k = classes
	}
	if k > len(ds.Graphs) {
		return nil, fmt.Errorf("experiment: %d clusters for %d graphs", k, len(ds.Graphs))
	}
	if opt.Dir != "" {
		if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
			return nil, fmt.Errorf("experiment: %w", err)
		}
	}
	rep := &Report{Version: buildinfo.Version(),
		Method: opt.Method, Dataset: ds.Name, Graphs: len(ds.Graphs), Classes: classes, Clusters: k, Unlabelled: truth == nil,
		Features: opt.Features, KMeansRestarts: opt.Restarts, Config: opt.Config,
	}
	if opt.Method == GWF {
		rep.Embedding, rep.Epochs = string(opt.Embedding), opt.Config.Epochs
		if opt.Trainer != nil {
			rep.Trainer = opt.Trainer.Name()
		}
		err = runGWF(ctx, ds, truth, opt, rep)
	} else {
		err = runBaseline(ctx, ds.Graphs, truth, opt, rep)
	}
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	if len(rep.Runs) == 0 {
		return nil, fmt.Errorf("experiment: interrupted before the first run completed: %w", ctx.Err())
	}
	rep.Interrupted = ctx.Err() != nil
	rep.summarise()
	if opt.Dir != "" {
		if err := writeFile(reportPath(opt.Dir), func(w io.Writer) error { return writeJSON(w, rep) }); err != nil {
			return nil, fmt.Errorf("experiment: %w", err)
		}
	}
	if rep.Interrupted {
		return rep, fmt.Errorf("experiment: interrupted after %d of %d runs: %w", len(rep.Runs), opt.Runs, ctx.Err())
	}
	return rep, nil
}

// labels returns the class of every graph and the number of distinct classes, or nil and 0
// when no graph has a label; some graphs with labels and some without is an error.
func labels(data []*graphs.Graph) ([]int, int, error) {
	truth := make([]int, len(data))
	seen := map[int]bool{}
	unlabelled := 0
	for i, g := range data {
		if !g.HasLabel {
			unlabelled++
			continue
		}
		truth[i] = g.Label
		seen[g.Label] = true
	}
	switch unlabelled {
	case 0:
		return truth, len(seen), nil
	case len(data):
		return nil, 0, nil
	}
	return nil, 0, fmt.Errorf("%d of %d graphs have no class label: label all graphs or none", unlabelled, len(data))
}

// runGWF trains and scores the GWF runs, reusing those saved in opt.Dir.
func runGWF(ctx context.Context, ds *graphs.Dataset, truth []int, opt Options, rep *Report) error {
	data := ds.Graphs
	var fingerprint string
	if opt.Dir != "" {
		fingerprint = training.Fingerprint(data)
	}
	for r := 0; r < opt.Runs; r++ {
		c := opt.Config
		c.Seed = opt.Config.Seed + uint64(r)
		rec := record{Data: fingerprint, Embedding: string(opt.Embedding), KMeansRestarts: opt.Restarts, Config: c, Trainer: rep.Trainer}
		if rep.Clusters != rep.Classes {
			rec.Clusters = rep.Clusters // only when it differs, so records of class-count runs stay valid
		}
		if opt.Dir != "" {
			run, ok, reason := savedRun(opt.Dir, r, rec)
			if ok {
				opt.log(r, false, "reusing %s: accuracy %.2f%%", recordPath(opt.Dir, r), 100*run.Accuracy)
				rep.Runs = append(rep.Runs, run)
				continue
			}
			if reason != "" {
				opt.log(r, true, "not reusing the saved run: %s", reason)
			}
		}
		fit := training.Options{Workers: opt.Workers, SkipNonFinite: opt.SkipNonFinite, Observe: opt.Observe.InRun(r)}
		t0 := time.Now()
		m, err := train(ctx, opt.Trainer, data, c, fit)
		if err != nil {
			return fmt.Errorf("experiment: run %d: %w", r, err)
		}
		run := RunResult{Run: r, Seed: c.Seed, Seconds: time.Since(t0).Seconds(), Epochs: len(m.History), Loss: []float64{}}
		for _, h := range m.History {
			run.Loss = append(run.Loss, h.Loss)
		}
		rows, err := scoreGWF(&run, m, truth, rep.Clusters, opt)
		if err != nil {
			return fmt.Errorf("experiment: run %d: %w", r, err)
		}
		if truth != nil {
			opt.log(r, false, "accuracy %.2f%% (z %.2f%%, lambda %.2f%%), NMI %.4f, ARI %.4f",
				100*run.Accuracy, 100*run.AccuracyZ, 100*run.AccuracyLambda, run.NMI, run.ARI)
		} else {
			opt.log(r, false, "clustered into %d clusters (no labels to score against)", rep.Clusters)
		}
		if opt.Dir != "" {
			// The embeddings first: a record on disk means its run is complete.
			e := NewEmbeddings(ds, opt.Embedding, rows)
			e.Assign = run.Assign
			if err := writeFile(embeddingsPath(opt.Dir, r), func(w io.Writer) error { return e.WriteCSV(w) }); err != nil {
				return fmt.Errorf("experiment: %w", err)
			}
			rec.Run, rec.Assign = run, run.Assign
			if err := saveRun(opt.Dir, rec); err != nil {
				return fmt.Errorf("experiment: %w", err)
			}
		}
		rep.Runs = append(rep.Runs, run)
	}
	return nil
}

// train trains the model of a run: by the trainer when there is one, else the paper's model.
func train(ctx context.Context, t Trainer, data []*graphs.Graph, c training.Config, fit training.Options) (*training.Model, error) {
	if t != nil {
		m, err := t.Train(ctx, data, c, fit)
		if err != nil {
			return nil, fmt.Errorf("training (%s): %w", t.Name(), err)
		}
		if m == nil || m.Z == nil {
			return nil, fmt.Errorf("training (%s): no model", t.Name())
		}
		if r, k := m.Z.Dims(); r != len(data) || k != c.Atoms {
			return nil, fmt.Errorf("training (%s): %d×%d embeddings for %d graphs and %d atoms", t.Name(), r, k, len(data), c.Atoms)
		}
		return m, nil
	}
	m, err := training.NewModel(graphs.Slice(data), c)
	if err != nil {
		return nil, fmt.Errorf("new model: %w", err)
	}
	if err := training.Fit(ctx, m, graphs.Slice(data), fit); err != nil {
		return nil, fmt.Errorf("training: %w", err)
	}
	return m, nil
}

// scoreGWF clusters both embeddings of m's graphs, fills in the scores (when truth is known)
// and the chosen embedding's clusters, and returns that embedding's rows.
func scoreGWF(run *RunResult, m *training.Model, truth []int, k int, opt Options) ([][]float64, error) {
	var chosen [][]float64
	for _, e := range []training.Embedding{training.EmbeddingZ, training.EmbeddingLambda} {
		if truth == nil && e != opt.Embedding {
			continue // nothing to score: only the chosen embedding's clusters are wanted
		}
		res, err := cluster.KMeans(e.Rows(m.Z), cluster.KMeansOptions{K: k, Restarts: opt.Restarts, Seed: run.Seed})
		if err != nil {
			return nil, fmt.Errorf("cluster: %s of the model: %w", e, err)
		}
		var s cluster.Scores
		if truth != nil {
			if s, err = cluster.Evaluate(truth, res.Assign); err != nil {
				return nil, fmt.Errorf("scores of %s: %w", e, err)
			}
		}
		if e == training.EmbeddingZ {
			run.AccuracyZ, run.NMIZ, run.ARIZ, run.RandIndexZ = s.Accuracy, s.NMI, s.ARI, s.RandIndex
		} else {
			run.AccuracyLambda, run.NMILambda, run.ARILambda, run.RandLambda = s.Accuracy, s.NMI, s.ARI, s.RandIndex
		}
		if e == opt.Embedding {
			run.Accuracy, run.NMI, run.ARI, run.RandIndex = s.Accuracy, s.NMI, s.ARI, s.RandIndex
			run.Assign, chosen = res.Assign, e.Rows(m.Z)
		}
	}
	return chosen, nil
}
