package experiment

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
	"github.com/gwf-graphs/gwf/training/cluster"
)

// Method is a clustering method of the experiment.
type Method string

// The methods of Table 1.
const (
	GWF   Method = "gwf"    // a GWF model, then K-means on its embeddings
	FGWK  Method = "fgwk"   // pairwise (F)GW kernel and spectral clustering
	GWBKM Method = "gwb-km" // K-means with GW barycenters as centers
)

// ParseMethod checks a method name.
func ParseMethod(s string) (Method, error) {
	switch m := Method(s); m {
	case GWF, FGWK, GWBKM:
		return m, nil
	}
	return "", fmt.Errorf("unknown method %q (want gwf, fgwk or gwb-km)", s)
}

// DefaultEmbedding is what the paper's experiment clusters: λ = softmax(z), chosen on a
// principled argument, not on labels. The model and its loss see z only through softmax, which
// is invariant to z + c·1, so the component of z along 1 is unidentified: Adam's
// per-coordinate scaling moves it in ways the loss never sees, and Euclidean K-means on z would
// count that noise. λ is the identifiable representation the model uses (the barycenter
// weights).
const DefaultEmbedding = training.EmbeddingLambda

// Options configure Run. Zero fields select the defaults given.
type Options struct {
	// Method is GWF (default), FGWK or GWBKM.
	Method Method
	// Config configures GWF training; run r trains with seed Config.Seed + r. The baselines
	// take their GWD module and barycenter layers from it. Zero: training.DefaultConfig().
	Config training.Config
	// Runs is the number of seeds (default 1).
	Runs int
	// Clusters is K of K-means (default: the number of classes of the labels).
	Clusters int
	// Embedding is what the main scores of GWF cluster (default DefaultEmbedding); the
	// other embedding is scored too.
	Embedding training.Embedding
	// Restarts is the number of K-means restarts (default cluster.DefaultRestarts).
	Restarts int
	// Distances, if set, are FGWK's pairwise discrepancies computed beforehand (by
	// pairwise.Matrix, or by shards of pairwise.Range read back with pairwise.ReadCSV): FGWK
	// then computes none. Its order is that of the data.
	Distances *mat.SymDense
	// Iterations bounds GWB-KM's assign/update rounds (default 10).
	Iterations int
	// Workers is the number of goroutines (0: one per CPU); results do not depend on it.
	Workers int
	// SkipNonFinite leaves out of training, with a warning, a graph whose loss or gradients are
	// not finite, instead of stopping.
	SkipNonFinite bool
	// Features describes the node features for the report (e.g. "attributes").
	Features string
	// Dir, if set, is the folder of the saved runs, their embeddings and report.json.
	Dir string
	// Observe receives the events of the runs, Event.Run saying which: the training steps
	// (GWF), the GWDs done of the total (baselines), and one message per event worth telling —
	// a run finished, reused or not reused, a training warning (nil: none).
	Observe training.Observer
	// Trainer, if set, trains the GWF runs' models instead of training.NewModel and
	// training.Fit (GWF only).
	Trainer Trainer
}

// Trainer trains the model of a GWF run in another way than the paper's free embeddings: for
// example with embeddings computed by a graph encoder (semisup.EncoderTrainer).
type Trainer interface {
	// Name describes the trainer's settings. It is kept in the report and in the saved runs'
	// records, so that a run saved with another trainer (or none) is not reused.
	Name() string
	// Train returns a model of data trained with cfg, its Z holding the embeddings of data.
	Train(ctx context.Context, data []*graphs.Graph, cfg training.Config, opt training.Options) (*training.Model, error)
}

// withDefaults fills in the zero fields.
func (o Options) withDefaults() Options {
	if o.Method == "" {
		o.Method = GWF
	}
	if o.Config == (training.Config{}) {
		o.Config = training.DefaultConfig()
	}
	if o.Runs == 0 {
		o.Runs = 1
	}
	if o.Embedding == "" {
		o.Embedding = DefaultEmbedding
	}
	if o.Restarts == 0 {
		o.Restarts = cluster.DefaultRestarts
	}
	if o.Iterations == 0 {
		o.Iterations = 10
	}
	return o
}

// Bounds on the work of one experiment: far beyond any (the paper's use 10 runs, and GWB-KM
// converges in a few rounds), they turn a typo into an error rather than a run that never ends.
const (
	MaxRuns       = 10_000
	MaxIterations = 100_000
)

// Validate reports the first invalid option, zero fields taking their defaults.
func (o Options) Validate() error {
	return o.withDefaults().check()
}

// check reports the first invalid option.
func (o Options) check() error {
	if _, err := ParseMethod(string(o.Method)); err != nil {
		return err
	}
	if _, err := training.ParseEmbedding(string(o.Embedding)); err != nil {
		return err
	}
	switch {
	case o.Runs < 1 || o.Runs > MaxRuns:
		return fmt.Errorf("runs = %d must be between 1 and %d", o.Runs, MaxRuns)
	case o.Clusters < 0:
		return fmt.Errorf("clusters = %d must not be negative", o.Clusters)
	case o.Restarts < 1:
		return fmt.Errorf("k-means restarts = %d must be at least 1", o.Restarts)
	case o.Iterations < 1 || o.Iterations > MaxIterations:
		return fmt.Errorf("iterations = %d must be between 1 and %d", o.Iterations, MaxIterations)
	case o.Workers < 0:
		return fmt.Errorf("workers = %d must not be negative", o.Workers)
	case o.Trainer != nil && o.Method != GWF:
		return fmt.Errorf("a trainer (%s) trains GWF models, not the %s baseline", o.Trainer.Name(), o.Method)
	case o.Trainer != nil && o.SkipNonFinite:
		return fmt.Errorf("a trainer (%s) cannot skip non-finite graphs: its weights are shared by all graphs", o.Trainer.Name())
	}
	return o.Config.Validate()
}

func (o Options) log(run int, warning bool, format string, args ...any) {
	o.Observe.InRun(run).Say(warning, format, args...)
}
