package emd

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// ErrInput is wrapped by errors about malformed problems.
var ErrInput = errors.New("emd: invalid input")

// ErrPivots is wrapped by the error returned when the pivot limit is reached (degenerate
// cycling or a badly scaled cost); the plan is then feasible but not proven optimal.
var ErrPivots = errors.New("emd: pivot limit reached")

// ctxPivots is how many pivots Solve makes between two checks of its context.
const ctxPivots = 1024

// Workspace holds the basis and the scratch of Solve; reuse it across problems.
type Workspace struct {
	// Pivots is the number of simplex pivots of the last Solve.
	Pivots int
	// MaxPivots bounds the pivots of one Solve; 0 means 100·(ns+nt)² (never reached on the
	// tested problems, which need a few times ns+nt).
	MaxPivots int
	// Warm starts the next Solve from the last optimal basis when the sizes are unchanged: the
	// caller promises the same marginals (the basis is then still feasible) and only the cost
	// has changed, as between the iterations of conditional gradient, where it cuts the pivots
	// severalfold.
	Warm bool

	ns, nt int
	// The basis: ns+nt−1 cells (row, column, flow).
	ci, cj []int32
	cx     []float64
	// The spanning tree over nodes 0..ns−1 (sources) and ns..ns+nt−1 (sinks), rooted at 0.
	parent, pcell, depth []int32
	pot                  []float64 // pot[i] + pot[ns+j] = C_ij on every basic cell
	// Adjacency of the tree as linked lists of half-edges: 2k at cell k's row node, 2k+1 at its
	// column node, so a pivot relinks two cells in O(1). end[h] is the node at the other end of
	// half-edge h, which spares the walk a branch it cannot predict.
	head, nextH, prevH, end []int32
	queue                   []int32 // breadth-first walk
	pathCell, pathNode      []int32 // the cycle of a pivot: cells and their lower nodes
	pathMinus               []bool
	rest                    []float64
	next                    int  // where pricing resumes
	block                   int  // cells a pricing block scans: about √(ns·nt), at least 10
	solved                  bool // the basis is the optimum of the last Solve
}

// Solve writes the optimal plan into x (ns×nt, row-major) for the cost c (ns×nt) and the
// marginals a (ns) and b (nt), which must be non-negative, finite and of equal mass (to 1e-9
// relative), and returns the objective <c, x>. It checks ctx every ctxPivots pivots: once ctx
// is done, Solve stops with its error (wrapped), leaving a feasible plan that is not optimal.
// A cold solve of a 1,500-node pair runs for seconds, too long to check only between solves.
func (w *Workspace) Solve(ctx context.Context, x, c, a, b []float64) (float64, error) {
	ns, nt := len(a), len(b)
	if ns == 0 || nt == 0 {
		return 0, fmt.Errorf("%w: empty marginal (%d and %d entries)", ErrInput, ns, nt)
	}
	if len(c) != ns*nt || len(x) != ns*nt {
		return 0, fmt.Errorf("%w: cost has %d and plan %d entries for %d×%d", ErrInput, len(c), len(x), ns, nt)
	}
	sa, sb := 0.0, 0.0
	for i, v := range a {
		if !(v >= 0) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%w: a[%d] = %v", ErrInput, i, v)
		}
		sa += v
	}
	for j, v := range b {
		if !(v >= 0) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%w: b[%d] = %v", ErrInput, j, v)
		}
		sb += v
	}
	if math.Abs(sa-sb) > 1e-9*math.Max(sa, sb) {
		return 0, fmt.Errorf("%w: masses differ: %v and %v", ErrInput, sa, sb)
	}
	scale := 0.0
	finite := 0.0         // v − v is NaN exactly for NaN and ±Inf
	for _, v := range c { // plain comparisons: math.Max is slow in this loop over ns·nt costs
		finite += v - v
		if v > scale {
			scale = v
		} else if -v > scale {
			scale = -v
		}
	}
	if finite != 0 {
		for k, v := range c {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("%w: cost[%d][%d] = %v", ErrInput, k/nt, k%nt, v)
			}
		}
	}
	if !w.Warm || !w.solved || ns != w.ns || nt != w.nt {
		w.resize(ns, nt)
		w.northWest(a, b)
	}
	w.solved = false
	w.buildTree(c)
	// A cell enters when its reduced cost is below −eps: relative to the costs' scale, so that
	// rounding in the potentials cannot make the method pivot forever.
	eps := 1e-12 * scale
	limit := w.MaxPivots
	if limit <= 0 {
		limit = 100 * (ns + nt) * (ns + nt)
	}
	w.Pivots = 0
	w.next = 0
	var err error
	for {
		e := w.price(c, eps)
		if e < 0 {
			break
		}
		if w.Pivots >= limit {
			err = fmt.Errorf("%w: %d pivots on a %d×%d problem", ErrPivots, w.Pivots, ns, nt)
			break
		}
		// A counter keeps the check off the pivots' cost: a pivot of a 1,500-node pair takes
		// microseconds, so ctxPivots of them take milliseconds.
		if w.Pivots%ctxPivots == ctxPivots-1 {
			if cerr := ctx.Err(); cerr != nil {
				err = fmt.Errorf("emd: stopped after %d pivots: %w", w.Pivots, cerr)
				break
			}
		}
		w.pivot(c, int32(e/nt), int32(e%nt))
		w.Pivots++
	}
	w.solved = err == nil
	clear(x)
	obj := 0.0
	for k, f := range w.cx {
		i, j := int(w.ci[k]), int(w.cj[k])
		x[i*nt+j] += f
		obj += f * c[i*nt+j]
	}
	return obj, err
}

