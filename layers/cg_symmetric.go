package layers

// cgSymScratch is the scratch of CG's gradient and line search on symmetric structures.
type cgSymScratch struct {
	// base is the part of the gradient that does not depend on the plan, Cst + D
	// (fs_i + ft_j + D_ij), made once per problem.
	base []float64
	// The non-zero cells of the last OT basis.
	nzRows, nzCols []int32
	nzFlows        []float64
}

// setBase makes base for the problem st holds.
func (s *cgSymScratch) setBase(st *State) {
	nt := st.nt
	s.base = grow(s.base, st.ns*nt)
	for i := 0; i < st.ns; i++ {
		row := s.base[i*nt : (i+1)*nt]
		for j := range row {
			row[j] = st.fs[i] + st.ft[j]
		}
		if st.d != nil {
			for j, v := range st.d[i*nt : (i+1)*nt] {
				row[j] += v
			}
		}
	}
}

// basisCells are the cells of an OT basis with non-zero flow.
type basisCells struct {
	rows, cols []int32
	flows      []float64
}

// nonZeros returns the basis cells whose flow is not zero: about half of them on the
// degenerate bases of equal-mass nodes, so that the line search's double sum over them is
// a quarter as long and has no branch.
func (s *cgSymScratch) nonZeros(rows, cols []int32, flows []float64) basisCells {
	s.nzRows, s.nzCols, s.nzFlows = s.nzRows[:0], s.nzCols[:0], s.nzFlows[:0]
	for p, f := range flows {
		if f != 0 {
			s.nzRows = append(s.nzRows, rows[p])
			s.nzCols = append(s.nzCols, cols[p])
			s.nzFlows = append(s.nzFlows, f)
		}
	}
	return basisCells{s.nzRows, s.nzCols, s.nzFlows}
}
