package svm

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// Model is a trained C-SVC: one binary machine per pair of classes that both have training
// items. Its fields are exported so that callers can encode it (as JSON, say); a model needs
// the kernel between new items and its Support items only.
type Model struct {
	// Classes is the number of classes; labels are 0..Classes-1.
	Classes int
	// C is the bound on the dual variables it was trained with.
	C float64
	// Machines are the pairs (A, B) in libsvm's order: (0,1), (0,2), ..., (1,2), ...;
	// pairs that involve a class without training items are left out.
	Machines []Machine
}

// Machine is the binary machine of classes A < B. Its decision value for a new item x is
//
//	Σ_s Coef[s]·K(x, Support[s]) + Bias,
//
// positive for class A, as libsvm's and scikit-learn's multiclass decision values are.
type Machine struct {
	// A and B are the pair's classes, A < B.
	A, B int
	// Support are the training indices with a nonzero dual variable, ascending.
	Support []int
	// Coef are αᵢyᵢ for Support, with y = +1 for class A and −1 for class B, so that
	// 0 < Coef ≤ C on class A, −C ≤ Coef < 0 on class B and they sum to 0.
	Coef []float64
	// Bias is −ρ in libsvm's terms (scikit-learn's intercept_).
	Bias float64
}

// Fit trains on the n×n training kernel k (k.At(i, j) = kernel between training items i and
// j) with labels y in [0, classes) and bound c > 0, like scikit-learn's
// SVC(kernel="precomputed", C=c). k need not be positive semi-definite. Each pair of classes
// present in y gets a machine trained on that pair's items; machines involving a class that
// has no item in y are skipped, so such a class is never predicted. Machines are trained in
// parallel; the result does not depend on scheduling.
//
// Fit returns an error, and never panics, for: n = 0, len(y) ≠ n, classes < 2, a label out
// of range, fewer than two classes present in y, c ≤ 0 or not finite, or a kernel entry that
// is not finite or beyond float32 range (the solver keeps the kernel in float32, as libsvm).
func Fit(k mat.Symmetric, y []int, classes int, c float64) (*Model, error) {
	m, err := fit(k, y, classes, c)
	if err != nil {
		return nil, fmt.Errorf("svm: %w", err)
	}
	return m, nil
}

// fit is Fit with errors not yet prefixed by the package name.
func fit(k mat.Symmetric, y []int, classes int, c float64) (*Model, error) {
	byClass, err := checkProblem(k, y, classes, c)
	if err != nil {
		return nil, err
	}
	kr := newSymReader(k)
	if err := checkKernel(kr, len(y)); err != nil {
		return nil, err
	}

	type pair struct{ a, b int }
	var pairs []pair
	for a := range classes {
		for b := a + 1; b < classes; b++ {
			if len(byClass[a]) > 0 && len(byClass[b]) > 0 {
				pairs = append(pairs, pair{a, b})
			}
		}
	}
	machines := make([]Machine, len(pairs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(pairs)) {
		wg.Go(func() {
			for p := range jobs {
				machines[p] = trainPair(kr, byClass[pairs[p].a], byClass[pairs[p].b], c)
				machines[p].A, machines[p].B = pairs[p].a, pairs[p].b
			}
		})
	}
	for p := range pairs {
		jobs <- p
	}
	close(jobs)
	wg.Wait()

	for _, mc := range machines {
		// A safety net: with finite inputs in range the solver stays finite, but a C near
		// the float64 limit could overflow.
		if math.IsInf(mc.Bias, 0) || math.IsNaN(mc.Bias) {
			return nil, fmt.Errorf("machine (%d, %d): the bias is not finite (C = %g too large?)",
				mc.A, mc.B, c)
		}
		for _, v := range mc.Coef {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return nil, fmt.Errorf("machine (%d, %d): a coefficient is not finite", mc.A, mc.B)
			}
		}
	}
	return &Model{Classes: classes, C: c, Machines: machines}, nil
}

// checkProblem validates everything but the kernel's entries and groups the training
// indices by class, ascending.
func checkProblem(k mat.Symmetric, y []int, classes int, c float64) ([][]int, error) {
	if k == nil {
		return nil, errors.New("nil kernel")
	}
	n := k.SymmetricDim()
	switch {
	case len(y) == 0:
		return nil, errors.New("no training items")
	case n != len(y):
		return nil, fmt.Errorf("kernel is %d×%d but there are %d labels", n, n, len(y))
	case classes < 2:
		return nil, fmt.Errorf("%d classes: need at least 2", classes)
	case !(c > 0) || math.IsInf(c, 1):
		return nil, fmt.Errorf("invalid C = %g: need a finite C > 0", c)
	}
	byClass := make([][]int, classes)
	present := 0
	for i, l := range y {
		if l < 0 || l >= classes {
			return nil, fmt.Errorf("label %d of item %d is outside [0, %d)", l, i, classes)
		}
		if len(byClass[l]) == 0 {
			present++
		}
		byClass[l] = append(byClass[l], i)
	}
	if present < 2 {
		return nil, fmt.Errorf("the labels hold only one class (%d): need at least two", y[0])
	}
	return byClass, nil
}

// checkKernel refuses non-finite entries, and entries beyond float32 range, which the
// solver's float32 copy would turn into infinities.
func checkKernel(k symReader, n int) error {
	d := k.indices(identity(n))
	for i := range n {
		for j := i; j < n; j++ {
			var v float64
			if k.data != nil {
				v = k.raw(d[i], d[j])
			} else {
				v = k.k.At(d[i], d[j])
			}
			// One test for NaN, ±Inf and beyond float32, where the solver's copy would
			// turn into ±Inf.
			if !(math.Abs(v) <= math.MaxFloat32) {
				return fmt.Errorf(
					"kernel entry (%d, %d) = %g: need finite values within float32 range", i, j, v)
			}
		}
	}
	return nil
}

