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

// Swap swaps the states of many parameters through one solver: Set puts a parameter's state in,
// the solver steps it, Get takes the new state out. Gorgonia keeps moments per position, so this
// gives each parameter its own step count and moments, as a solver of its own would, without
// a solver and its tensors per parameter.
type Swap struct {
	iter, cache reflect.Value // the solver's fields, looked up once
}

// NewSwap returns a Swap over s.
func NewSwap(s *gorgonia.AdamSolver) (*Swap, error) {
	iter, cache, err := fields(s)
	if err != nil {
		return nil, err
	}
	return &Swap{iter: iter, cache: cache}, nil
}

// Set replaces the solver's state by a step count and, per parameter, the moments m[i] and
// v[i] (iter 0: the state of a solver never stepped, whose next step starts from zero
// moments). It copies the moments into the solver's own buffers where it has buffers of the
// right sizes, so that swapping allocates nothing once the solver has stepped. The moments it
// has to create are vectors: for parameters that are vectors, or for a solver already stepped
// with parameters of the same shapes.
func (w *Swap) Set(iter int, m, v [][]float64) error {
	if iter == 0 {
		w.iter.SetInt(0)
		w.cache.SetZero()
		return nil
	}
	if iter < 0 || len(m) != len(v) || len(m) == 0 {
		return fmt.Errorf("adam state: step %d with %d/%d moments", iter, len(m), len(v))
	}
	if w.cache.Len() != len(m) {
		w.cache.Set(reflect.MakeSlice(w.cache.Type(), len(m), len(m)))
	}
	for i := range m {
		if len(m[i]) != len(v[i]) {
			return fmt.Errorf("adam state: parameter %d: %d/%d moments", i, len(m[i]), len(v[i]))
		}
		cm, cv, err := moments(w.cache, i)
		if err != nil {
			return err
		}
		if cm == nil || cm.Shape().TotalSize() != len(m[i]) || cv.Shape().TotalSize() != len(v[i]) {
			if cm, cv, err = newMoments(w.cache, i, len(m[i])); err != nil {
				return err
			}
		}
		copy(cm.Data().([]float64), m[i])
		copy(cv.Data().([]float64), v[i])
	}
	w.iter.SetInt(int64(iter))
	return nil
}

// Get copies the solver's moments into m[i] and v[i] (sized as the parameters) and returns its
// step count; a solver never stepped gives 0 and leaves m and v as they are.
func (w *Swap) Get(m, v [][]float64) (iter int, err error) {
	if w.iter.Int() == 0 {
		return 0, nil
	}
	if w.cache.Len() != len(m) || len(v) != len(m) {
		return 0, fmt.Errorf("adam state: the solver has %d parameters, %d/%d buffers given", w.cache.Len(), len(m), len(v))
	}
	for i := range m {
		cm, cv, err := moments(w.cache, i)
		if err != nil {
			return 0, err
		}
		if cm == nil || cm.Shape().TotalSize() != len(m[i]) || cv.Shape().TotalSize() != len(v[i]) {
			return 0, fmt.Errorf("adam state: parameter %d has no moments of %d values", i, len(m[i]))
		}
		copy(m[i], cm.Data().([]float64))
		copy(v[i], cv.Data().([]float64))
	}
	return int(w.iter.Int()), nil
}

// newMoments puts zeroed means and variances of n values into cache entry i (a new dualValue)
// and returns them.
func newMoments(cache reflect.Value, i, n int) (m, v *tensor.Dense, err error) {
	ptr := cache.Type().Elem() // *dualValue
	if ptr.Kind() != reflect.Pointer || ptr.Elem().Kind() != reflect.Struct {
		return nil, nil, fmt.Errorf("adam state: unexpected gorgonia cache layout")
	}
	dv := reflect.New(ptr.Elem())
	val, d := dv.Elem().FieldByName("Value"), dv.Elem().FieldByName("d")
	if !val.IsValid() || !d.IsValid() {
		return nil, nil, fmt.Errorf("adam state: unexpected gorgonia dualValue layout")
	}
	m = tensor.New(tensor.WithShape(n), tensor.WithBacking(make([]float64, n)))
	v = tensor.New(tensor.WithShape(n), tensor.WithBacking(make([]float64, n)))
	mv, vv := reflect.ValueOf(m), reflect.ValueOf(v)
	if !mv.Type().AssignableTo(val.Type()) || !vv.Type().AssignableTo(d.Type()) {
		return nil, nil, fmt.Errorf("adam state: unexpected gorgonia dualValue field types")
	}
	exposed(val).Set(mv)
	exposed(d).Set(vv)
	cache.Index(i).Set(dv)
	return m, v, nil
}
