package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/training"
)

// TimeEpoch times one training epoch of a model with cfg (its Epochs set to 1) on timed, graphs
// of a dataset of total graphs named name, and extrapolates to all of them; features says how
// the node features were read (for the report).
func TimeEpoch(ctx context.Context, name, features string, timed []*graphs.Graph, total int, cfg training.Config, opt training.Options) (Epoch, error) {
	if len(timed) == 0 || total < len(timed) {
		return Epoch{}, fmt.Errorf("bench: %s: %d graphs timed of %d", name, len(timed), total)
	}
	cfg.Epochs = 1
	if err := cfg.Validate(); err != nil {
		return Epoch{}, err
	}
	m, err := training.NewModel(graphs.Slice(timed), cfg)
	if err != nil {
		return Epoch{}, err
	}
	start := time.Now()
	if err := training.Fit(ctx, m, graphs.Slice(timed), opt); err != nil {
		return Epoch{}, fmt.Errorf("%s: %w", name, err)
	}
	rate := float64(len(timed)) / time.Since(start).Seconds()
	return Epoch{Dataset: name, Solver: cfg.Solver, Tol: cfg.Tol, Features: features, Graphs: total,
		Timed: len(timed), GraphsPerSec: rate, SecondsPerEpoch: float64(total) / rate, PeakRSSMiB: PeakRSSMiB()}, nil
}
