package cluster

import "github.com/gwf-graphs/gwf/internal/meanstd"

// MeanStd returns the mean and the sample standard deviation (n−1 denominator) of xs, for
// reporting a score as "mean ± std" over seeds. The std of a single value is 0; both are NaN
// for an empty slice.
func MeanStd(xs []float64) (mean, std float64) { return meanstd.Of(xs) }

// FormatMeanStd formats MeanStd(xs) scaled by scale (100 for percent) with one decimal, as
// "99.5 ± 0.4". Values that round to zero print as "0.0", never "-0.0".
func FormatMeanStd(xs []float64, scale float64) string { return meanstd.Format(xs, scale) }