func identity(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// trainPair trains the machine of two classes with training items ia (y = +1) and ib
// (y = −1), ordered as libsvm orders them: class A's items, then class B's.
func trainPair(k symReader, ia, ib []int, c float64) Machine {
	idx := slices.Concat(ia, ib)
	l, na := len(idx), len(ia)
	y := make([]int8, l)
	for i := range y {
		y[i] = 1
		if i >= na {
			y[i] = -1
		}
	}
	// The whole pair's Q in float32: at most 4000² entries (64 MiB) in this package's use,
	// which spares libsvm's row cache and its kernel recomputations.
	q := make([]float32, l*l)
	qd := make([]float64, l)
	d := k.indices(idx)
	for r, ir := range d {
		row := q[r*l : (r+1)*l]
		for s := r; s < l; s++ {
			var v float64
			if k.data != nil {
				v = k.raw(ir, d[s])
			} else {
				v = k.k.At(ir, d[s])
			}
			if s == r {
				qd[r] = v // float64, as libsvm's QD
			}
			if (r < na) != (s < na) {
				v = -v
			}
			row[s] = float32(v)
		}
	}
	mirror(q, l)
	sol := newSolver(q, qd, y, c).solve()

	var m Machine
	for i, a := range sol.alpha {
		if a != 0 {
			if i >= na { // y, which the solver permutes, is no longer by original index
				a = -a
			}
			m.Support = append(m.Support, idx[i])
			m.Coef = append(m.Coef, a)
		}
	}
	// Training order is class A's items then class B's; callers expect ascending indices.
	order := identity(len(m.Support))
	slices.SortFunc(order, func(i, j int) int { return m.Support[i] - m.Support[j] })
	sup, coef := make([]int, len(order)), make([]float64, len(order))
	for i, o := range order {
		sup[i], coef[i] = m.Support[o], m.Coef[o]
	}
	m.Support, m.Coef, m.Bias = sup, coef, -sol.rho
	return m
}

// mirror copies the upper triangle of the l×l matrix q to the lower one, by tiles, so that
// the strided side of the copy stays in cache.
func mirror(q []float32, l int) {
	const tile = 64
	for r0 := 0; r0 < l; r0 += tile {
		for s0 := r0; s0 < l; s0 += tile {
			for r := r0; r < min(r0+tile, l); r++ {
				for s := max(s0, r+1); s < min(s0+tile, l); s++ {
					q[s*l+r] = q[r*l+s]
				}
			}
		}
	}
}

// Decision returns, for each row of kr (m×n: the kernel between m new items and the n
// training items), the decision value of every machine: an m × len(Machines) matrix, column p
// for Machines[p], positive for its class A. kr needs columns up to the largest support
// index; others may hold anything finite (zeros where only Support items were kept).
// Decision panics, as gonum does, if kr has too few columns or the model is malformed. A
// non-finite kernel entry at a support column gives a NaN or infinite decision value.
func (m *Model) Decision(kr mat.Matrix) *mat.Dense {
	rows, cols := kr.Dims()
	if rows == 0 { // gonum's empty matrix: nothing to decide, whatever its columns
		return &mat.Dense{}
	}
	m.mustFit(cols)
	if len(m.Machines) == 0 {
		return &mat.Dense{}
	}
	out := mat.NewDense(rows, len(m.Machines), nil)
	raw, isRaw := kr.(mat.RawRowViewer)
	var row []float64
	if !isRaw {
		row = make([]float64, cols)
	}
	for i := range rows {
		if isRaw {
			row = raw.RawRowView(i)
		} else {
			for j := range row {
				row[j] = kr.At(i, j)
			}
		}
		for p, mc := range m.Machines {
			sum := 0.0
			for s, sv := range mc.Support {
				sum += mc.Coef[s] * row[sv]
			}
			out.Set(i, p, sum+mc.Bias)
		}
	}
	return out
}

// mustFit panics unless the model is well formed and its support indices are below cols.
func (m *Model) mustFit(cols int) {
	for _, mc := range m.Machines {
		if mc.A < 0 || mc.A >= mc.B || mc.B >= m.Classes || len(mc.Coef) != len(mc.Support) {
			panic(fmt.Sprintf(
				"svm: malformed machine (%d, %d) with %d classes, %d support, %d coef",
				mc.A, mc.B, m.Classes, len(mc.Support), len(mc.Coef)))
		}
		for _, sv := range mc.Support {
			if sv < 0 || sv >= cols {
				panic(fmt.Sprintf(
					"svm: the kernel rows have %d columns but machine (%d, %d) uses item %d",
					cols, mc.A, mc.B, sv))
			}
		}
	}
}

// Predict returns the voted class of each row of kr (as in Decision): each machine votes for
// its class A where its decision value is > 0, else for B, and ties between classes go to the
// lowest class index, as in libsvm.
func (m *Model) Predict(kr mat.Matrix) []int {
	rows, _ := kr.Dims()
	dec := m.Decision(kr)
	out := make([]int, rows)
	votes := make([]int, m.Classes)
	for i := range rows {
		clear(votes)
		for p, mc := range m.Machines {
			if dec.At(i, p) > 0 {
				votes[mc.A]++
			} else {
				votes[mc.B]++
			}
		}
		best := 0
		for c, v := range votes {
			if v > votes[best] {
				best = c
			}
		}
		out[i] = best
	}
	return out
}

// Support returns the sorted union of the training indices that any machine uses: a saved
// model needs only these items.
func (m *Model) Support() []int {
	var all []int
	for _, mc := range m.Machines {
		all = append(all, mc.Support...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}
