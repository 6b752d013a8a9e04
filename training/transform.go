package training

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// Transform embeds graphs with the model's atoms held fixed (the model is not changed): each
// graph's z starts as in training (N(0, ZInitStd²), seeded by the model's seed and the graph's
// position) and takes `steps` Adam steps on its own GWF loss — steps ≤ 0 means the model's
// number of epochs, which is how many steps each z gets in training. It runs the trainer of Fit
// with the atoms frozen: with fixed atoms each z_i follows its own gradient, so the result does
// not depend on the batches, their order or Options.Workers. Options.Observe gets a Step after
// every batch (Epoch counts the steps); Terms are not used. Options.Offset is the position of
// data[0] in a larger corpus: graph i is seeded as the corpus's graph Offset+i, so that slices
// of a corpus embedded separately (shards) give exactly the rows of one embedding of it all.
func Transform(ctx context.Context, m *Model, data []*graphs.Graph, steps int, opt Options) (*mat.Dense, error) {
	if opt.Offset < 0 {
		return nil, fmt.Errorf("negative offset %d", opt.Offset)
	}
	dim, err := checkData(data)
	if err != nil {
		return nil, err
	}
	if dim != m.Dim() {
		return nil, fmt.Errorf("the graphs have %d-dimensional node features, the model %d", dim, m.Dim())
	}
	if steps <= 0 {
		steps = m.Config.Epochs
	}
	cfg := m.Config
	cfg.Epochs = steps
	// Fewer, larger batches: the atoms do not move, so the batch size changes nothing but the
	// number of expression graphs built.
	cfg.Batch = max(cfg.Batch, 256)
	frozen := &Model{Config: cfg, V: m.V, H: m.H, AtomMu: m.AtomMu, Z: mat.NewDense(len(data), m.K(), nil)}
	if err := frozen.Config.Validate(); err != nil {
		return nil, err
	}
	for i := range data {
		rng := rand.New(rand.NewPCG(cfg.Seed, 0x51ed+uint64(opt.Offset+i)))
		for k, z := 0, frozen.Z.RawRowView(i); k < len(z); k++ {
			z[k] = cfg.ZInitStd * rng.NormFloat64()
		}
	}
	tr, err := newTrainer(frozen, graphs.Slice(data), Options{Workers: opt.Workers, Observe: opt.Observe, SkipNonFinite: opt.SkipNonFinite, frozen: true})
	if err != nil {
		return nil, err
	}
	if err := tr.run(ctx); err != nil {
		return nil, err
	}
	return frozen.Z, nil
}
