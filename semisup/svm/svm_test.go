package svm

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// blobs draws 2-D Gaussian blobs, one per class, centred on a circle of radius 2.
func blobs(rng *rand.Rand, sizes []int, spread float64) (*mat.Dense, []int) {
	n := 0
	for _, s := range sizes {
		n += s
	}
	x := mat.NewDense(n, 2, nil)
	y := make([]int, 0, n)
	for c, s := range sizes {
		angle := 2 * math.Pi * float64(c) / float64(len(sizes))
		for range s {
			i := len(y)
			x.Set(i, 0, 2*math.Cos(angle)+spread*rng.NormFloat64())
			x.Set(i, 1, 2*math.Sin(angle)+spread*rng.NormFloat64())
			y = append(y, c)
		}
	}
	return x, y
}

// rbf returns the RBF training kernel of x and the kernel between xt and x.
func rbf(x, xt *mat.Dense, gamma float64) (*mat.SymDense, *mat.Dense) {
	sq := SquaredDistances(x, x)
	n, _ := sq.Dims()
	return ExpKernelSym(mat.NewSymDense(n, sq.RawMatrix().Data), gamma),
		ExpKernel(SquaredDistances(xt, x), gamma)
}

// opaque hides the *mat.SymDense fast path, so that Fit reads through At.
type opaque struct{ mat.Symmetric }

