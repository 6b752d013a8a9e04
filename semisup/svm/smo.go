package svm

import "math"

const (
	// tau replaces a pair's curvature K_ii + K_jj − 2K_ij where it is ≤ 0, which an
	// indefinite kernel allows: libsvm's TAU. The step then runs to a bound, still downhill.
	tau = 1e-12
	// eps is the stopping tolerance on the maximal KKT violation, libsvm's (and sklearn's)
	// default.
	eps = 1e-3
)

// Variable states, libsvm's alpha_status.
const (
	atLower int8 = iota
	atUpper
	free
)

// solver is libsvm's Solver for the C-SVC dual of one binary problem,
//
//	min ½ αᵀQα − Σα   subject to   Σ yᵢαᵢ = 0,  0 ≤ αᵢ ≤ C,   Q_ij = yᵢ yⱼ K_ij,
//
// with libsvm's working-set selection, update, shrinking and ρ, operation for operation, so
// that it follows the same path and stops at the same point as libsvm does.
//
// Shrinking permutes the variables (libsvm's swap_index): the slices below are indexed by
// position, perm maps a position to the variable's original index, and q, which never moves,
// is indexed by original indices.
type solver struct {
	l       int
	q       []float32 // l×l, q[a*l+b] = y_a y_b K_ab by original index, float32 like Qfloat
	c       float64
	maxIter int

	y        []int8    // ±1
	qd       []float64 // K_ii, float64 as in libsvm
	alpha    []float64
	g        []float64 // gradient Qα − 1
	gbar     []float64 // the part of g due to variables at their upper bound: C·Σ Q_i
	st       []int8
	perm     []int
	active   int
	unshrink bool
}

// solution is what solve returns: alpha by original index (αᵢ ≥ 0, not yet multiplied by
// yᵢ), libsvm's ρ (the decision function is Σ αᵢyᵢK(·, i) − ρ), the number of iterations,
// and whether the iteration cap stopped the solver early.
type solution struct {
	alpha  []float64
	rho    float64
	iter   int
	capped bool
}

// newSolver prepares a solver on q and qd (see solver), labels y (±1) and bound c, from
// α = 0 as libsvm starts: then ∇ = −1 and no variable is at its upper bound.
func newSolver(q []float32, qd []float64, y []int8, c float64) *solver {
	l := len(y)
	s := &solver{
		l: l, q: q, c: c, maxIter: max(10_000_000, 100*l),
		y: y, qd: qd,
		alpha: make([]float64, l), g: make([]float64, l), gbar: make([]float64, l),
		st: make([]int8, l), perm: make([]int, l), active: l,
	}
	for i := range l {
		s.g[i] = -1
		s.perm[i] = i
	}
	return s
}

// row returns the Q row of the variable at position i, by original index.
func (s *solver) row(i int) []float32 {
	o := s.perm[i] * s.l
	return s.q[o : o+s.l]
}

func (s *solver) updateStatus(i int) {
	switch {
	case s.alpha[i] >= s.c:
		s.st[i] = atUpper
	case s.alpha[i] <= 0:
		s.st[i] = atLower
	default:
		s.st[i] = free
	}
}

// solve runs SMO to libsvm's stopping rule or to the iteration cap, whichever comes first.
func (s *solver) solve() solution {
	l := s.l
	iter := 0
	counter := min(l, 1000) + 1
	capped := false
	for {
		if iter >= s.maxIter {
			// Stop with the current feasible point; ρ needs the whole gradient.
			capped = true
			s.reconstructGradient()
			s.active = l
			break
		}
		if counter--; counter == 0 {
			counter = min(l, 1000)
			s.shrink()
		}
		i, j, ok := s.selectWorkingSet()
		if !ok {
			// Optimal on the active set: check on all variables before stopping.
			s.reconstructGradient()
			s.active = l
			if i, j, ok = s.selectWorkingSet(); !ok {
				break
			}
			counter = 1 // shrink at the next iteration
		}
		iter++
		s.step(i, j)
	}
	alpha := make([]float64, l)
	for i, o := range s.perm {
		alpha[o] = s.alpha[i]
	}
	return solution{alpha: alpha, rho: s.rho(), iter: iter, capped: capped}
}

