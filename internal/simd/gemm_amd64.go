package simd

import "golang.org/x/sys/cpu"

// useAsm and use512 are fixed at start-up from the CPU's features (read-only afterwards).
var (
	useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	use512 = useAsm && cpu.X86.HasAVX512F
)

// masks[r] holds the lane masks for a block of r < 8 valid columns (r = 0 is unused).
var masks = func() (m [8][8]int64) {
	for r := 1; r < 8; r++ {
		for j := 0; j < r; j++ {
			m[r][j] = -1
		}
	}
	return m
}()

// kern4x8 adds alpha·A[0:4, 0:k]·B[0:k, 0:8] to C[0:4, 0:8]; strides in elements.
//
//go:noescape
func kern4x8(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, alpha float64)

// kern4x8m is kern4x8 for the columns whose mask lane is set (the others are neither read
// nor written).
//
//go:noescape
func kern4x8m(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, alpha float64, mask *int64)

// kern1x8 and kern1x8m are the same for one row of A and C.
//
//go:noescape
func kern1x8(k int, a *float64, b *float64, ldb int, c *float64, alpha float64)

//go:noescape
func kern1x8m(k int, a *float64, b *float64, ldb int, c *float64, alpha float64, mask *int64)

// kern8x8z adds alpha·A[0:8, 0:k]·B[0:k, 0:8] to C[0:8, 0:8] for the columns in the bit mask
// (AVX-512).
//
//go:noescape
func kern8x8z(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, alpha float64, mask uint64)

// Cache blocking of large products: for k above blockMinK and at least blockMinN columns of B,
// the sum over k runs in panels of blockK rows of B and, within them, blocks of blockN columns,
// so that a block of B (256 × 512 floats, 1 MiB) stays in cache while every row tile of A
// passes over it (docs/scale.md, "Large products", has the rates). Narrower products (an N × N
// matrix times an N × Nₖ transport) gain nothing or lose: C is re-read once per panel.
// Blocking changes the rounding (C gets the panels' partial sums one after the other), so it
// starts only where products are large (graphs of over 1024 nodes): smaller ones, those of the
// benchmark datasets among them, keep their results bit for bit.
const (
	blockMinK = 1024
	blockMinN = 512
	blockK    = 256
	blockN    = 512
)

// mulAddAsm is C += alpha·A·B, cache-blocked when k > blockMinK and n ≥ blockMinN.
func mulAddAsm(m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	if k <= blockMinK || n < blockMinN {
		mulAddTiles(m, n, k, alpha, a, lda, b, ldb, c, ldc)
		return
	}
	for j0 := 0; j0 < n; j0 += blockN {
		nb := min(blockN, n-j0)
		for p0 := 0; p0 < k; p0 += blockK {
			kb := min(blockK, k-p0)
			mulAddTiles(m, nb, kb, alpha, a[p0:], lda, b[p0*ldb+j0:], ldb, c[j0:], ldc)
		}
	}
}

// mulAddTiles tiles C into 8×8 blocks with AVX-512, or 4×8 blocks with AVX2 (the rows left over
// by 8×8 blocks too), with 1-row and masked-column blocks at the edges.
func mulAddTiles(m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	n8 := n &^ 7
	rest := n - n8
	i := 0
	if use512 {
		for ; i+8 <= m; i += 8 {
			ar := &a[i*lda]
			for j := 0; j < n8; j += 8 {
				kern8x8z(k, ar, lda, &b[j], ldb, &c[i*ldc+j], ldc, alpha, 0xff)
			}
			if rest > 0 {
				kern8x8z(k, ar, lda, &b[n8], ldb, &c[i*ldc+n8], ldc, alpha, 1<<rest-1)
			}
		}
	}
	for ; i+4 <= m; i += 4 {
		ar := &a[i*lda]
		for j := 0; j < n8; j += 8 {
			kern4x8(k, ar, lda, &b[j], ldb, &c[i*ldc+j], ldc, alpha)
		}
		if rest > 0 {
			kern4x8m(k, ar, lda, &b[n8], ldb, &c[i*ldc+n8], ldc, alpha, &masks[rest][0])
		}
	}
	for ; i < m; i++ {
		ar := &a[i*lda]
		for j := 0; j < n8; j += 8 {
			kern1x8(k, ar, &b[j], ldb, &c[i*ldc+j], alpha)
		}
		if rest > 0 {
			kern1x8m(k, ar, &b[n8], ldb, &c[i*ldc+n8], alpha, &masks[rest][0])
		}
	}
}

// masks4[r] masks the first r lanes of a 4-lane block (r = 0: none).
var masks4 = func() (m [4][4]int64) {
	for r := 1; r < 4; r++ {
		for j := 0; j < r; j++ {
			m[r][j] = -1
		}
	}
	return m
}()

// dot4 sets y[0:4] to the dot products of rows 0..3 of A (stride lda) with x[0:n]; mask masks
// the n%4 tail lanes.
//
//go:noescape
func dot4(n int, a *float64, lda int, x *float64, y *float64, mask *int64)

// dot1 returns the dot product of a[0:n] and x[0:n].
//
//go:noescape
func dot1(n int, a *float64, x *float64, mask *int64) float64

// tailMask is the lane mask of the last n%4 entries of a row of n.
func tailMask(n int) *int64 { return &masks4[n&3][0] }

func mulVecAsm(m, n int, a []float64, lda int, x, y []float64) {
	mask := tailMask(n)
	i := 0
	for ; i+4 <= m; i += 4 {
		dot4(n, &a[i*lda], lda, &x[0], &y[i], mask)
	}
	for ; i < m; i++ {
		y[i] = dot1(n, &a[i*lda], &x[0], mask)
	}
}

// expScaledAsm is ExpScaled on n ≥ 1 entries; consts points at expConsts, mask at the lane
// mask of the n%4 tail.
//
//go:noescape
func expScaledAsm(n int, dst, c, t *float64, shift, scale float64, consts *float64, mask *int64)

// costRowAsm is CostRow on n ≥ 1 entries; d may be nil.
//
//go:noescape
func costRowAsm(n int, row *float64, fi float64, ft, d *float64, mask *int64) float64

// mulScaledAsm is MulScaled on n ≥ 1 entries; consts points at expConsts.
//
//go:noescape
func mulScaledAsm(n int, dst *float64, a float64, x, y *float64, mask *int64, consts *float64)

// expAddAsm is ExpAdd on n ≥ 1 entries; y may be nil.
//
//go:noescape
func expAddAsm(n int, dst, x, y *float64, a float64, consts *float64, mask *int64)

// maxAddAsm is MaxAdd on n ≥ 1 entries (the third argument is unused, for alignment of the
// signature with the other row kernels).
//
//go:noescape
func maxAddAsm(n int, x, y *float64, _ float64, mask *int64) float64

// maxIntoAsm is MaxInto on n ≥ 1 entries.
//
//go:noescape
func maxIntoAsm(n int, mx *float64, a float64, x *float64, mask *int64)
