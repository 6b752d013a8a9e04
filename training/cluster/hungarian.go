package cluster

import "math"

// minCostAssignment solves the rectangular linear assignment problem with the Hungarian
// algorithm (shortest augmenting paths with potentials, O(r²c) for r ≤ c). It returns, for
// each row of cost, the column matched to it, or -1 for rows left over when there are more
// rows than columns; the min(rows, columns) matched pairs have the smallest total cost.
//
// cost must be rectangular with finite entries; callers in this package guarantee that.
func minCostAssignment(cost [][]float64) []int {
	r := len(cost)
	if r == 0 {
		return []int{}
	}
	c := len(cost[0])
	if c == 0 {
		return filled(r, -1)
	}
	if r <= c {
		return hungarian(cost)
	}
	// The algorithm needs rows ≤ columns; solve the transpose and invert the matching.
	t := make([][]float64, c)
	for j := range t {
		t[j] = make([]float64, r)
		for i := range cost {
			t[j][i] = cost[i][j]
		}
	}
	colToRow := hungarian(t)
	rowToCol := filled(r, -1)
	for j, i := range colToRow {
		rowToCol[i] = j
	}
	return rowToCol
}

// hungarian is the classic potentials formulation for n ≤ m; indices are 1-based internally,
// with row 0 / column 0 as the virtual start of each augmenting path.
func hungarian(a [][]float64) []int {
	n, m := len(a), len(a[0])
	u := make([]float64, n+1)
	v := make([]float64, m+1)
	p := make([]int, m+1)   // p[j]: row matched to column j (0 = free).
	way := make([]int, m+1) // way[j]: previous column on the augmenting path.
	minv := make([]float64, m+1)
	used := make([]bool, m+1)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0 := p[j0]
			delta := math.Inf(1)
			j1 := 0
			for j := 1; j <= m; j++ {
				if used[j] {
					continue
				}
				if cur := a[i0-1][j-1] - u[i0] - v[j]; cur < minv[j] {
					minv[j] = cur
					way[j] = j0
				}
				if minv[j] < delta {
					delta = minv[j]
					j1 = j
				}
			}
			for j := 0; j <= m; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		// Augment along the path back to the virtual column 0.
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	rowToCol := filled(n, -1)
	for j := 1; j <= m; j++ {
		if p[j] != 0 {
			rowToCol[p[j]-1] = j - 1
		}
	}
	return rowToCol
}

func filled(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}
