package semisup

import (
	"math"

	"github.com/gwf-graphs/gwf/graphs"
)

// wlFeatures returns the node features x (n×d, row-major) of g followed by rounds rounds of
// continuous Weisfeiler-Lehman refinement (WWL's, Togninalli et al., NeurIPS 2019):
// x_t(v) = ½·(x_{t−1}(v) + the mean of x_{t−1} over v's neighbours, weighted by A), so that
// round t describes v's t-hop neighbourhood as WL labels do, without a hash. The n×d·(rounds+1)
// result puts the rounds side by side, each scaled by 1/√(rounds+1): a squared distance between
// two nodes is then the mean of the rounds' squared distances, of the same order as the raw
// features', and the feature weight keeps its meaning. With rounds 0 it returns x.
func wlFeatures(g *graphs.Graph, x []float64, d, rounds int) []float64 {
	if rounds == 0 {
		return x
	}
	n, width := g.N(), d*(rounds+1)
	out := make([]float64, n*width)
	prev, next := append([]float64(nil), x...), make([]float64, n*d)
	scale := 1 / math.Sqrt(float64(rounds+1))
	put := func(t int, v []float64) {
		for i := 0; i < n; i++ {
			dst := out[i*width+t*d : i*width+(t+1)*d]
			for c, y := range v[i*d : (i+1)*d] {
				dst[c] = scale * y
			}
		}
	}
	put(0, prev)
	for t := 1; t <= rounds; t++ {
		for i := 0; i < n; i++ {
			row := next[i*d : (i+1)*d]
			clear(row)
			cols, vals := g.A.Row(i)
			total := 0.0
			for q, j := range cols {
				if int(j) == i || vals[q] == 0 {
					continue
				}
				total += vals[q]
				for c, y := range prev[int(j)*d : (int(j)+1)*d] {
					row[c] += vals[q] * y
				}
			}
			own := prev[i*d : (i+1)*d]
			if !(total > 0) { // an isolated node keeps its features
				copy(row, own)
				continue
			}
			for c := range row {
				row[c] = 0.5 * (own[c] + row[c]/total)
			}
		}
		put(t, next)
		prev, next = next, prev
	}
	return out
}
