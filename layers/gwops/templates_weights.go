package gwops

import (
	"math"

	"github.com/gwf-graphs/gwf/layers"
)

// remarginalized returns a coupling of p and q near t (a coupling of p and of t's own column
// sums): t + p·(q − tᵀ1)ᵀ has the right marginals, and mixing it with the product coupling
// p·qᵀ, as little as needed, makes it non-negative. A warm start for a template whose node
// weights have moved since t was found.
func remarginalized(t, p, q []float64) []float64 {
	m := len(q)
	old := make([]float64, m)
	for k, v := range t {
		old[k%m] += v
	}
	x := make([]float64, len(t))
	lambda := 0.0
	for i, pi := range p {
		for j, qj := range q {
			k := i*m + j
			x[k] = t[k] + pi*(qj-old[j])
			if x[k] < 0 {
				lambda = math.Max(lambda, -x[k]/(pi*qj-x[k]))
			}
		}
	}
	for i, pi := range p {
		for j, qj := range q {
			k := i*m + j
			x[k] = math.Max(0, (1-lambda)*x[k]+lambda*pi*qj)
		}
	}
	return x
}

// logitsGrad is Σ_b G[b][k]·μ̄ₖ ⊙ (v_bk − <μ̄ₖ, v_bk>): the chain rule through the softmax of
// the derivative v_bk of D[b][k] in the node weights, which is defined up to a constant that
// this form cancels.
func (op *templatesOp) logitsGrad(k int, g []float64) []float64 {
	K := op.k()
	out := make([]float64, op.sizes[k])
	scaled := make([]float64, op.sizes[k])
	for b := range op.obs {
		gb := g[b*K+k]
		if gb == 0 {
			continue
		}
		for j, x := range op.potentials[b*K+k] {
			scaled[j] = gb * x
		}
		layers.SoftmaxBackward(out, op.mus[k], scaled)
	}
	return out
}
