package simd

// MulVec computes y = A·x for the row-major m×n matrix A (row stride lda): y[i] is the dot
// product of row i with x. It panics if a slice is too short.
func MulVec(m, n int, a []float64, lda int, x, y []float64) {
	if m == 0 {
		return
	}
	if lda < n || len(a) < (m-1)*lda+n || len(x) < n || len(y) < m {
		panic("simd: MulVec: slice too short for its shape")
	}
	if n == 0 {
		clear(y[:m])
		return
	}
	if useAsm {
		mulVecAsm(m, n, a, lda, x, y)
		return
	}
	mulVecGo(m, n, a, lda, x, y)
}

func mulVecGo(m, n int, a []float64, lda int, x, y []float64) {
	for i := 0; i < m; i++ {
		s := 0.0
		for j, v := range a[i*lda : i*lda+n] {
			s += v * x[j]
		}
		y[i] = s
	}
}
