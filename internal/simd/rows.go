package simd

import "math"

// CostRow finishes one row of the PPA cost L = Cst − 2·Cs·T·Ctᵀ + D in place: row[j] becomes
// fi + ft[j] − 2·row[j] (+ d[j] when d is not nil). It returns the row's minimum (NaN entries
// may be skipped; the solver checks the transport for NaN anyway).
func CostRow(row []float64, fi float64, ft, d []float64) float64 {
	n := len(row)
	if len(ft) < n || (d != nil && len(d) < n) {
		panic("simd: CostRow: short input")
	}
	if n == 0 {
		return math.Inf(1)
	}
	if useAsm {
		var dp *float64
		if d != nil {
			dp = &d[0]
		}
		return costRowAsm(n, &row[0], fi, &ft[0], dp, tailMask(n))
	}
	return costRowGo(row, fi, ft, d)
}

func costRowGo(row []float64, fi float64, ft, d []float64) float64 {
	mn := math.Inf(1)
	for j, v := range row {
		c := fi + ft[j] - 2*v
		if d != nil {
			c += d[j]
		}
		row[j] = c
		if c < mn {
			mn = c
		}
	}
	return mn
}

// MulScaled writes dst[j] = a·(x[j]·y[j]), flushing subnormal results to 0 (see ExpScaled).
func MulScaled(dst []float64, a float64, x, y []float64) {
	n := len(dst)
	if len(x) < n || len(y) < n {
		panic("simd: MulScaled: short input")
	}
	if n == 0 {
		return
	}
	if useAsm {
		mulScaledAsm(n, &dst[0], a, &x[0], &y[0], tailMask(n), &expConsts[0][0])
		return
	}
	mulScaledGo(dst, a, x, y)
}

func mulScaledGo(dst []float64, a float64, x, y []float64) {
	for j := range dst {
		dst[j] = flush(a * (x[j] * y[j]))
	}
}

// MaxAdd returns max_j (x[j] + y[j]) over j < len(x), or −Inf for none (NaN sums are skipped).
func MaxAdd(x, y []float64) float64 {
	n := len(x)
	if len(y) < n {
		panic("simd: MaxAdd: short input")
	}
	if n == 0 {
		return math.Inf(-1)
	}
	if useAsm {
		return maxAddAsm(n, &x[0], &y[0], 0, tailMask(n))
	}
	return maxAddGo(x, y, 0)
}

// MaxInto sets mx[j] = max(mx[j], a + x[j]) for j < len(mx) (NaN sums leave mx[j] as it is).
func MaxInto(mx []float64, a float64, x []float64) {
	n := len(mx)
	if len(x) < n {
		panic("simd: MaxInto: short input")
	}
	if n == 0 {
		return
	}
	if useAsm {
		maxIntoAsm(n, &mx[0], a, &x[0], tailMask(n))
		return
	}
	maxIntoGo(mx, a, x)
}

func maxAddGo(x, y []float64, _ float64) float64 {
	mx := math.Inf(-1)
	for j, v := range x {
		if s := v + y[j]; s > mx {
			mx = s
		}
	}
	return mx
}

func maxIntoGo(mx []float64, a float64, x []float64) {
	for j, v := range x[:len(mx)] {
		if s := a + v; s > mx[j] {
			mx[j] = s
		}
	}
}
