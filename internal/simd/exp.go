package simd

import "math"

// ExpScaled writes dst[j] = exp((shift − c[j])·scale)·t[j] for j < len(dst): the PPA kernel
// row Φ = exp(−(L − s)/γ) ⊙ T. An exponent below −708 gives 0, one above 709 gives +Inf, NaN
// stays NaN, and a subnormal result is flushed to 0 (the solvers treat sums below 1e-200 as
// underflow anyway, and subnormals would slow every later product). The assembly's error is
// below 2 ulp of math.Exp.
func ExpScaled(dst, c, t []float64, shift, scale float64) {
	n := len(dst)
	if len(c) < n || len(t) < n {
		panic("simd: ExpScaled: short input")
	}
	if n == 0 {
		return
	}
	if useAsm {
		expScaledAsm(n, &dst[0], &c[0], &t[0], shift, scale, &expConsts[0][0], tailMask(n))
		return
	}
	expScaledGo(dst, c, t, shift, scale)
}

func expScaledGo(dst, c, t []float64, shift, scale float64) {
	for j := range dst {
		dst[j] = flush(expClamped((shift-c[j])*scale) * t[j])
	}
}

// flush maps subnormal x to 0.
func flush(x float64) float64 {
	if math.Abs(x) < minNormal {
		return 0
	}
	return x
}

// ExpAdd writes dst[j] = exp(a + x[j] + y[j]) for j < len(dst), with y = nil read as zeros:
// the log-domain Sinkhorn updates. Exponents are treated as in ExpScaled.
func ExpAdd(dst []float64, a float64, x, y []float64) {
	n := len(dst)
	if len(x) < n || (y != nil && len(y) < n) {
		panic("simd: ExpAdd: short input")
	}
	if n == 0 {
		return
	}
	if useAsm {
		var yp *float64
		if y != nil {
			yp = &y[0]
		}
		expAddAsm(n, &dst[0], &x[0], yp, a, &expConsts[0][0], tailMask(n))
		return
	}
	expAddGo(dst, a, x, y)
}

func expAddGo(dst []float64, a float64, x, y []float64) {
	for j := range dst {
		v := a + x[j]
		if y != nil {
			v += y[j]
		}
		dst[j] = expClamped(v)
	}
}

// expClamped is math.Exp with the kernel's treatment of very small exponents.
func expClamped(x float64) float64 {
	if x < expLo {
		return 0
	}
	return math.Exp(x)
}

const (
	expLo = -708.0
	expHi = 709.0
	// Adding 1.5·2⁵² rounds to an integer and leaves it in the low bits of the mantissa.
	expShift = 0x1.8p52
	// minNormal is the smallest normal float64: results below it are flushed to 0, because
	// arithmetic on subnormals is two orders of magnitude slower on x86 and they carry no
	// weight in a transport whose rows sum to 1/N.
	minNormal = 0x1p-1022
	// ln 2 split as in fdlibm: a high part with 32 trailing zero bits (k·hi is exact) and the rest.
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
)

// expConsts are the assembly's constants, each repeated on the four lanes of a YMM register.
var expConsts = func() (c [24][4]float64) {
	set := func(i int, v float64) {
		for l := range c[i] {
			c[i][l] = v
		}
	}
	set(0, math.Log2E)
	set(1, ln2Hi)
	set(2, ln2Lo)
	set(3, expHi)
	set(4, math.Inf(1))
	set(5, math.Float64frombits(1023)) // an int64 added to the exponent bits
	// Taylor coefficients 1/13!, 1/12!, …, 1/0! for e^r, |r| ≤ ln2/2 (error < 1e-17).
	f := 1.0
	for k := 1; k <= 13; k++ {
		f *= float64(k)
	}
	for k := 13; k >= 0; k-- {
		set(6+13-k, 1/f)
		if k > 0 {
			f /= float64(k)
		}
	}
	set(20, expLo)
	set(21, expShift)
	set(22, minNormal)
	set(23, math.Float64frombits(1<<63-1)) // clears the sign bit
	return c
}()
