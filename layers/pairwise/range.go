package pairwise

import (
	"context"
	"fmt"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/observe"
)

// Pairs is the number of pairs i < j of n graphs: the discrepancies Matrix computes.
func Pairs(n int) int { return n * (n - 1) / 2 }

// PairAt returns the pair (i, j), i < j, numbered t in row order among the pairs of n graphs:
// (0, 1), (0, 2), …, (0, n−1), (1, 2), … — the order of Range and of its CSV.
func PairAt(t, n int) (i, j int) { return pairOf(t, n) }

// pairBlock is how many pairs Range hands the workers at a time: enough to keep them
// busy, few enough that the pairs finished out of order hold little memory.
const pairBlock = 4096

// pairValue is a finished pair: its number in the block and its discrepancy.
type pairValue struct {
	t int
	d float64
}

// Range computes the discrepancies of the pairs numbered lo ≤ t < hi (see PairAt), the
// slice of Matrix's pairs that one shard of a distributed run computes, and calls emit with each
// in order of t, as soon as the pair and those before it are done, so that a caller can keep
// them when the work stops (ctx cancelled, a pair failed). emit is called from the caller's
// goroutine. Memory does not grow with hi − lo: pairs are computed in blocks on the workers. A
// non-nil error from emit stops the work and is returned.
func Range(ctx context.Context, data []*graphs.Graph, opt Options, lo, hi int, emit func(i, j int, d float64) error) (Stats, error) {
	start := time.Now()
	n := len(data)
	if n < 2 {
		return Stats{}, fmt.Errorf("pairwise gwd: %d graphs, need at least 2", n)
	}
	if lo < 0 || hi < lo || hi > Pairs(n) {
		return Stats{}, fmt.Errorf("pairwise gwd: pairs [%d, %d) out of the %d pairs of %d graphs", lo, hi, Pairs(n), n)
	}
	s, err := opt.solver()
	if err != nil {
		return Stats{}, err
	}
	ctx, cancel := context.WithCancel(ctx) // an error of emit stops the workers
	defer cancel()
	block := make([]float64, min(pairBlock, hi-lo))
	done := make([]bool, len(block))
	outer := opt.Observe
	for b := lo; b < hi; b += len(block) {
		m := min(len(block), hi-b)
		if outer != nil { // counts of the block → counts of the range
			opt.Observe = func(e observe.Event) {
				e.Done, e.Total = b-lo+e.Done, hi-lo
				outer(e)
			}
		}
		finished := make(chan pairValue, opt.workers())
		var err error
		go func() {
			defer close(finished)
			err = Each(ctx, m, opt, func(st *layers.State, t int) error {
				i, j := pairOf(b+t, n)
				if err := layers.Solve(ctx, s, st, opt.space(data[i]), opt.space(data[j])); err != nil {
					return fmt.Errorf("gwd of graphs %q and %q: %w", data[i].Name, data[j].Name, err)
				}
				finished <- pairValue{t, st.Objective()}
				return nil
			})
		}()
		// Emit the block's pairs in order as they finish; drain the channel even after an error
		// of emit, so that the workers end.
		clear(done[:m])
		next := 0
		var emitErr error
		for f := range finished {
			block[f.t], done[f.t] = f.d, true
			for ; emitErr == nil && next < m && done[next]; next++ {
				i, j := pairOf(b+next, n)
				if emitErr = emit(i, j, block[next]); emitErr != nil {
					cancel()
				}
			}
		}
		if emitErr != nil {
			return Stats{}, emitErr
		}
		if err != nil { // read after the channel closed: the goroutine has set it
			return Stats{}, err
		}
	}
	return Stats{GWDs: hi - lo, Seconds: time.Since(start).Seconds()}, nil
}
