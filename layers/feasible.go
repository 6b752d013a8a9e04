package layers

import (
	"context"
	"math"
)

// MarginalError returns max(max_i |Σ_j T_ij − μs_i|, max_j |Σ_i T_ij − μt_j|) for the current
// transport: 0 for a feasible transport. PPA's and BADMM's rows are exact after every layer;
// at the paper's settings their columns are not (see "GW solvers against POT" in docs/results.md).
func (st *State) MarginalError() float64 {
	ns, nt := st.ns, st.nt
	cols := st.colv
	clear(cols)
	worst := 0.0
	for i := 0; i < ns; i++ {
		r := 0.0
		for j, v := range st.t[i*nt : (i+1)*nt] {
			r += v
			cols[j] += v
		}
		worst = math.Max(worst, math.Abs(r-st.mus[i]))
	}
	for j, c := range cols {
		worst = math.Max(worst, math.Abs(c-st.mut[j]))
	}
	return worst
}

// Round projects the current transport onto Π(μs, μt) (Altschuler, Weed and Rigollet,
// "Near-linear time approximation algorithms for optimal transport via Sinkhorn iteration",
// NeurIPS 2017, Algorithm 2): scale down the rows that carry too much mass, then the columns,
// and add the missing mass as the rank-one product of the row and column deficits. The result
// is feasible up to rounding and differs from T by at most twice its marginal error in ℓ1.
func (st *State) Round() {
	ns, nt := st.ns, st.nt
	t := st.t
	for i := 0; i < ns; i++ {
		row := t[i*nt : (i+1)*nt]
		r := 0.0
		for _, v := range row {
			r += v
		}
		if r > st.mus[i] {
			f := st.mus[i] / r
			for j := range row {
				row[j] *= f
			}
		}
	}
	cols := st.colv
	clear(cols)
	for i := 0; i < ns; i++ {
		for j, v := range t[i*nt : (i+1)*nt] {
			cols[j] += v
		}
	}
	errC := st.colw
	for j, c := range cols {
		f := 1.0
		if c > st.mut[j] {
			f = st.mut[j] / c
		}
		cols[j] = f
	}
	errR := st.rowv
	total := 0.0
	clear(errC)
	for i := 0; i < ns; i++ {
		row := t[i*nt : (i+1)*nt]
		r := 0.0
		for j, f := range cols {
			row[j] *= f
			r += row[j]
			errC[j] += row[j]
		}
		errR[i] = math.Max(0, st.mus[i]-r)
		total += errR[i]
	}
	for j, c := range errC {
		errC[j] = math.Max(0, st.mut[j]-c)
	}
	if total > 0 {
		for i, e := range errR {
			if e == 0 {
				continue
			}
			f := e / total
			row := t[i*nt : (i+1)*nt]
			for j, c := range errC {
				row[j] += f * c
			}
		}
	}
	// The rows' logarithms kept for the next layer no longer describe T.
	clear(st.logRow)
}

// project scales the rows and columns of T by Sinkhorn sweeps until its marginal error is at
// most tol or maxSweeps sweeps have run (0: DefaultMaxSweeps), recording a cap hit. Should a
// sum underflow (T with empty rows or columns), T is left as it was and the hit recorded.
// It returns ctx's error once ctx is done.
func (st *State) project(ctx context.Context, tol float64, maxSweeps int) error {
	if maxSweeps == 0 {
		maxSweeps = DefaultMaxSweeps
	}
	ns, nt := st.ns, st.nt
	k, a, b := st.phi, st.rowv, st.colv
	copy(k, st.t)
	for i := range a {
		a[i] = 1
	}
	for j := range b {
		b[j] = 1
	}
	ok, n, err := sinkhornTol(ctx, k, a, b, st.colw, st.mus, st.mut, maxSweeps, tol, true)
	if err != nil {
		return err
	}
	if !ok || n > maxSweeps {
		st.SweepCapHits++
	}
	st.Sweeps += min(n, maxSweeps)
	if !ok {
		return nil
	}
	for i := 0; i < ns; i++ {
		row := st.t[i*nt : (i+1)*nt]
		for j, v := range k[i*nt : (i+1)*nt] {
			row[j] = flushSubnormal(a[i] * v * b[j])
		}
	}
	clear(st.logRow)
	return nil
}
