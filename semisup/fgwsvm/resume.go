package fgwsvm

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/internal/matfile"
	"github.com/gwf-graphs/gwf/layers/pairwise"
)

// A matrix being computed is kept in part as its pairs finish: every few seconds (minKeep, or
// keepCost times as long as the last keep took to write, so that writing costs little), at
// most Options.CheckpointEvery apart, and when the work stops. A stopped or killed run of
// graphs of thousands of nodes, seconds a pair, then loses seconds of work.
const (
	minKeep  = 5 * time.Second
	keepCost = 50
)

// keepAfter is how long to wait after a keep that took took to write before the next.
func (o Options) keepAfter(took time.Duration) time.Duration {
	return min(o.checkpointEvery(), max(minKeep, keepCost*took))
}

// pairwise computes candidate c's matrix of the graphs sd (already carrying c's features),
// reported to Observe after offset of total. With path set it resumes from the partial file
// beside path and keeps its progress there (see Options.Dir).
func (o Options) pairwise(ctx context.Context, sd []*graphs.Graph, c Candidate, path string, offset, total int) (*mat.SymDense, error) {
	if len(sd) < 2 {
		return nil, fmt.Errorf("fgwsvm: %d graphs, need at least 2", len(sd))
	}
	if path == "" { // nothing to keep: the matrix is filled directly, no list of pairs beside it
		d, _, err := pairwise.Matrix(ctx, sd, o.matrixOptions(c, offset, total))
		return d, err
	}
	pairs := pairwise.Pairs(len(sd))
	partial := partialFile(path)
	vals := loadPartial(partial, pairs)
	if len(vals) > 0 {
		o.log("resuming %s at %d of %d discrepancies", partial, len(vals), pairs)
	}
	if cap(vals) < pairs {
		vals = append(make([]float64, 0, pairs), vals...)
	}
	kept, wait := time.Now(), o.keepAfter(0)
	emit := func(_, _ int, d float64) error { // in order of the pairs, as they finish
		vals = append(vals, d)
		if len(vals) < pairs && time.Since(kept) >= wait {
			start := time.Now()
			o.keepPartial(partial, vals)
			kept, wait = time.Now(), o.keepAfter(time.Since(start))
		}
		return nil
	}
	if lo := len(vals); lo < pairs {
		if _, err := pairwise.Range(ctx, sd, o.matrixOptions(c, offset+lo, total), lo, pairs, emit); err != nil {
			o.keepPartial(partial, vals) // cancelled, or a pair failed: keep what was computed
			return nil, err
		}
	}
	n := len(sd)
	d := mat.NewSymDense(n, nil)
	t := 0 // vals in pairwise.PairAt's order: (0, 1), (0, 2), …, (1, 2), …
	for i := range n {
		for j := i + 1; j < n; j++ {
			d.SetSym(i, j, vals[t])
			t++
		}
	}
	return d, nil
}

// partialFile is where the matrix kept at path is kept in part while it is computed.
func partialFile(path string) string {
	return strings.TrimSuffix(path, ".npy") + ".partial.npy"
}

// loadPartial reads the discrepancies of the first pairs (in pairwise.PairAt's order) that a
// killed run kept in path: a 1×t array, t at most pairs, every entry finite. Anything else is
// ignored (nil: computed anew).
func loadPartial(path string, pairs int) []float64 {
	m, err := matfile.ReadFile(path, matfile.Limits{MaxRows: 1, MaxCols: pairs})
	if err != nil {
		return nil
	}
	if r, _ := m.Dims(); r != 1 {
		return nil
	}
	vals := m.RawRowView(0)
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
	}
	return vals
}

// keepPartial writes vals to path (nothing when vals is empty); a failure is only
// logged, since the matrix is still being computed.
func (o Options) keepPartial(path string, vals []float64) {
	if len(vals) == 0 {
		return
	}
	err := os.MkdirAll(filepath.Dir(path), 0o755) // the folder of a fresh run
	if err == nil {
		err = atomicfile.Write(path, func(w io.Writer) error {
			return matfile.Write(w, matfile.NPY, mat.NewDense(1, len(vals), vals), nil)
		})
	}
	if err != nil {
		o.Observe.Say(true, "fgwsvm: keep the partial matrix: %v", err)
	}
}

// removePartial deletes the partial file of the matrix now kept whole at path.
func removePartial(path string) {
	// A partial file left behind does no harm: a later run finds the whole matrix first.
	_ = os.Remove(partialFile(path))
}
