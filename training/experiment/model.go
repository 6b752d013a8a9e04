package experiment

import (
	"errors"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/buildinfo"
	"github.com/gwf-graphs/gwf/training"
)

// Cluster clusters the graphs of ds under a trained model, without training: z holds their
// embeddings, one row per graph (m.Z for the model's training data, training.Transform's for
// other graphs). K-means is seeded with the model's seed. It returns a report of one run,
// scored when the graphs have labels, and the chosen embedding with its clusters, ready to
// export. Of opt it uses Clusters, Embedding, Restarts and Features.
func Cluster(m *training.Model, ds *graphs.Dataset, z *mat.Dense, opt Options) (*Report, Embeddings, error) {
	opt.Method, opt.Config, opt.Runs = GWF, m.Config, 1
	opt = opt.withDefaults()
	if err := opt.check(); err != nil {
		return nil, Embeddings{}, fmt.Errorf("experiment: %w", err)
	}
	if ds == nil || len(ds.Graphs) == 0 {
		return nil, Embeddings{}, errors.New("experiment: no graphs")
	}
	if r, c := z.Dims(); r != len(ds.Graphs) || c != m.K() {
		return nil, Embeddings{}, fmt.Errorf("experiment: %d×%d embeddings for %d graphs and %d atoms", r, c, len(ds.Graphs), m.K())
	}
	truth, classes, err := labels(ds.Graphs)
	if err != nil {
		return nil, Embeddings{}, fmt.Errorf("experiment: %w", err)
	}
	k := opt.Clusters
	if k == 0 {
		if truth == nil {
			return nil, Embeddings{}, fmt.Errorf("experiment: %s has no class labels: give the number of clusters", ds.Name)
		}
		k = classes
	}
	rep := &Report{Version: buildinfo.Version(),
		Method: GWF, Dataset: ds.Name, Graphs: len(ds.Graphs), Classes: classes, Clusters: k, Unlabelled: truth == nil, Features: opt.Features,
		Embedding: string(opt.Embedding), KMeansRestarts: opt.Restarts, Config: m.Config, Epochs: len(m.History),
	}
	under := *m // the model with these graphs' embeddings
	under.Z = z
	run := RunResult{Seed: m.Config.Seed, Epochs: len(m.History), Loss: []float64{}}
	for _, h := range m.History {
		run.Loss = append(run.Loss, h.Loss)
	}
	t0 := time.Now()
	rows, err := scoreGWF(&run, &under, truth, k, opt)
	if err != nil {
		return nil, Embeddings{}, fmt.Errorf("experiment: %w", err)
	}
	run.Seconds = time.Since(t0).Seconds()
	rep.Runs = []RunResult{run}
	rep.summarise()
	e := NewEmbeddings(ds, opt.Embedding, rows)
	e.Assign = run.Assign
	return rep, e, nil
}
