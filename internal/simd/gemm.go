package simd

// MulAdd computes C += alpha·A·B for the row-major m×k matrix A (row stride lda), k×n matrix B
// (stride ldb) and m×n matrix C (stride ldc). It panics if a slice is too short for its shape
// (a programmer error).
func MulAdd(m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	if m == 0 || n == 0 || k == 0 {
		return
	}
	if lda < k || ldb < n || ldc < n || len(a) < (m-1)*lda+k || len(b) < (k-1)*ldb+n || len(c) < (m-1)*ldc+n {
		panic("simd: matrix slice too short for its shape")
	}
	if useAsm {
		mulAddAsm(m, n, k, alpha, a, lda, b, ldb, c, ldc)
		return
	}
	mulAddGo(m, n, k, alpha, a, lda, b, ldb, c, ldc)
}

// Mul computes C = A·B (see MulAdd).
func Mul(m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	for i := 0; i < m; i++ {
		clear(c[i*ldc : i*ldc+n])
	}
	MulAdd(m, n, k, 1, a, lda, b, ldb, c, ldc)
}

// Transpose writes the c×r transpose of the row-major r×c matrix x into dst, scaled by alpha.
func Transpose(dst []float64, alpha float64, x []float64, r, c int) {
	for i := 0; i < r; i++ {
		for j, v := range x[i*c : (i+1)*c] {
			dst[j*r+i] = alpha * v
		}
	}
}

// mulAddGo is the portable kernel: row i of C gets alpha·Σ_p A_ip·(row p of B).
func mulAddGo(m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	for i := 0; i < m; i++ {
		cr := c[i*ldc : i*ldc+n]
		for p, av := range a[i*lda : i*lda+k] {
			if av == 0 {
				continue
			}
			av *= alpha
			for j, bv := range b[p*ldb : p*ldb+n] {
				cr[j] += av * bv
			}
		}
	}
}

// Kernels names the implementation in use: "avx2+fma" (assembly) or "go".
func Kernels() string {
	if useAsm {
		return "avx2+fma"
	}
	return "go"
}
