package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMulVecMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, m := range []int{1, 3, 4, 5, 9, 17} {
		for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 13, 40} {
			lda := n + 1
			a, x := randSlice(r, m*lda), randSlice(r, n+1)
			y := randSlice(r, m+2)
			want := append([]float64(nil), y...)
			for i := 0; i < m; i++ {
				s := 0.0
				for j := 0; j < n; j++ {
					s += a[i*lda+j] * x[j]
				}
				want[i] = s
			}
			yGo := append([]float64(nil), y...)
			MulVec(m, n, a, lda, x[:n], y)
			mulVecGo(m, n, a, lda, x[:n], yGo)
			for i, w := range want {
				if math.Abs(y[i]-w) > 1e-12*(1+math.Abs(w)) || math.Abs(yGo[i]-w) > 1e-12*(1+math.Abs(w)) {
					t.Fatalf("m=%d n=%d: y[%d] = %v (Go %v), want %v", m, n, i, y[i], yGo[i], w)
				}
			}
		}
	}
}