// selectWorkingSet is WSS3: i maximises −yᵢ∇ᵢ over I_up, j minimises the second-order
// objective decrease over I_low among the violating pairs (with τ for non-positive
// curvature). ok is false when the maximal violation is below eps. Ties go to the last
// index, as in libsvm.
func (s *solver) selectWorkingSet() (int, int, bool) {
	gmax, gmax2 := math.Inf(-1), math.Inf(-1)
	imax, jmin := -1, -1
	objMin := math.Inf(1)
	y, g, st := s.y, s.g, s.st
	for t := range s.active {
		if y[t] == 1 {
			if st[t] != atUpper && -g[t] >= gmax {
				gmax, imax = -g[t], t
			}
		} else if st[t] != atLower && g[t] >= gmax {
			gmax, imax = g[t], t
		}
	}
	if imax < 0 {
		// libsvm goes on but can find no j (gmax = −∞), so it stops here too.
		return 0, 0, false
	}
	i := imax
	rowI := s.row(i)
	yi, qdi := float64(y[i]), s.qd[i]
	for j := range s.active {
		var gradDiff, quad float64
		// Explicit float64 conversions stop fused multiply-adds, so that every platform
		// takes libsvm's path.
		if y[j] == 1 {
			if st[j] == atLower {
				continue
			}
			gradDiff = gmax + g[j]
			if g[j] >= gmax2 {
				gmax2 = g[j]
			}
			if gradDiff <= 0 {
				continue
			}
			quad = qdi + s.qd[j] - float64(2.0*yi*float64(rowI[s.perm[j]]))
		} else {
			if st[j] == atUpper {
				continue
			}
			gradDiff = gmax - g[j]
			if -g[j] >= gmax2 {
				gmax2 = -g[j]
			}
			if gradDiff <= 0 {
				continue
			}
			quad = qdi + s.qd[j] + float64(2.0*yi*float64(rowI[s.perm[j]]))
		}
		if quad <= 0 {
			quad = tau
		}
		if obj := -(gradDiff * gradDiff) / quad; obj <= objMin {
			jmin, objMin = j, obj
		}
	}
	if gmax+gmax2 < eps || jmin < 0 {
		return 0, 0, false
	}
	return i, jmin, true
}

// step solves the two-variable subproblem on (i, j), clips it to the box as libsvm does, and
// updates the gradient, the states and ḡ.
func (s *solver) step(i, j int) {
	rowI, rowJ := s.row(i), s.row(j)
	c, a := s.c, s.alpha
	qij := float64(rowI[s.perm[j]])
	oldI, oldJ := a[i], a[j]
	if s.y[i] != s.y[j] {
		quad := s.qd[i] + s.qd[j] + 2*qij
		if quad <= 0 {
			quad = tau
		}
		delta := (-s.g[i] - s.g[j]) / quad
		diff := a[i] - a[j]
		a[i] += delta
		a[j] += delta
		if diff > 0 {
			if a[j] < 0 {
				a[j], a[i] = 0, diff
			}
		} else if a[i] < 0 {
			a[i], a[j] = 0, -diff
		}
		// libsvm compares diff with C_i − C_j, which is 0 here.
		if diff > 0 {
			if a[i] > c {
				a[i], a[j] = c, c-diff
			}
		} else if a[j] > c {
			a[j], a[i] = c, c+diff
		}
	} else {
		quad := s.qd[i] + s.qd[j] - 2*qij
		if quad <= 0 {
			quad = tau
		}
		delta := (s.g[i] - s.g[j]) / quad
		sum := a[i] + a[j]
		a[i] -= delta
		a[j] += delta
		if sum > c {
			if a[i] > c {
				a[i], a[j] = c, sum-c
			}
		} else if a[j] < 0 {
			a[j], a[i] = 0, sum
		}
		if sum > c {
			if a[j] > c {
				a[j], a[i] = c, sum-c
			}
		} else if a[i] < 0 {
			a[i], a[j] = 0, sum
		}
	}

	dI, dJ := a[i]-oldI, a[j]-oldJ
	g, perm := s.g[:s.active], s.perm[:s.active]
	for k, o := range perm {
		g[k] += float64(float64(rowI[o])*dI) + float64(float64(rowJ[o])*dJ)
	}

	upI, upJ := s.st[i] == atUpper, s.st[j] == atUpper
	s.updateStatus(i)
	s.updateStatus(j)
	if upI != (s.st[i] == atUpper) {
		s.moveGbar(rowI, upI)
	}
	if upJ != (s.st[j] == atUpper) {
		s.moveGbar(rowJ, upJ)
	}
}