// Basis returns the cells of the last solution's basis — rows, columns and flows, ns+nt−1 of
// them, some with flow 0 — which hold every non-zero of the plan. Valid until the next Solve.
func (w *Workspace) Basis() (rows, cols []int32, flows []float64) { return w.ci, w.cj, w.cx }

func (w *Workspace) resize(ns, nt int) {
	w.ns, w.nt = ns, nt
	w.block = max(10, int(math.Sqrt(float64(ns*nt))))
	n, m := ns+nt, ns+nt-1
	w.ci = growInt(w.ci, m)
	w.cj = growInt(w.cj, m)
	w.cx = growFloat(w.cx, m)
	w.parent = growInt(w.parent, n)
	w.pcell = growInt(w.pcell, n)
	w.depth = growInt(w.depth, n)
	w.pot = growFloat(w.pot, n)
	w.head = growInt(w.head, n)
	w.nextH = growInt(w.nextH, 2*m)
	w.prevH = growInt(w.prevH, 2*m)
	w.end = growInt(w.end, 2*m)
	w.queue = growInt(w.queue, n)
	w.pathCell = growInt(w.pathCell, n)
	w.pathNode = growInt(w.pathNode, n)
	if cap(w.pathMinus) < n {
		w.pathMinus = make([]bool, n)
	}
	w.pathMinus = w.pathMinus[:n]
	w.rest = growFloat(w.rest, n)
}

// northWest sets the initial basis by the north-west corner rule: a staircase of ns+nt−1
// cells from (0,0) to (ns−1,nt−1), which is a spanning tree (some flows may be 0).
func (w *Workspace) northWest(a, b []float64) {
	ns, nt := w.ns, w.nt
	sup, dem := w.rest[:ns], w.rest[ns:]
	copy(sup, a)
	copy(dem, b)
	i, j := 0, 0
	for k := 0; k < ns+nt-1; k++ {
		f := math.Max(0, math.Min(sup[i], dem[j]))
		w.ci[k], w.cj[k], w.cx[k] = int32(i), int32(j), f
		sup[i] -= f
		dem[j] -= f
		switch {
		case i == ns-1:
			j++
		case j == nt-1:
			i++
		case sup[i] <= dem[j]:
			i++
		default:
			j++
		}
	}
}

// buildTree links the basis cells and derives parents, depths and potentials of the tree by
// a breadth-first walk from node 0 (pot = 0 there).
func (w *Workspace) buildTree(c []float64) {
	for v := range w.head {
		w.head[v] = -1
	}
	for k := range w.ci {
		w.link(int32(k))
	}
	w.parent[0], w.pcell[0], w.depth[0], w.pot[0] = -1, -1, 0, 0
	w.walk(c, 0)
}

// link adds cell k's two half-edges to its nodes' lists.
func (w *Workspace) link(k int32) {
	w.end[2*k], w.end[2*k+1] = w.cj[k]+int32(w.ns), w.ci[k]
	for h, v := 2*k, w.ci[k]; h <= 2*k+1; h, v = h+1, w.cj[k]+int32(w.ns) {
		w.prevH[h], w.nextH[h] = -1, w.head[v]
		if w.head[v] >= 0 {
			w.prevH[w.head[v]] = h
		}
		w.head[v] = h
	}
}