func TestFitThroughAtMatchesRaw(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := blobs(rng, []int{30, 20, 25}, 1.0)
	k, kr := rbf(x, x, 0.7)
	raw, err := Fit(k, y, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	at, err := Fit(opaque{k}, y, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(raw.Decision(kr), at.Decision(kr)) {
		t.Error("Fit through At differs from Fit on the raw SymDense")
	}
}

// TestAbsentClass relabels a fixture so that a class has no training item: the machines
// of the other pairs must be sklearn's, and the absent class must never be predicted.
func TestAbsentClass(t *testing.T) {
	var fx fixture
	for _, f := range loadFixtures(t) {
		if f.Name == "four_rbf_C100" {
			fx = f
		}
	}
	if fx.Name == "" {
		t.Fatal("fixture four_rbf_C100 not found")
	}
	relabel := func(c int) int { // class 2 becomes absent
		if c >= 2 {
			return c + 1
		}
		return c
	}
	y := make([]int, len(fx.Labels))
	for i, c := range fx.Labels {
		y[i] = relabel(c)
	}
	k, kr := fx.kernels()
	m, err := Fit(k, y, fx.Classes+1, fx.C)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Machines) != len(fx.Machines) {
		t.Fatalf("%d machines, want %d", len(m.Machines), len(fx.Machines))
	}
	for p, want := range fx.Machines {
		got := m.Machines[p]
		if got.A != relabel(want.A) || got.B != relabel(want.B) ||
			!slices.Equal(got.Support, want.Support) {
			t.Errorf("machine %d: (%d, %d) with support %v, want (%d, %d) with %v",
				p, got.A, got.B, got.Support, relabel(want.A), relabel(want.B), want.Support)
		}
	}
	for i, p := range m.Predict(kr) {
		if p != relabel(fx.Predict[i]) {
			t.Errorf("test item %d: predicted %d, want %d", i, p, relabel(fx.Predict[i]))
		}
	}
}

// TestPermutation: reordering the training items must not change predictions. A reorder
// that keeps each class's items in order leaves libsvm's subproblems as they were, so the
// model is the same up to the renumbering; any other reorder changes the SMO path, and the
// solution may move within the stopping tolerance.
func TestPermutation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, y := blobs(rng, []int{40, 30, 35}, 0.9)
	xt, _ := blobs(rng, []int{15, 15, 15}, 0.9)
	n := len(y)
	k, kr := rbf(x, xt, 0.5)
	base, err := Fit(k, y, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	want, wantDec := base.Predict(kr), base.Decision(kr)

	interleave := make([]int, n) // classes interleaved, order within classes kept
	for i := range interleave {
		interleave[i] = i
	}
	slices.SortStableFunc(interleave,
		func(a, b int) int { return rankInClass(y, a) - rankInClass(y, b) })
	for name, perm := range map[string][]int{"interleave": interleave, "random": rng.Perm(n)} {
		t.Run(name, func(t *testing.T) {
			kp := mat.NewSymDense(n, nil)
			yp := make([]int, n)
			for i, pi := range perm {
				yp[i] = y[pi]
				for j := i; j < n; j++ {
					kp.SetSym(i, j, k.At(pi, perm[j]))
				}
			}
			krp := mat.NewDense(len(want), n, nil)
			for i := range len(want) {
				for j, pj := range perm {
					krp.Set(i, j, kr.At(i, pj))
				}
			}
			m, err := Fit(kp, yp, 3, 5)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Predict(krp); !slices.Equal(got, want) {
				t.Errorf("predictions\n got %v\nwant %v", got, want)
			}
			tol := 1e-2 // a few times the SMO tolerance
			if name == "interleave" {
				tol = 1e-12
				sup := m.Support()
				for i, s := range sup {
					sup[i] = perm[s]
				}
				slices.Sort(sup)
				if !slices.Equal(sup, base.Support()) {
					t.Errorf("support %v, want %v", sup, base.Support())
				}
			}
			dec := m.Decision(krp)
			r, c := dec.Dims()
			for i := range r {
				for j := range c {
					if !closeTo(dec.At(i, j), wantDec.At(i, j), tol) {
						t.Errorf("decision (%d, %d) = %g, want %g",
							i, j, dec.At(i, j), wantDec.At(i, j))
					}
				}
			}
		})
	}
}

// errorLike reports whether err is an error of this package that mentions want.
func errorLike(err error, want string) bool {
	return err != nil && strings.HasPrefix(err.Error(), "svm: ") &&
		strings.Contains(err.Error(), want)
}

// rankInClass is the position of item i among the items of its class.
func rankInClass(y []int, i int) int {
	r := 0
	for j := range i {
		if y[j] == y[i] {
			r++
		}
	}
	return r
}

func TestSeparable(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x, y := blobs(rng, []int{30, 30, 30, 30}, 0.3)
	k, kr := rbf(x, x, 1)
	m, err := Fit(k, y, 4, 1e4)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Predict(kr); !slices.Equal(got, y) {
		t.Errorf("training predictions\n got %v\nwant %v", got, y)
	}
	checkDual(t, m, y)

	// A linear kernel on separable points, with a large C: the hard-margin machine.
	xs := x.Slice(0, 60, 0, 2)
	var k2 mat.SymDense
	k2.SymOuterK(1, xs)
	m, err = Fit(&k2, y[:60], 2, 1e6)
	if err != nil {
		t.Fatal(err)
	}
	var kr2 mat.Dense
	kr2.Mul(xs, xs.T())
	if got := m.Predict(&kr2); !slices.Equal(got, y[:60]) {
		t.Errorf("linear training predictions\n got %v\nwant %v", got, y[:60])
	}
	checkDual(t, m, y[:60])
}

func TestFitErrors(t *testing.T) {
	good := mat.NewSymDense(3, []float64{1, .5, .1, .5, 1, .2, .1, .2, 1})
	with := func(i, j int, v float64) *mat.SymDense {
		k := mat.NewSymDense(3, nil)
		k.CopySym(good)
		k.SetSym(i, j, v)
		return k
	}
	y := []int{0, 1, 1}
	for _, tc := range []struct {
		name    string
		k       mat.Symmetric
		y       []int
		classes int
		c       float64
		want    string
	}{
		{"nil kernel", nil, y, 2, 1, "nil kernel"},
		{"no items", &mat.SymDense{}, nil, 2, 1, "no training items"},
		{"size mismatch", good, []int{0, 1}, 2, 1, "3×3 but there are 2 labels"},
		{"one class declared", good, []int{0, 0, 0}, 1, 1, "need at least 2"},
		{"one class present", good, []int{1, 1, 1}, 3, 1, "only one class"},
		{"label too large", good, []int{0, 2, 1}, 2, 1, "label 2 of item 1"},
		{"negative label", good, []int{0, -1, 1}, 2, 1, "label -1 of item 1"},
		{"zero C", good, y, 2, 0, "C = 0"},
		{"negative C", good, y, 2, -1, "C = -1"},
		{"NaN C", good, y, 2, math.NaN(), "C = NaN"},
		{"infinite C", good, y, 2, math.Inf(1), "C = +Inf"},
		{"NaN entry", with(0, 2, math.NaN()), y, 2, 1, "(0, 2) = NaN"},
		{"NaN diagonal", with(1, 1, math.NaN()), y, 2, 1, "(1, 1) = NaN"},
		{"infinite entry", with(1, 2, math.Inf(-1)), y, 2, 1, "(1, 2) = -Inf"},
		{"beyond float32", with(0, 1, 1e39), y, 2, 1, "float32 range"},
		{"NaN through At", opaque{with(2, 0, math.NaN())}, y, 2, 1, "(0, 2) = NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Fit(tc.k, tc.y, tc.classes, tc.c)
			if err == nil {
				t.Fatalf("no error; model %+v", m)
			}
			if !errorLike(err, tc.want) {
				t.Errorf("error %q, want one starting with \"svm: \" with %q", err, tc.want)
			}
		})
	}
}

