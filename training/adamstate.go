package training

import (
	"fmt"
	"reflect"
	"unsafe"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// AdamState is a snapshot of one Gorgonia Adam solver: its step count and, per parameter in
// the order the solver is stepped with, the first and second moment estimates. Checkpoints
// carry it so that a resumed run continues exactly as an uninterrupted one.
type AdamState struct {
	Iter int         `json:"iter"`
	M    [][]float64 `json:"m"`
	V    [][]float64 `json:"v"`
}

// Gorgonia's AdamSolver does not export its state (the unexported fields iter and cache, a
// slice of *dualValue{Value: means, d: variances} in gorgonia v0.9.18, the pinned version).
// adamFields reaches them by reflection; TestResumeIsExact fails if that layout ever changes.
func adamFields(s *gorgonia.AdamSolver) (iter, cache reflect.Value, err error) {
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

// SnapshotAdam copies the solver's state; a nil solver (never stepped) has the zero state.
func SnapshotAdam(s *gorgonia.AdamSolver) (AdamState, error) {
	if s == nil {
		return AdamState{}, nil
	}
	iter, cache, err := adamFields(s)
	if err != nil {
		return AdamState{}, err
	}
	st := AdamState{Iter: int(iter.Int())}
	for i := 0; i < cache.Len(); i++ {
		m, v, err := moments(cache, i)
		if err != nil {
			return AdamState{}, err
		}
		if m == nil {
			return AdamState{}, fmt.Errorf("adam state: parameter %d has no moments", i)
		}
		st.M = append(st.M, append([]float64(nil), m.Data().([]float64)...))
		st.V = append(st.V, append([]float64(nil), v.Data().([]float64)...))
	}
	return st, nil
}

// RestoreAdam returns a solver (learning rate lr) for params in the snapshot's state, or nil
// for the zero state. The moments are sized by one step with zero gradients, which leaves the
// parameters unchanged (a fresh Adam's update is then exactly 0), and then overwritten.
func RestoreAdam(st AdamState, lr float64, params []gorgonia.ValueGrad, grads [][]float64) (*gorgonia.AdamSolver, error) {
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
	iter, cache, err := adamFields(s)
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

// Check verifies a snapshot against the sizes of the parameters it is for.
func (st AdamState) Check(sizes []int) error { return checkAdam(st, sizes) }
