package pairwise

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
)

// Cross returns the len(a)×len(b) matrix of discrepancies d(a_i, b_j), each computed once
// with a_i as the source: the distances from new graphs to a saved classifier's graphs, or
// between a held-out set and a training set. With a == b it computes every ordered pair; use
// Matrix for one set.
func Cross(ctx context.Context, a, b []*graphs.Graph, opt Options) (*mat.Dense, Stats, error) {
	start := time.Now()
	if len(a) == 0 || len(b) == 0 {
		return nil, Stats{}, fmt.Errorf("cross gwd: %d × %d graphs, need at least one on each side", len(a), len(b))
	}
	s, err := opt.solver()
	if err != nil {
		return nil, Stats{}, err
	}
	d := mat.NewDense(len(a), len(b), nil)
	raw := d.RawMatrix()
	err = Each(ctx, len(a)*len(b), opt, func(st *layers.State, t int) error {
		i, j := t/len(b), t%len(b)
		if err := layers.Solve(ctx, s, st, opt.space(a[i]), opt.space(b[j])); err != nil {
			return fmt.Errorf("gwd of graphs %q and %q: %w", a[i].Name, b[j].Name, err)
		}
		raw.Data[i*raw.Stride+j] = st.Objective() // each t is written by exactly one goroutine
		return nil
	})
	if err != nil {
		return nil, Stats{}, err
	}
	return d, Stats{GWDs: len(a) * len(b), Seconds: time.Since(start).Seconds()}, nil
}