// TestIndefinite trains on kernels with no positive curvature at all, where only the τ
// safeguard gives the solver a step: it must stop, feasible and finite.
func TestIndefinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n := 40
	y := make([]int, n)
	for i := range y {
		y[i] = i % 3
	}
	random := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			random.SetSym(i, j, rng.NormFloat64())
		}
	}
	negIdentity := mat.NewSymDense(n, nil)
	for i := range n {
		negIdentity.SetSym(i, i, -1)
	}
	for name, k := range map[string]*mat.SymDense{
		"zero":           mat.NewSymDense(n, nil),
		"minus identity": negIdentity,
		"random":         random,
	} {
		t.Run(name, func(t *testing.T) {
			for _, c := range []float64{0.1, 1, 100} {
				m, err := Fit(k, y, 3, c)
				if err != nil {
					t.Fatal(err)
				}
				checkDual(t, m, y)
				dec := m.Decision(mat.DenseCopyOf(k))
				r, cols := dec.Dims()
				for i := range r {
					for j := range cols {
						if v := dec.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
							t.Fatalf("C = %g: decision (%d, %d) = %g", c, i, j, v)
						}
					}
				}
			}
		})
	}
}

// TestIterationCap stops the solver after a few iterations: the point it returns must
// still be feasible.
func TestIterationCap(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	x, labels := blobs(rng, []int{50, 50}, 1.5)
	k, _ := rbf(x, x, 1)
	l := len(labels)
	q := make([]float32, l*l)
	qd := make([]float64, l)
	y := make([]int8, l)
	for i := range l {
		y[i] = int8(1 - 2*labels[i])
		qd[i] = k.At(i, i)
		for j := range l {
			q[i*l+j] = float32(float64(y[i]) * float64(y[j]) * k.At(i, j))
		}
	}
	yOrig := slices.Clone(y)
	s := newSolver(q, qd, y, 10)
	s.maxIter = 7
	sol := s.solve()
	if !sol.capped || sol.iter != 7 {
		t.Fatalf("capped = %v after %d iterations, want true after 7", sol.capped, sol.iter)
	}
	sum := 0.0
	for i, a := range sol.alpha {
		if a < 0 || a > 10 {
			t.Errorf("alpha[%d] = %g outside [0, 10]", i, a)
		}
		sum += a * float64(yOrig[i])
	}
	if math.Abs(sum) > 1e-9 || math.IsNaN(sol.rho) || math.IsInf(sol.rho, 0) {
		t.Errorf("Σ αy = %g, ρ = %g", sum, sol.rho)
	}
	full := newSolver(q, slices.Clone(qd), slices.Clone(yOrig), 10).solve()
	if full.capped || full.iter <= 7 {
		t.Errorf("uncapped solver: capped = %v after %d iterations", full.capped, full.iter)
	}
}

