package fgwsvm

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/observe"
	"github.com/gwf-graphs/gwf/layers/pairwise"
)

// Options control how discrepancies are computed.
type Options struct {
	// Solver is the GWD module (its FeatureWeight is each candidate's); the zero value means
	// DefaultSolver().
	Solver layers.SolverOptions
	// Workers is the number of goroutines (0: GOMAXPROCS); results do not depend on it.
	Workers int
	// Observe, if set, is told now and then the discrepancies done of the total of the
	// matrices being computed (Count events), and what is computed next (messages).
	Observe observe.Observer
	// Dir, if set, is a folder where every matrix computed is kept (as a NumPy array, named by
	// what it holds and a hash of the graphs, the candidate and the solver) and found again by
	// a later run. The matrix being computed is kept in part too (as its pairs finish, every few
	// seconds and at most CheckpointEvery apart, and when ctx is cancelled) and resumed from
	// there, so that a killed run loses seconds of work, a stopped one none.
	Dir string
	// CheckpointEvery is the longest time between two keeps of a matrix being computed into Dir
	// (0: DefaultCheckpointEvery); they are more frequent where writing is quick (keepAfter).
	CheckpointEvery time.Duration
	// Limits bound the candidates' structure matrices (zero: graphs.DefaultLimits).
	Limits graphs.Limits
	// Probe, if set, is the machine's speed a budget plans with (Settings.Budget) instead of
	// measuring it: a plan pinned across runs, or a test's.
	Probe *Probe
}

// DefaultCheckpointEvery is the longest time between two keeps of a matrix being computed, by
// default: when writing its pairs takes over 2.4 s (tens of millions of pairs), every two
// minutes against hours of discrepancies.
const DefaultCheckpointEvery = 2 * time.Minute

func (o Options) checkpointEvery() time.Duration {
	if o.CheckpointEvery > 0 {
		return o.CheckpointEvery
	}
	return DefaultCheckpointEvery
}

func (o Options) solver() layers.SolverOptions {
	if o.Solver == (layers.SolverOptions{}) {
		return DefaultSolver()
	}
	return o.Solver
}

// matrixOptions is o for candidate c's matrix, whose pairs are counted from offset of total.
func (o Options) matrixOptions(c Candidate, offset, total int) pairwise.Options {
	bo := pairwise.Options{Solver: c.config(o.solver()), Workers: o.Workers, Metric: c.metric()}
	if outer := o.Observe; outer != nil { // counts of the matrix → counts of all
		bo.Observe = func(e observe.Event) {
			e.Done, e.Total = offset+e.Done, total
			outer(e)
		}
	}
	return bo
}

// Distances returns the matrix of discrepancies between all pairs of data for each candidate,
// in the order of cands: len(cands)·n(n−1)/2 GWDs, reported to opt.Observe as one count. A
// vector candidate (graph statistics, WL subtree counts) gives the squared distances of its
// vectors instead, the statistics divided by their spread over data.
func Distances(ctx context.Context, data []*graphs.Graph, cands []Candidate, opt Options) ([]*mat.SymDense, error) {
	ds, _, err := distances(ctx, data, cands, opt)
	return ds, err
}

// MatrixCost is what one matrix cost: its candidate, its graphs, the discrepancies computed
// and their seconds (0 and Reused where Options.Dir held it). Landmarks, above 0, says that
// the matrix holds the discrepancies of the graphs to this many landmarks (Settings.Landmarks).
type MatrixCost struct {
	Candidate Candidate `json:"candidate"`
	Graphs    int       `json:"graphs"`
	Landmarks int       `json:"landmarks,omitempty"`
	GWDs      int       `json:"gwds"`
	Seconds   float64   `json:"seconds"`
	Reused    bool      `json:"reused,omitempty"`
}