// moveGbar removes (wasUpper) or adds C times a Q row to ḡ, over all positions.
func (s *solver) moveGbar(row []float32, wasUpper bool) {
	c := s.c
	if wasUpper {
		c = -c
	}
	for k, o := range s.perm {
		s.gbar[k] += float64(c * float64(row[o]))
	}
}

// beShrunk reports whether the variable at position i is at a bound and cannot enter a
// violating pair given the current extreme violations gmax1, gmax2.
func (s *solver) beShrunk(i int, gmax1, gmax2 float64) bool {
	switch s.st[i] {
	case atUpper:
		if s.y[i] == 1 {
			return -s.g[i] > gmax1
		}
		return -s.g[i] > gmax2
	case atLower:
		if s.y[i] == 1 {
			return s.g[i] > gmax2
		}
		return s.g[i] > gmax1
	}
	return false
}

// shrink is libsvm's do_shrinking: it moves variables that are stuck at a bound behind the
// active set, and the first time the violation gets within 10·eps it restores them all.
func (s *solver) shrink() {
	gmax1, gmax2 := math.Inf(-1), math.Inf(-1)
	for i := range s.active {
		g := s.g[i]
		if s.y[i] == 1 {
			if s.st[i] != atUpper && -g >= gmax1 {
				gmax1 = -g
			}
			if s.st[i] != atLower && g >= gmax2 {
				gmax2 = g
			}
		} else {
			if s.st[i] != atUpper && -g >= gmax2 {
				gmax2 = -g
			}
			if s.st[i] != atLower && g >= gmax1 {
				gmax1 = g
			}
		}
	}
	if !s.unshrink && gmax1+gmax2 <= eps*10 {
		s.unshrink = true
		s.reconstructGradient()
		s.active = s.l
	}
	for i := 0; i < s.active; i++ {
		if !s.beShrunk(i, gmax1, gmax2) {
			continue
		}
		s.active--
		for s.active > i {
			if !s.beShrunk(s.active, gmax1, gmax2) {
				s.swap(i, s.active)
				break
			}
			s.active--
		}
	}
}

func (s *solver) swap(i, j int) {
	s.y[i], s.y[j] = s.y[j], s.y[i]
	s.qd[i], s.qd[j] = s.qd[j], s.qd[i]
	s.alpha[i], s.alpha[j] = s.alpha[j], s.alpha[i]
	s.g[i], s.g[j] = s.g[j], s.g[i]
	s.gbar[i], s.gbar[j] = s.gbar[j], s.gbar[i]
	s.st[i], s.st[j] = s.st[j], s.st[i]
	s.perm[i], s.perm[j] = s.perm[j], s.perm[i]
}

// reconstructGradient recomputes the gradient of the shrunk variables from ḡ and the free
// variables, by whichever loop order costs less, as libsvm does.
func (s *solver) reconstructGradient() {
	l, active := s.l, s.active
	if active == l {
		return
	}
	for j := active; j < l; j++ {
		s.g[j] = s.gbar[j] - 1
	}
	nFree := 0
	for j := range active {
		if s.st[j] == free {
			nFree++
		}
	}
	if nFree*l > 2*active*(l-active) {
		for i := active; i < l; i++ {
			row := s.row(i)
			for j := range active {
				if s.st[j] == free {
					s.g[i] += float64(s.alpha[j] * float64(row[s.perm[j]]))
				}
			}
		}
		return
	}
	for i := range active {
		if s.st[i] != free {
			continue
		}
		row, ai := s.row(i), s.alpha[i]
		for j := active; j < l; j++ {
			s.g[j] += float64(ai * float64(row[s.perm[j]]))
		}
	}
}

// rho is libsvm's calculate_rho: the mean of yᵢ∇ᵢ over free variables, which the KKT
// conditions make equal to ρ, or without free variables the midpoint of the interval that
// the bounded variables leave for it.
func (s *solver) rho() float64 {
	ub, lb := math.Inf(1), math.Inf(-1)
	nFree, sumFree := 0, 0.0
	for i := range s.active {
		yg := float64(s.y[i]) * s.g[i]
		switch {
		case s.st[i] == free:
			nFree++
			sumFree += yg
		case (s.st[i] == atUpper) == (s.y[i] == -1):
			ub = min(ub, yg)
		default:
			lb = max(lb, yg)
		}
	}
	if nFree > 0 {
		return sumFree / float64(nFree)
	}
	return (ub + lb) / 2
}