// unlink removes cell k's half-edges.
func (w *Workspace) unlink(k int32) {
	for h, v := 2*k, w.ci[k]; h <= 2*k+1; h, v = h+1, w.cj[k]+int32(w.ns) {
		if w.prevH[h] >= 0 {
			w.nextH[w.prevH[h]] = w.nextH[h]
		} else {
			w.head[v] = w.nextH[h]
		}
		if w.nextH[h] >= 0 {
			w.prevH[w.nextH[h]] = w.prevH[h]
		}
	}
}

// walk sets parent, depth and potential of every node below r (r's own are set), going down
// the tree breadth first and never back up the edge a node was reached by.
func (w *Workspace) walk(c []float64, r int32) {
	nt := w.nt
	q := w.queue[:1]
	q[0] = r
	for h := 0; h < len(q); h++ {
		u := q[h]
		up, ud, upot := w.pcell[u], w.depth[u]+1, w.pot[u]
		for e := w.head[u]; e >= 0; e = w.nextH[e] {
			k := e / 2
			if k == up {
				continue
			}
			v := w.end[e]
			w.parent[v], w.pcell[v], w.depth[v] = u, k, ud
			w.pot[v] = c[int(w.ci[k])*nt+int(w.cj[k])] - upot
			q = append(q, v)
		}
	}
}

// price returns a cell with reduced cost below −eps, or −1 when the basis is optimal. It
// scans blocks of about √(ns·nt) cells from where the last search stopped and returns the
// most negative cell of the first block that has one (LEMON's block search).
func (w *Workspace) price(c []float64, eps float64) int {
	ns, nt := w.ns, w.nt
	m, block := ns*nt, w.block
	best, bestRC := -1, -eps
	k := w.next
	for scanned := 0; scanned < m; {
		end := min(k+block, m)
		scanned += end - k
		for k < end { // the block, row segment by row segment
			i := k / nt
			j0 := k - i*nt
			j1 := min(nt, j0+end-k)
			ui := w.pot[i]
			vs := w.pot[ns+j0 : ns+j1]
			for j, cv := range c[i*nt+j0 : i*nt+j1] {
				if rc := cv - ui - vs[j]; rc < bestRC {
					best, bestRC = k+j, rc
				}
			}
			k += j1 - j0
		}
		if k == m {
			k = 0
		}
		if best >= 0 {
			break
		}
	}
	w.next = k
	return best
}

// pivot brings cell (ei, ej) into the basis: it finds the tree path between its two nodes,
// moves the largest feasible flow around the cycle, and replaces the blocking cell.
func (w *Workspace) pivot(c []float64, ei, ej int32) {
	ns := int32(w.ns)
	u, v := ei, ej+ns
	// Cells alternate − and + along the cycle, starting with − next to either end of the
	// entering cell (each shares that end's row or column with it).
	var nu, nv int // steps taken from each end
	np := 0
	for u != v {
		if w.depth[u] >= w.depth[v] {
			nu++
			w.pathCell[np], w.pathMinus[np], w.pathNode[np] = w.pcell[u], nu%2 == 1, u
			u = w.parent[u]
		} else {
			nv++
			w.pathCell[np], w.pathMinus[np], w.pathNode[np] = w.pcell[v], nv%2 == 1, v
			v = w.parent[v]
		}
		np++
	}
	theta, leave, below := math.Inf(1), int32(-1), int32(-1)
	for p := 0; p < np; p++ {
		if k := w.pathCell[p]; w.pathMinus[p] && w.cx[k] < theta {
			theta, leave, below = w.cx[k], k, w.pathNode[p]
		}
	}
	for p := 0; p < np; p++ {
		k := w.pathCell[p]
		if w.pathMinus[p] {
			w.cx[k] -= theta
		} else {
			w.cx[k] += theta
		}
	}
	// The leaving cell cut off the subtree under node below; it hangs again from the end of
	// the entering cell that lies outside it, so only its nodes get new parents and potentials.
	inside, outside := ei, ej+ns
	if !w.under(inside, below) {
		inside, outside = outside, inside
	}
	w.unlink(leave)
	w.ci[leave], w.cj[leave], w.cx[leave] = ei, ej, theta
	w.link(leave)
	w.parent[inside], w.pcell[inside], w.depth[inside] = outside, leave, w.depth[outside]+1
	w.pot[inside] = c[int(ei)*w.nt+int(ej)] - w.pot[outside]
	w.walk(c, inside)
}

// under reports whether node x lies in the subtree of node r.
func (w *Workspace) under(x, r int32) bool {
	for w.depth[x] > w.depth[r] {
		x = w.parent[x]
	}
	return x == r
}

func growInt(b []int32, n int) []int32 {
	if cap(b) < n {
		return make([]int32, n)
	}
	return b[:n]
}

func growFloat(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}
