//go:build !amd64

package simd

const useAsm = false

func mulAddAsm(m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	mulAddGo(m, n, k, alpha, a, lda, b, ldb, c, ldc)
}

func mulVecAsm(m, n int, a []float64, lda int, x, y []float64) { panic("unreachable") }

func expScaledAsm(n int, dst, c, t *float64, shift, scale float64, consts *float64, mask *int64) {
	panic("unreachable")
}

func tailMask(n int) *int64 { return nil }

func costRowAsm(n int, row *float64, fi float64, ft, d *float64, mask *int64) float64 {
	panic("unreachable")
}

func mulScaledAsm(n int, dst *float64, a float64, x, y *float64, mask *int64, consts *float64) {
	panic("unreachable")
}

func expAddAsm(n int, dst, x, y *float64, a float64, consts *float64, mask *int64) {
	panic("unreachable")
}

func maxAddAsm(n int, x, y *float64, _ float64, mask *int64) float64 { panic("unreachable") }

func maxIntoAsm(n int, mx *float64, a float64, x *float64, mask *int64) { panic("unreachable") }
