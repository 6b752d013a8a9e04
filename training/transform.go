package training

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
)

// Transform embeds graphs with the model's atoms held fixed (the model is not changed): each
// graph's z starts as in training (N(0, ZInitStd²), seeded by the model's seed and the graph's
// position) and takes `steps` Adam steps on its own GWF loss — steps ≤ 0 means the model's
// number of epochs, which is how many steps each z gets in training. Graphs are independent,
// so they are processed in parallel; the result does not depend on Options.Workers.
// Options.Progress is called as graphs complete (Epoch and Epochs are 1).
func Transform(ctx context.Context, m *Model, data []*graphs.Graph, steps int, opt Options) (*mat.Dense, error) {
	dim, err := checkData(data)
	if err != nil {
		return nil, err
	}
	if dim != m.Dim() {
		return nil, fmt.Errorf("the graphs have %d-dimensional node features, the model %d", dim, m.Dim())
	}
	fwd, err := m.Config.Forward()
	if err != nil {
		return nil, err
	}
	if steps <= 0 {
		steps = m.Config.Epochs
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	atoms := m.Atoms()
	K := m.K()
	z := mat.NewDense(len(data), K, nil)
	errs := make([]error, len(data))
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var progressMu sync.Mutex
	for w := 0; w < min(workers, len(data)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ws layers.ForwardState
			gLambda := make([]float64, K)
			lambda := make([]float64, K)
			for {
				i := int(next.Add(1)) - 1
				if i >= len(data) || ctx.Err() != nil {
					return
				}
				errs[i] = embedOne(&ws, fwd, atoms, m.Config, data[i], i, steps, z.RawRowView(i), lambda, gLambda)
				if opt.Progress != nil {
					progressMu.Lock()
					opt.Progress(Progress{Epoch: 1, Epochs: 1, Done: int(done.Add(1)), Total: len(data)})
					progressMu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return z, nil
}

// embedOne fits z (in place) for one graph.
func embedOne(ws *layers.ForwardState, fwd layers.Forward, atoms []layers.Atom, cfg Config, g *graphs.Graph, i, steps int, z, lambda, gLambda []float64) error {
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x51ed+uint64(i)))
	for k := range z {
		z[k] = cfg.ZInitStd * rng.NormFloat64()
	}
	p := newParam(z, len(z))
	adam := gorgonia.NewAdamSolver(gorgonia.WithLearnRate(cfg.LearningRate))
	obs := layers.Space{C: g.C, Mu: g.Mu, F: g.F}
	for s := 0; s < steps; s++ {
		layers.Softmax(lambda, z)
		if err := fwd.Run(ws, atoms, lambda, obs); err != nil {
			return fmt.Errorf("graph %q: %w", g.Name, err)
		}
		clear(gLambda)
		ws.Envelope(atoms, lambda, obs, fwd.GWB.Solver.FeatureWeight(), nil, nil, gLambda)
		gz := p.gradData()
		clear(gz)
		layers.SoftmaxBackward(gz, lambda, gLambda)
		if err := adam.Step([]gorgonia.ValueGrad{p}); err != nil {
			return fmt.Errorf("graph %q: %w", g.Name, err)
		}
	}
	return nil
}
