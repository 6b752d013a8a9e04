package training

import (
	"errors"
	"fmt"

	"github.com/gwf-graphs/gwf/graphs"
)

// ErrModelTooLarge is wrapped by the error of NewModel and CheckModelSize for a model that
// would need more memory than graphs.DefaultLimits().MaxDenseBytes.
var ErrModelTooLarge = errors.New("the model would not fit in memory")

// ModelBytes is about the memory of a model of cfg on count graphs with node features of
// featureDim columns, whose atoms have the given sizes (AtomSizes): the atoms and one K-vector
// per graph, each held four times (value, gradient and Adam's two moments).
func ModelBytes(cfg Config, featureDim, count int, sizes []int) float64 {
	atoms := 0.0
	for _, n := range sizes {
		atoms += float64(n)*float64(n) + float64(n)*float64(featureDim)
	}
	return 4 * 8 * (atoms + float64(count)*float64(cfg.Atoms))
}

// CheckModelSize refuses, with ErrModelTooLarge, a model whose ModelBytes exceed
// graphs.DefaultLimits().MaxDenseBytes: it says how much it would take and what to lower.
func CheckModelSize(cfg Config, featureDim, count int, sizes []int) error {
	bytes := ModelBytes(cfg, featureDim, count, sizes)
	if limit := float64(graphs.DefaultLimits().MaxDenseBytes); bytes > limit {
		largest := 0
		for _, n := range sizes {
			largest = max(largest, n)
		}
		return fmt.Errorf("%w: about %.1f GiB (K = %d atoms of up to %d nodes, %d graphs), more than the %.0f GiB allowed: fewer atoms or smaller atoms (Config.Atoms, Config.AtomSize)",
			ErrModelTooLarge, bytes/(1<<30), cfg.Atoms, largest, count, limit/(1<<30))
	}
	return nil
}
