package layers

import "math"

// The solvers spend much of their time in exp (one per transport entry per layer), so they
// use expFast: a table-driven exp (2^(j/128) from a table, a degree-5 polynomial for the rest)
// with an error of at most about 2 ulp, several times faster than math.Exp. TestExpFast checks it
// against math.Exp over the whole range the solvers use.

const expTableBits = 7
const expTableSize = 1 << expTableBits

// expTable[j] = 2^(j/128); computed once, never written after.
var expTable = func() (t [expTableSize]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / expTableSize)
	}
	return t
}()

const (
	expInvLn2N = expTableSize / math.Ln2
	// ln2/128 as fdlibm's split of ln2 (a high part whose low 32 bits are zero, so k·hi is exact
	// for the |k| < 2^18 used here, and a correction) divided by 128, which is exact.
	expLn2NHi = 6.93147180369123816490e-01 / expTableSize
	expLn2NLo = 1.90821492927058770002e-10 / expTableSize
	// Adding 1.5·2^52 rounds to an integer and leaves it in the low bits of the mantissa.
	expShift = 0x1.8p52
)

// expFast returns e^x.
func expFast(x float64) float64 {
	// Outside [-708, 709] (and for NaN) the result is subnormal, zero, huge or special:
	// leave those to math.Exp.
	if x < -746 { // exp underflows to 0 below ≈ −745.13; such arguments are common in the
		return 0 // log-domain paths, where math.Exp would be the slow path
	}
	if !(x > -708 && x < 709) {
		return math.Exp(x)
	}
	kd := x*expInvLn2N + expShift
	ki := int64(math.Float64bits(kd)) - int64(math.Float64bits(expShift)) // same exponent: the mantissas differ by k
	k := kd - expShift
	r := (x - k*expLn2NHi) - k*expLn2NLo
	j := ki & (expTableSize - 1)
	e := (ki - j) >> expTableBits
	// e^r for |r| ≤ ln2/256: degree-5 Taylor polynomial, error < 1e-19.
	r2 := r * r
	p := 1 + r + r2*(0.5+r*(1.0/6)) + r2*r2*(1.0/24+r*(1.0/120))
	scale := math.Float64frombits(uint64(e+1023) << 52)
	return expTable[j] * p * scale
}
