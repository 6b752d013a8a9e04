package layers

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// CG's starts: the first (the product coupling, or CG.Start), then with OrderStart the
// ordered coupling, then CG.Anchors anchored couplings. Each start runs to CG's stopping rule;
// the plan of the lowest objective is kept.
//
// The later starts stop after laterIterFactor times the first start's iterations (at least
// laterMinIter, at most MaxIter): a start from a matching of the right orbit reaches the match
// in a few iterations, while one on a plateau of Frank-Wolfe would otherwise crawl for
// hundreds (docs/speed.md has a case).
const (
	laterIterFactor = 4
	laterMinIter    = 50
)

// done implements stopper: POT's stopping rule on the objective's change, or MaxIter
// iterations of the start; when a start ends and more are left, the next one begins (an
// anchored start checks ctx).
func (c CG) done(ctx context.Context, st *State) bool {
	if st.err != nil {
		return true
	}
	w := &st.cg
	limit := c.MaxIter
	if w.start > 0 {
		limit = w.laterMax
	}
	change := math.Abs(w.obj - w.prev)
	stop := change <= c.TolAbs || change <= c.TolRel*math.Abs(w.obj) || w.steps >= limit
	if !stop {
		return false
	}
	if w.start == 0 {
		w.laterMax = min(c.MaxIter, max(laterMinIter, laterIterFactor*w.steps))
	}
	if w.start == 0 || w.obj < w.bestObj {
		w.best = grow(w.best, len(st.t))
		copy(w.best, st.t)
		w.bestObj = w.obj
	}
	// No start can end below 0: every term of the objective is a square or a feature cost.
	if w.start+1 >= c.starts() || w.bestObj <= 0 {
		return true
	}
	w.start++
	w.steps = 0
	if k := w.start - 1; c.OrderStart && k == 0 {
		orderedCoupling(st)
	} else {
		if c.OrderStart {
			k--
		}
		if err := anchoredCoupling(ctx, st, k); err != nil {
			st.err = err
			return true
		}
	}
	w.obj = st.Objective()
	w.prev = math.NaN()
	return false
}

// finish implements finisher: the plan of the lowest objective of all starts.
func (c CG) finish(_ context.Context, st *State) {
	if w := &st.cg; w.start > 0 && w.bestObj < w.obj {
		copy(st.t, w.best)
		w.obj = w.bestObj
	}
}

// checkStart checks that t is an ns×nt coupling of mus and mut stored contiguously.
func checkStart(t *mat.Dense, mus, mut []float64) error {
	r, c := t.Dims()
	if r != len(mus) || c != len(mut) {
		return fmt.Errorf("cg: %w: the start is %d×%d, the graphs have %d and %d nodes", ErrInput, r, c, len(mus), len(mut))
	}
	total := 0.0
	for _, m := range mus {
		total += m
	}
	tol := 1e-9 * total
	cols := make([]float64, c)
	for i := range r {
		s := 0.0
		for j, v := range t.RawRowView(i) {
			if !(v >= 0) || math.IsInf(v, 0) {
				return fmt.Errorf("cg: %w: the start's entry (%d, %d) = %v is not a finite non-negative number", ErrInput, i, j, v)
			}
			s += v
			cols[j] += v
		}
		if math.Abs(s-mus[i]) > tol {
			return fmt.Errorf("cg: %w: the start's row %d sums to %v, the source's mass there is %v", ErrInput, i, s, mus[i])
		}
	}
	for j, s := range cols {
		if math.Abs(s-mut[j]) > tol {
			return fmt.Errorf("cg: %w: the start's column %d sums to %v, the target's mass there is %v", ErrInput, j, s, mut[j])
		}
	}
	if raw := t.RawMatrix(); raw.Stride != c {
		return fmt.Errorf("cg: %w: the start must be a contiguous matrix (not a view of a larger one)", ErrInput)
	}
	return nil
}

// orderedCoupling writes into st.t the north-west-corner coupling of μs and μt with the nodes
// of each side sorted by their structure row sums, ties kept in node order.
func orderedCoupling(st *State) {
	src, dst := &st.cg.couplings.src, &st.cg.couplings.dst
	src.key, src.idx = rowSumOrder(src.key, src.idx, st.cs.g, st.ns)
	dst.key, dst.idx = rowSumOrder(dst.key, dst.idx, st.ct.g, st.nt)
	northWestCorner(st, src.idx, dst.idx)
}

// northWestCorner writes into st.t the north-west-corner coupling of μs and μt with the
// nodes taken in the orders src and dst: a permutation when both orders match nodes of equal
// masses one to one.
func northWestCorner(st *State, src, dst []int) {
	ns, nt := st.ns, st.nt
	clear(st.t)
	a, b := 0, 0
	ra, rb := st.mus[src[0]], st.mut[dst[0]]
	for a < ns && b < nt {
		m := math.Min(ra, rb)
		st.t[src[a]*nt+dst[b]] += m
		ra -= m
		rb -= m
		// The side with less left (0 up to rounding) moves on, both at a tie.
		moveA, moveB := ra <= rb, rb <= ra
		if moveA {
			if a++; a < ns {
				ra = st.mus[src[a]]
			}
		}
		if moveB {
			if b++; b < nt {
				rb = st.mut[dst[b]]
			}
		}
	}
}

// rowSumOrder returns the row sums of c's n rows (in key) and the rows sorted by them.
func rowSumOrder(key []float64, idx []int, c blas64.General, n int) ([]float64, []int) {
	key = rowSums(key, c, n)
	idx = growInt(idx, n)
	for i := range n {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(key[x], key[y]) })
	return key, idx
}

// rowSums returns the row sums of c's n rows, in key.
func rowSums(key []float64, c blas64.General, n int) []float64 {
	key = grow(key, n)
	for i := range n {
		s := 0.0
		for _, v := range c.Data[i*c.Stride : i*c.Stride+c.Cols] {
			s += v
		}
		key[i] = s
	}
	return key
}

// growUint is grow for []uint64.
func growUint(buf []uint64, n int) []uint64 {
	if cap(buf) < n {
		return make([]uint64, n)
	}
	return buf[:n]
}

// growInt is grow for []int.
func growInt(buf []int, n int) []int {
	if cap(buf) < n {
		return make([]int, n)
	}
	return buf[:n]
}

// growBool returns buf resized to n and cleared, reusing its storage when large enough.
func growBool(buf []bool, n int) []bool {
	if cap(buf) < n {
		return make([]bool, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}
