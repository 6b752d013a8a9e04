package layers

import (
	"context"
	"errors"
	"fmt"
)

// TargetPotentials writes into v (nt entries) the derivative of the discrepancy that CG last
// solved on st in the target's node weights, up to a constant: the envelope theorem on the
// Lagrangian of min over Π(μs, μt) of the (fused) GW objective h(T) gives ∂/∂μt = v, the target
// potentials of the linear problem whose cost is h's gradient at the final plan T,
//
//	∇h(T) = (Cs⊙Cs + (Cs⊙Cs)ᵀ)·p·1ᵀ + 1·((Ct⊙Ct + (Ct⊙Ct)ᵀ)·q)ᵀ − 2·(Cs·T·Ctᵀ + Csᵀ·T·Ct) + D,
//
// with p = T·1 and q = Tᵀ·1. CG's linearisation differs from it by terms constant on Π: its
// dual potentials are shifted by ((Ct⊙Ct)ᵀ·q)_j on the target side, added here. One more exact
// OT solve, warm-started from CG's last basis, gives the potentials at T itself. It is how TFGW
// learns its templates' node weights (Vincent-Cuaz et al., NeurIPS 2022). Only after a CG solve.
// The network simplex checks ctx as in Solve.
func TargetPotentials(ctx context.Context, st *State, v []float64) error {
	if !st.cg.solving || len(st.cg.x) != st.ns*st.nt || st.ns == 0 {
		return errors.New("target potentials: the state holds no CG solve")
	}
	if len(v) != st.nt {
		return fmt.Errorf("target potentials: %d entries for %d target nodes", len(v), st.nt)
	}
	var c CG
	if st.cg.sym {
		c.symmetricGradient(st)
	} else {
		c.gradient(st)
	}
	u := grow(st.rowShift, st.ns) // scratch: the source potentials are not needed
	if _, err := st.cg.emd.Solve(ctx, st.cg.x, st.cost, st.mus, st.mut); err != nil {
		return fmt.Errorf("target potentials: %w", err)
	}
	st.cg.emd.Potentials(u, v)
	ct := st.ct.g
	for j := range v {
		s := 0.0
		for l, q := range st.mut {
			x := ct.Data[l*ct.Stride+j]
			s += x * x * q
		}
		v[j] += s
	}
	return nil
}
