package emd

// Potentials writes the dual potentials of the last Solve's optimal basis into u (ns entries,
// the source's) and v (nt, the target's): u_i + v_j = c_ij on every basic cell and
// c_ij − u_i − v_j ≥ 0 on every cell, so v is the derivative of the optimal cost in the target
// marginal b (up to a constant, the marginals' masses being equal). On a degenerate problem the
// potentials are one of several optimal dual solutions: the one the final basis determines.
func (w *Workspace) Potentials(u, v []float64) {
	copy(u, w.pot[:w.ns])
	copy(v, w.pot[w.ns:w.ns+w.nt])
}