func TestPredictVoting(t *testing.T) {
	// No support vectors: the decision values are the biases.
	m := &Model{Classes: 3, C: 1, Machines: []Machine{
		{A: 0, B: 1, Bias: 1},  // votes 0
		{A: 0, B: 2, Bias: -1}, // votes 2
		{A: 1, B: 2, Bias: 1},  // votes 1
	}}
	kr := mat.NewDense(1, 1, nil)
	if got := m.Predict(kr); got[0] != 0 {
		t.Errorf("a three-way tie predicted %d, want the lowest class, 0", got[0])
	}
	m.Machines[0].Bias = 0 // a zero decision votes for B
	if got := m.Predict(kr); got[0] != 1 {
		t.Errorf("predicted %d, want 1", got[0])
	}
}

func TestDecisionShapes(t *testing.T) {
	m := &Model{Classes: 2, C: 1, Machines: []Machine{
		{A: 0, B: 1, Support: []int{0, 4}, Coef: []float64{1, -1}, Bias: 0.5},
	}}
	if d := m.Decision(&mat.Dense{}); !d.IsEmpty() {
		t.Error("no rows gave a non-empty decision matrix")
	}
	if p := m.Predict(&mat.Dense{}); len(p) != 0 {
		t.Errorf("no rows gave predictions %v", p)
	}
	kr := mat.NewDense(2, 5, []float64{1, 0, 0, 0, 0.5, 0, 0, 0, 0, 1})
	if d := m.Decision(kr); d.At(0, 0) != 1 || d.At(1, 0) != -0.5 {
		t.Errorf("decision %v, want [1 -0.5]", mat.Formatted(d))
	}
	// Too few columns for support item 4: a panic with the package's message.
	defer func() {
		if r, ok := recover().(string); !ok || !strings.HasPrefix(r, "svm: ") {
			t.Errorf("recovered %v, want an svm panic", r)
		}
	}()
	m.Decision(mat.NewDense(1, 4, nil))
}

func TestModelJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	x, y := blobs(rng, []int{20, 25, 15}, 1)
	k, kr := rbf(x, x, 0.5)
	m, err := Fit(k, y, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Model
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(back.Decision(kr), m.Decision(kr)) {
		t.Error("decoded model decides differently")
	}
	if !mat.Equal(m.Decision(struct{ mat.Matrix }{kr}), m.Decision(kr)) {
		t.Error("kernel rows read through At decide differently")
	}
	// Only the support items' kernel columns matter.
	sup := m.Support()
	r, c := kr.Dims()
	sparse := mat.NewDense(r, c, nil)
	for _, s := range sup {
		sparse.SetCol(s, mat.Col(nil, s, kr))
	}
	if !slices.Equal(m.Predict(sparse), m.Predict(kr)) {
		t.Error("zeroing non-support columns changed predictions")
	}
}

func BenchmarkFit(b *testing.B) {
	rng := rand.New(rand.NewPCG(13, 14))
	x, y := blobs(rng, []int{334, 333, 333}, 1.2)
	k, _ := rbf(x, x, 0.5)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Fit(k, y, 3, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSelectExp is one grid search of the classifier's default grid (5 γ, 6 C, 5 folds)
// on 400 items of two overlapping classes: the SVM part of a candidate's choice.
func BenchmarkSelectExp(b *testing.B) {
	rng := rand.New(rand.NewPCG(15, 16))
	x, y := blobs(rng, []int{200, 200}, 2)
	d := SquaredDistances(x, x)
	sym := mat.NewSymDense(len(y), nil)
	for i := range len(y) {
		for j := i; j < len(y); j++ {
			sym.SetSym(i, j, d.At(i, j))
		}
	}
	fold, err := StratifiedFolds(y, 5, 1)
	if err != nil {
		b.Fatal(err)
	}
	gammas, cs := []float64{0.01, 0.1, 1, 10, 100}, []float64{0.01, 0.1, 1, 10, 100, 1000}
	for b.Loop() {
		if _, err := SelectExp(context.Background(), sym, y, 2, gammas, cs, fold); err != nil {
			b.Fatal(err)
		}
	}
}
