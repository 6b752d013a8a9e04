package adamstate

import (
	"math/rand/v2"
	"slices"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

type param struct{ value, grad *tensor.Dense }

func (p *param) Value() gorgonia.Value         { return p.value }
func (p *param) Grad() (gorgonia.Value, error) { return p.grad, nil }

func newParams(rng *rand.Rand, sizes ...int) ([]gorgonia.ValueGrad, [][]float64, [][]float64) {
	var vgs []gorgonia.ValueGrad
	var values, grads [][]float64
	for _, n := range sizes {
		v, g := make([]float64, n), make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		vgs = append(vgs, &param{tensor.New(tensor.WithShape(n), tensor.WithBacking(v)), tensor.New(tensor.WithShape(n), tensor.WithBacking(g))})
		values, grads = append(values, v), append(grads, g)
	}
	return vgs, values, grads
}

// TestLayoutGuard: a solver snapshot after some steps, restored into a new solver over a copy of
// the parameters, continues bit-identically. It fails if gorgonia.AdamSolver's private layout
// changes (the reflection then errors or restores the wrong state).
func TestLayoutGuard(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	a, av, ag := newParams(rng, 3, 5)
	b, bv, bg := newParams(rand.New(rand.NewPCG(1, 2)), 3, 5)
	sa := gorgonia.NewAdamSolver(gorgonia.WithLearnRate(0.05))
	step := func(s *gorgonia.AdamSolver, ps []gorgonia.ValueGrad, grads [][]float64, seed uint64) {
		r := rand.New(rand.NewPCG(seed, 7))
		for _, g := range grads {
			for i := range g {
				g[i] = r.NormFloat64()
			}
		}
		if err := s.Step(ps); err != nil {
			t.Fatal(err)
		}
	}
	for i := uint64(0); i < 4; i++ {
		step(sa, a, ag, i)
	}
	st, err := Snapshot(sa)
	if err != nil {
		t.Fatal(err)
	}
	if st.Iter != 4 || st.Check([]int{3, 5}) != nil {
		t.Fatalf("snapshot %+v does not check out", st)
	}
	for i := range bv {
		copy(bv[i], av[i])
	}
	sb, err := Restore(st, 0.05, b, bg)
	if err != nil {
		t.Fatal(err)
	}
	for i := uint64(4); i < 8; i++ {
		step(sa, a, ag, i)
		step(sb, b, bg, i)
	}
	for i := range av {
		if !slices.Equal(av[i], bv[i]) {
			t.Fatalf("parameter %d: restored run %v, uninterrupted %v", i, bv[i], av[i])
		}
	}
}

func TestZeroStateAndChecks(t *testing.T) {
	if s, err := Snapshot(nil); err != nil || s.Iter != 0 {
		t.Fatalf("nil solver: %+v, %v", s, err)
	}
	if s, err := Restore(State{}, 0.1, nil, nil); s != nil || err != nil {
		t.Fatalf("zero state restores to %v, %v", s, err)
	}
	bad := []State{
		{Iter: 1, M: [][]float64{{0}}, V: [][]float64{{-1}}},
		{Iter: 1, M: [][]float64{{0, 1}}, V: [][]float64{{0}}},
		{Iter: -1},
		{Iter: 0, M: [][]float64{{0}}, V: [][]float64{{0}}},
	}
	for _, st := range bad {
		if st.Check([]int{1}) == nil {
			t.Errorf("%+v passes Check", st)
		}
	}
}

// TestSwappedStates: three vectors stepped in an irregular order through one solver whose
// state is swapped in (Set) and out (Get) for each end bit-identical to the same steps with a
// solver each: each keeps its own step count and moments (the lazy Adam of sparse embeddings).
func TestSwappedStates(t *testing.T) {
	const k = 4
	own, ownV, ownG := newParams(rand.New(rand.NewPCG(3, 4)), k, k, k)
	one, oneV, oneG := newParams(rand.New(rand.NewPCG(3, 4)), k, k, k)
	solvers := make([]*gorgonia.AdamSolver, 3)
	for i := range solvers {
		solvers[i] = gorgonia.NewAdamSolver(gorgonia.WithLearnRate(0.05))
	}
	shared := gorgonia.NewAdamSolver(gorgonia.WithLearnRate(0.05))
	sw, err := NewSwap(shared)
	if err != nil {
		t.Fatal(err)
	}
	iters := make([]int, 3)
	ms, vs := make([][]float64, 3), make([][]float64, 3)
	for i := range ms {
		ms[i], vs[i] = make([]float64, k), make([]float64, k)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for step, i := range []int{0, 2, 0, 0, 1, 2, 0, 1, 1, 2, 0} {
		for j := range ownG[i] {
			ownG[i][j] = rng.NormFloat64()
		}
		copy(oneG[i], ownG[i])
		if err := solvers[i].Step(own[i : i+1]); err != nil {
			t.Fatal(err)
		}
		if err := sw.Set(iters[i], ms[i:i+1], vs[i:i+1]); err != nil {
			t.Fatal(err)
		}
		if err := shared.Step(one[i : i+1]); err != nil {
			t.Fatal(err)
		}
		if iters[i], err = sw.Get(ms[i:i+1], vs[i:i+1]); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ownV[i], oneV[i]) {
			t.Fatalf("step %d, vector %d: swapped %v, own solver %v", step, i, oneV[i], ownV[i])
		}
		st, err := Snapshot(solvers[i])
		if err != nil {
			t.Fatal(err)
		}
		if st.Iter != iters[i] || !slices.Equal(st.M[0], ms[i]) || !slices.Equal(st.V[0], vs[i]) {
			t.Fatalf("step %d, vector %d: swapped state %d %v %v, own solver's %+v", step, i, iters[i], ms[i], vs[i], st)
		}
	}
	// A fresh solver (no moments yet) takes a state too: a resumed run's first step.
	fresh := gorgonia.NewAdamSolver(gorgonia.WithLearnRate(0.05))
	fw, err := NewSwap(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Set(iters[1], ms[1:2], vs[1:2]); err != nil {
		t.Fatal(err)
	}
	for j := range ownG[1] {
		ownG[1][j] = rng.NormFloat64()
	}
	copy(oneG[1], ownG[1])
	if err := solvers[1].Step(own[1:2]); err != nil {
		t.Fatal(err)
	}
	if err := fresh.Step(one[1:2]); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ownV[1], oneV[1]) {
		t.Fatalf("a fresh solver set to vector 1's state: %v, own solver %v", oneV[1], ownV[1])
	}
	if err := sw.Set(2, ms[:1], vs[:2]); err == nil {
		t.Error("Set with 1 mean and 2 variances: no error")
	}
	if _, err := sw.Get(ms, vs); err == nil {
		t.Error("Get into 3 buffers from a solver of 1 parameter: no error")
	}
	if iter, err := fw.Get(ms[1:2], vs[1:2]); err != nil || iter != iters[1]+1 {
		t.Errorf("after one more step from step %d: step %d, %v", iters[1], iter, err)
	}
	never, err := NewSwap(gorgonia.NewAdamSolver())
	if err != nil {
		t.Fatal(err)
	}
	if iter, err := never.Get(ms, vs); err != nil || iter != 0 {
		t.Errorf("a solver never stepped: step %d, %v", iter, err)
	}
}
