package layers

import "github.com/gwf-graphs/gwf/internal/simd"

// lowRank is a barycenter in the factored form GWB's update builds it from,
//
//	B = Σ_k λ_k·W_k·U_k·W_kᵀ,   W_k = diag(μb)⁻¹·T_k  (n×N_k),
//
// of rank at most r = Σ_k N_k. When r is small against n (small atoms, a large graph), B·X costs
// 4·r·n·m instead of the dense 2·n²·m: on REDDIT-BINARY's largest graphs (n ≈ 3800) with K = 30
// atoms of 20 nodes, a sixth. B itself is still built (the cost's row masses and CG's line
// search read it); only the products use the factors. They equal the dense ones up to rounding
// (the barycenter's entries below the smallest normal float64, flushed to zero in B, are not in
// the factors).
type lowRank struct {
	n      int
	offs   []int       // W_k is columns offs[k]:offs[k+1] of w
	w      []float64   // n×r, row-major
	wt     []float64   // r×n, Wᵀ
	u      [][]float64 // U_k, N_k×N_k row-major (the atoms' own data)
	uStr   []int       // their strides
	ut     []float64   // the U_kᵀ, one after the other (U_k need not be symmetric)
	lambda []float64
	block  int // the largest N_k: the products' scratch is block·m
}

// useLowRank says whether the factored products are cheaper: 4·r·n·m against 2·n²·m.
func useLowRank(n, r int) bool { return 2*r < n }

// set fills the factors from the transports of a GWB layer (n×N_k each), the atoms and λ.
func (l *lowRank) set(transports [][]float64, sizes []int, atoms []Atom, lambda, mu []float64) {
	n := len(mu)
	l.n = n
	l.offs = append(l.offs[:0], 0)
	for _, nk := range sizes {
		l.offs = append(l.offs, l.offs[len(l.offs)-1]+nk)
	}
	r := l.offs[len(sizes)]
	l.w = grow(l.w, n*r)
	l.wt = grow(l.wt, r*n)
	for k, tk := range transports {
		nk, off := sizes[k], l.offs[k]
		for i := 0; i < n; i++ {
			inv := 1 / mu[i]
			for j, v := range tk[i*nk : (i+1)*nk] {
				l.w[i*r+off+j] = v * inv
				l.wt[(off+j)*n+i] = v * inv
			}
		}
	}
	l.u = l.u[:0]
	l.uStr = l.uStr[:0]
	sq := 0
	for _, nk := range sizes {
		sq += nk * nk
	}
	l.ut = grow(l.ut, sq)
	sq = 0
	for k, a := range atoms {
		g := a.U.RawMatrix()
		l.u = append(l.u, g.Data)
		l.uStr = append(l.uStr, g.Stride)
		nk := sizes[k]
		for i := 0; i < nk; i++ {
			for j, v := range g.Data[i*g.Stride : i*g.Stride+nk] {
				l.ut[sq+j*nk+i] = v
			}
		}
		sq += nk * nk
	}
	l.lambda = append(l.lambda[:0], lambda...)
	l.block = 0
	for _, nk := range sizes {
		l.block = max(l.block, nk)
	}
}

// rank is r = Σ_k N_k.
func (l *lowRank) rank() int { return l.offs[len(l.offs)-1] }

// mul writes dst = B·X (trans false) or Bᵀ·X (trans true) for X of n rows and m columns;
// a and b are scratch of at least max N_k · m entries each.
func (l *lowRank) mul(dst, x []float64, m int, trans bool, a, b []float64) {
	n, r := l.n, l.rank()
	clear(dst[:n*m])
	sq := 0
	for k := range l.u {
		nk, off := l.offs[k+1]-l.offs[k], l.offs[k]
		ak, bk := a[:nk*m], b[:nk*m]
		simd.Mul(nk, m, n, l.wt[off*n:], n, x, m, ak, m) // W_kᵀ·X
		if trans {
			simd.Mul(nk, m, nk, l.ut[sq:], nk, ak, m, bk, m) // U_kᵀ·(W_kᵀ·X)
		} else {
			simd.Mul(nk, m, nk, l.u[k], l.uStr[k], ak, m, bk, m) // U_k·(W_kᵀ·X)
		}
		simd.MulAdd(n, m, nk, l.lambda[k], l.w[off:], r, bk, m, dst, m) // += λ_k·W_k·(…)
		sq += nk * nk
	}
}
