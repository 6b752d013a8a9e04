package training

import (
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/internal/adamstate"
)

// zAdam steps the embeddings z_i with Gorgonia's Adam, each z_i with its own step count and
// moments (the lazy Adam of sparse embeddings: a z_i is stepped only when its graph is in the
// batch). The states are kept in flat arrays, 2·K floats and a count per graph, and swapped
// through one solver for each step, so that what grows with a streamed corpus is the arrays,
// not a solver and four tensors per graph (about 2.3 KiB). The arithmetic is the solver's.
type zAdam struct {
	k      int
	iter   []int     // steps taken by z_i (0: never stepped)
	m, v   []float64 // z_i's moments at [i·K, (i+1)·K)
	s      *gorgonia.AdamSolver
	swap   *adamstate.Swap // the solver's state, swapped per z_i
	p      *param          // the z_i being stepped: a copy of its row and its gradient
	vgs    []gorgonia.ValueGrad
	mi, vi [][]float64 // one-element views of z_i's moments, for adamstate
}

func newZAdam(rows, k int, lr float64) (*zAdam, error) {
	p := paramOf(tensor.New(tensor.WithShape(k), tensor.WithBacking(make([]float64, k))))
	s := gorgonia.NewAdamSolver(gorgonia.WithLearnRate(lr))
	swap, err := adamstate.NewSwap(s)
	if err != nil {
		return nil, err
	}
	return &zAdam{k: k, iter: make([]int, rows), m: make([]float64, rows*k), v: make([]float64, rows*k),
		s: s, swap: swap, p: p, vgs: []gorgonia.ValueGrad{p}, mi: make([][]float64, 1), vi: make([][]float64, 1)}, nil
}

// step takes one Adam step on z (the row of graph i, updated in place) with gradient grad.
func (za *zAdam) step(i int, z, grad []float64) error {
	k := za.k
	za.mi[0], za.vi[0] = za.m[i*k:(i+1)*k], za.v[i*k:(i+1)*k]
	if err := za.swap.Set(za.iter[i], za.mi, za.vi); err != nil {
		return err
	}
	value := za.p.value.Data().([]float64)
	copy(value, z)
	copy(za.p.gradData(), grad)
	if err := za.s.Step(za.vgs); err != nil {
		return err
	}
	it, err := za.swap.Get(za.mi, za.vi)
	if err != nil {
		return err
	}
	za.iter[i] = it
	copy(z, value)
	return nil
}

// snapshot is z_i's state as a solver's (the zero state when it was never stepped).
func (za *zAdam) snapshot(i int) AdamState {
	if za.iter[i] == 0 {
		return AdamState{}
	}
	k := za.k
	return AdamState{Iter: za.iter[i], M: [][]float64{append([]float64(nil), za.m[i*k:(i+1)*k]...)},
		V: [][]float64{append([]float64(nil), za.v[i*k:(i+1)*k]...)}}
}

// restore sets z_i's state from a snapshot.
func (za *zAdam) restore(i int, st AdamState) error {
	if err := st.Check([]int{za.k}); err != nil {
		return err
	}
	if st.Iter == 0 {
		za.iter[i] = 0
		return nil
	}
	k := za.k
	copy(za.m[i*k:(i+1)*k], st.M[0])
	copy(za.v[i*k:(i+1)*k], st.V[0])
	za.iter[i] = st.Iter
	return nil
}

// rows is the number of embeddings.
func (za *zAdam) rows() int { return len(za.iter) }
