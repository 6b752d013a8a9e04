// Package adamstate saves and restores the state of Gorgonia's Adam optimizer, which Gorgonia
// does not export, so that a checkpointed training run resumes exactly.
//
// gorgonia.AdamSolver (v0.9.18, the pinned version) keeps its step count and moments in the
// unexported fields iter and cache (a slice of *dualValue{Value: means, d: variances}, one per
// parameter in the order the solver is stepped with). This package reaches them by reflection
// and unsafe — the only non-test use of unsafe in the module, kept here behind a small API —
// and TestLayoutGuard fails if Gorgonia's layout ever changes.
package adamstate

import (
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// State is a snapshot of one Adam solver: its step count and, per parameter in the order the
// solver is stepped with, the first and second moment estimates.
type State struct {
	Iter int         `json:"iter"`
	M    [][]float64 `json:"m"`
	V    [][]float64 `json:"v"`
}

// Check verifies a snapshot against the sizes of the parameters it is for: the zero state, or
// one moment pair per parameter of the right length with finite means and finite non-negative
// variances.
func (st State) Check(sizes []int) error {
	if st.Iter == 0 && st.M == nil && st.V == nil {
		return nil
	}
	if st.Iter <= 0 || len(st.M) != len(sizes) || len(st.V) != len(sizes) {
		return fmt.Errorf("step %d with %d/%d moments for %d parameters", st.Iter, len(st.M), len(st.V), len(sizes))
	}
	for i, n := range sizes {
		if len(st.M[i]) != n || len(st.V[i]) != n {
			return fmt.Errorf("parameter %d: %d/%d moments for %d values", i, len(st.M[i]), len(st.V[i]), n)
		}
		for j := range n {
			if math.IsNaN(st.M[i][j]) || math.IsInf(st.M[i][j], 0) || !(st.V[i][j] >= 0) || math.IsInf(st.V[i][j], 0) {
				return fmt.Errorf("parameter %d: moment %d is not finite or negative", i, j)
			}
		}
	}
	return nil
}

// fields returns the solver's step count and moment cache, made settable.
func fields(s *gorgonia.AdamSolver) (iter, cache reflect.Value, err error) {
	rv := reflect.ValueOf(s).Elem()
	iter, cache = rv.FieldByName("iter"), rv.FieldByName("cache")
	if !iter.IsValid() || iter.Kind() != reflect.Int || !cache.IsValid() || cache.Kind() != reflect.Slice {
		return iter, cache, fmt.Errorf("adam state: unexpected gorgonia.AdamSolver layout")
	}
	return exposed(iter), exposed(cache), nil
}

// exposed makes an unexported (addressable) struct field readable and settable.
func exposed(f reflect.Value) reflect.Value {
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// moments returns the means and variances tensors of cache entry i (nil before the first step).
func moments(cache reflect.Value, i int) (m, v *tensor.Dense, err error) {
	dv := cache.Index(i)
	if dv.IsNil() {
		return nil, nil, nil
	}
	val, d := dv.Elem().FieldByName("Value"), dv.Elem().FieldByName("d")
	if !val.IsValid() || !d.IsValid() {
		return nil, nil, fmt.Errorf("adam state: unexpected gorgonia dualValue layout")
	}
	m, okM := exposed(val).Interface().(*tensor.Dense)
	v, okV := exposed(d).Interface().(*tensor.Dense)
	if !okM || !okV {
		return nil, nil, fmt.Errorf("adam state: moments are not dense tensors")
	}
	return m, v, nil
}

// Snapshot copies the solver's state; a nil solver (never stepped) has the zero state.
func Snapshot(s *gorgonia.AdamSolver) (State, error) {
	if s == nil {
		return State{}, nil
	}
	iter, cache, err := fields(s)
	if err != nil {
		return State{}, err
	}
	st := State{Iter: int(iter.Int())}
	for i := 0; i < cache.Len(); i++ {
		m, v, err := moments(cache, i)
		if err != nil {
			return State{}, err
		}
		if m == nil {
			return State{}, fmt.Errorf("adam state: parameter %d has no moments", i)
		}
		st.M = append(st.M, append([]float64(nil), m.Data().([]float64)...))
		st.V = append(st.V, append([]float64(nil), v.Data().([]float64)...))
	}
	return st, nil
}

// Restore returns a solver (learning rate lr) for params in the snapshot's state, or nil for
// the zero state. The moments are sized by one step with zero gradients — grads are the
// params' gradient buffers, cleared here — which leaves the parameters unchanged (a fresh
// Adam's update is then exactly 0), and then overwritten.
func Restore(st State, lr float64, params []gorgonia.ValueGrad, grads [][]float64) (*gorgonia.AdamSolver, error) {
	if st.Iter == 0 {
		return nil, nil
	}
	if len(st.M) != len(params) || len(st.V) != len(params) {
		return nil, fmt.Errorf("adam state: %d/%d moments for %d parameters", len(st.M), len(st.V), len(params))
	}
	for _, g := range grads {
		clear(g)
	}
	s := gorgonia.NewAdamSolver(gorgonia.WithLearnRate(lr))
	if err := s.Step(params); err != nil {
		return nil, fmt.Errorf("adam state: %w", err)
	}
	iter, cache, err := fields(s)
	if err != nil {
		return nil, err
	}
	iter.SetInt(int64(st.Iter))
	for i := range params {
		m, v, err := moments(cache, i)
		if err != nil {
			return nil, err
		}
		md, vd := m.Data().([]float64), v.Data().([]float64)
		if len(md) != len(st.M[i]) || len(vd) != len(st.V[i]) {
			return nil, fmt.Errorf("adam state: parameter %d has %d values, the snapshot %d/%d", i, len(md), len(st.M[i]), len(st.V[i]))
		}
		copy(md, st.M[i])
		copy(vd, st.V[i])
	}
	return s, nil
}
