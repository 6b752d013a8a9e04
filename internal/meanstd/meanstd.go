package meanstd

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
)

// Of returns the mean and the sample standard deviation (n−1 denominator) of xs, for
// reporting a score as "mean ± std" over seeds. The std of a single value is 0; both are NaN
// for an empty slice.
func Of(xs []float64) (mean, std float64) {
	switch len(xs) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		// stat.MeanStdDev would divide 0 by n−1 = 0.
		return xs[0], 0
	}
	return stat.MeanStdDev(xs, nil)
}

// Format formats Of(xs) scaled by scale (100 for percent) with one decimal, as
// "99.5 ± 0.4". Values that round to zero print as "0.0", never "-0.0".
func Format(xs []float64, scale float64) string {
	mean, std := Of(xs)
	return oneDecimal(mean*scale) + " ± " + oneDecimal(std*scale)
}

func oneDecimal(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	if s == "-0.0" {
		return "0.0"
	}
	return s
}