// distances is Distances with the cost of each matrix.
func distances(ctx context.Context, data []*graphs.Graph, cands []Candidate, opt Options) ([]*mat.SymDense, []MatrixCost, error) {
	if len(cands) == 0 {
		return nil, nil, fmt.Errorf("fgwsvm: no candidates")
	}
	pairs := pairwise.Pairs(len(data))
	out := make([]*mat.SymDense, len(cands))
	costs := make([]MatrixCost, len(cands))
	solves := 0 // the FGW candidates: the progress counts their discrepancies alone
	for _, c := range cands {
		if !c.vector() {
			solves++
		}
	}
	for i, c := range cands {
		costs[i] = MatrixCost{Candidate: c, Graphs: len(data)}
		if c.vector() { // seconds at most: neither kept nor resumed
			start := time.Now()
			d, err := vectorDistances(ctx, data, c, opt)
			if err != nil {
				return nil, nil, err
			}
			out[i], costs[i].Seconds = d, time.Since(start).Seconds()
			continue
		}
		var path string
		if opt.Dir != "" {
			path = matrixFile(opt.Dir, data, c, opt.solver())
			if d, ok := loadMatrix(path, len(data)); ok {
				opt.log("reusing %s", path)
				out[i], costs[i].Reused = d, true
				continue
			}
		}
		start := time.Now()
		sd, err := c.apply(data, opt.Limits)
		if err != nil {
			return nil, nil, err
		}
		before := 0 // the FGW candidates before this one, computed or reused
		for _, b := range cands[:i] {
			if !b.vector() {
				before++
			}
		}
		d, err := opt.pairwise(ctx, sd, c, path, before*pairs, solves*pairs)
		if err != nil {
			return nil, nil, fmt.Errorf("fgwsvm: %s: %w", c, err)
		}
		if err := checkFinite(d); err != nil {
			return nil, nil, fmt.Errorf("fgwsvm: %s: %w", c, err)
		}
		costs[i].GWDs, costs[i].Seconds = pairs, time.Since(start).Seconds()
		if path != "" {
			if err := saveMatrix(path, d); err != nil {
				return nil, nil, fmt.Errorf("fgwsvm: keep the matrix: %w", err)
			}
			removePartial(path)
		}
		out[i] = d
	}
	return out, costs, nil
}

// crossDistances returns the discrepancies from each of a to each of b under c, reported to
// opt.Observe after offset of total; a statistics candidate divides the statistics by scales.
func crossDistances(ctx context.Context, a, b []*graphs.Graph, c Candidate, scales []float64, opt Options, offset, total int) (*mat.Dense, error) {
	if c.vector() {
		va, err := c.vectorsOf(ctx, a, opt.Workers)
		if err != nil {
			return nil, err
		}
		vb, err := c.vectorsOf(ctx, b, opt.Workers)
		if err != nil {
			return nil, err
		}
		d, err := va.cross(ctx, vb, scales, opt.Workers)
		if err != nil {
			return nil, fmt.Errorf("fgwsvm: %s: %w", c, err)
		}
		if opt.Observe != nil { // the pairs count in total, so they count as done
			opt.Observe(observe.Event{Done: offset + len(a)*len(b), Total: total})
		}
		return d, nil
	}
	sa, err := c.apply(a, opt.Limits)
	if err != nil {
		return nil, err
	}
	sb, err := c.apply(b, opt.Limits)
	if err != nil {
		return nil, err
	}
	d, _, err := pairwise.Cross(ctx, sa, sb, opt.matrixOptions(c, offset, total))
	if err != nil {
		return nil, fmt.Errorf("fgwsvm: %s: %w", c, err)
	}
	if err := checkFinite(d); err != nil {
		return nil, fmt.Errorf("fgwsvm: %s: %w", c, err)
	}
	return d, nil
}

func checkFinite(m mat.Matrix) error {
	r, c := m.Dims()
	for i := range r {
		for j := range c {
			if v := m.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("discrepancy (%d, %d) is %v", i, j, v)
			}
		}
	}
	return nil
}
