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
