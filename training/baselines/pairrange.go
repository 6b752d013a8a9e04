package baselines

import (
	"context"
	"fmt"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/training"
)

// Pairs is the number of pairs i < j of n graphs: the discrepancies PairwiseGWD computes.
func Pairs(n int) int { return n * (n - 1) / 2 }

// PairAt returns the pair (i, j), i < j, numbered t in row order among the pairs of n graphs:
// (0, 1), (0, 2), …, (0, n−1), (1, 2), … — the order of PairwiseRange and of its CSV.
func PairAt(t, n int) (i, j int) { return pairOf(t, n) }

// pairBlock is how many pairs PairwiseRange computes before it emits them: enough to keep the
// workers busy, few enough that a slice of a large corpus holds little memory.
const pairBlock = 4096

// PairwiseRange computes the discrepancies of the pairs numbered lo ≤ t < hi (see PairAt), the
// slice of PairwiseGWD that one shard of a distributed run computes, and calls emit with each
// in order of t. Memory does not grow with hi − lo: pairs are computed in blocks on the workers
// and emitted block by block. A non-nil error from emit stops the work and is returned.
func PairwiseRange(ctx context.Context, data []*graphs.Graph, opt Options, lo, hi int, emit func(i, j int, d float64) error) (Stats, error) {
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
	block := make([]float64, min(pairBlock, hi-lo))
	observe := opt.Observe
	for b := lo; b < hi; b += len(block) {
		m := min(len(block), hi-b)
		if observe != nil { // counts of the block → counts of the range
			opt.Observe = func(e training.Event) {
				e.Done, e.Total = b-lo+e.Done, hi-lo
				observe(e)
			}
		}
		err := parallel(ctx, m, opt, func(st *layers.State, t int) error {
			i, j := pairOf(b+t, n)
			if err := layers.Solve(s, st, opt.space(data[i]), opt.space(data[j])); err != nil {
				return fmt.Errorf("gwd of graphs %q and %q: %w", data[i].Name, data[j].Name, err)
			}
			block[t] = st.Objective() // each t is written by exactly one goroutine
			return nil
		})
		if err != nil {
			return Stats{}, err
		}
		for t, d := range block[:m] {
			i, j := pairOf(b+t, n)
			if err := emit(i, j, d); err != nil {
				return Stats{}, err
			}
		}
	}
	return Stats{GWDs: hi - lo, Seconds: time.Since(start).Seconds()}, nil
}
