package pairwise

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/observe"
)

// Options control the computation of discrepancies.
type Options struct {
	// Solver is the GWD module that computes every discrepancy (layers.NewSolver); the zero
	// value means the paper's PPA (layers.DefaultSolverOptions(layers.SolverPPA)).
	Solver layers.SolverOptions
	// Workers is the number of goroutines (0: GOMAXPROCS).
	Workers int
	// Observe, if set, is told now and then the discrepancies done of the total (Count events).
	Observe observe.Observer
	// Metric compares node features (the zero value: squared Euclidean, the paper's);
	// layers.Hamming for categorical codes such as Weisfeiler-Lehman labels.
	Metric layers.FeatureMetric
}

// solver is the configured GWD module.
func (o Options) solver() (layers.Solver, error) {
	so := o.Solver
	if so == (layers.SolverOptions{}) {
		so, _ = layers.DefaultSolverOptions(layers.SolverPPA)
	}
	s, err := layers.NewSolver(so)
	if err != nil {
		return nil, fmt.Errorf("pairwise: %w", err)
	}
	return s, nil
}

func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Stats says what a computation of discrepancies cost.
type Stats struct {
	GWDs    int     `json:"gwds"`    // GW discrepancies computed (barycenter layers included)
	Seconds float64 `json:"seconds"` // wall time
}

// space is g as the discrepancies compare it: with o's feature metric.
func (o Options) space(g *graphs.Graph) layers.Space {
	return layers.Space{A: g.A, Mu: g.Mu, F: g.F, Metric: o.Metric}
}

// Each runs work(st, t) for t = 0, …, n−1 on opt's workers, each worker with a GWD State of
// its own, and tells opt.Observe the count done about every 100 ms and once at the end, never
// from two goroutines at once. It is the loop of Matrix, Range and Cross, for callers whose
// discrepancies are of other pairs (a graph and a barycenter, say); work must write only what
// belongs to its t. It returns the first error of work, else ctx's error when ctx is cancelled
// (the workers stop before their next t; work should pass ctx to its solves, which check it
// too).
func Each(ctx context.Context, n int, opt Options, work func(st *layers.State, t int) error) error {
	var next, done atomic.Int64
	errs := make([]error, opt.workers())
	var wg sync.WaitGroup
	for w := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var st layers.State
			for ctx.Err() == nil {
				t := int(next.Add(1)) - 1
				if t >= n {
					return
				}
				// A solve of two large graphs takes minutes: work passes ctx to it.
				if err := work(&st, t); err != nil {
					errs[w] = err
					return
				}
				done.Add(1)
			}
		}()
	}
	if opt.Observe != nil {
		stop, stopped := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(stopped)
			tick := time.NewTicker(100 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					opt.Observe.Count(int(done.Load()), n)
				}
			}
		}()
		// The last report waits for the ticker's goroutine: Observe is never called twice at once.
		defer func() { close(stop); <-stopped; opt.Observe.Count(int(done.Load()), n) }()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Matrix returns the symmetric matrix of GW discrepancies d(i, j) = <L(T),T> between all
// pairs of graphs (zero diagonal), computed once per pair with i < j.
func Matrix(ctx context.Context, data []*graphs.Graph, opt Options) (*mat.SymDense, Stats, error) {
	n := len(data)
	if n < 2 {
		return nil, Stats{}, fmt.Errorf("pairwise gwd: %d graphs, need at least 2", n)
	}
	d := mat.NewSymDense(n, nil)
	st, err := Range(ctx, data, opt, 0, Pairs(n), func(i, j int, v float64) error {
		d.SetSym(i, j, v)
		return nil
	})
	if err != nil {
		return nil, Stats{}, err
	}
	return d, st, nil
}

// pairOf maps t in [0, n(n−1)/2) to the pair (i, j), i < j, in row order: row i starts at
// offset i(2n−i−1)/2. The square root gives i up to rounding, fixed by the two loops.
func pairOf(t, n int) (int, int) {
	start := func(i int) int { return i * (2*n - i - 1) / 2 }
	b := float64(2*n - 1)
	i := int((b - math.Sqrt(b*b-8*float64(t))) / 2)
	i = max(0, min(i, n-2))
	for i > 0 && start(i) > t {
		i--
	}
	for i < n-2 && start(i+1) <= t {
		i++
	}
	return i, i + 1 + t - start(i)
}
