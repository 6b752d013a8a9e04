// Package meanstd summarises a score over seeds or folds as "mean ± std": the one place
// where the module computes and prints it (training/experiment, semisup/crossval, and
// training/cluster's MeanStd and FormatMeanStd for programs and notebooks).
package meanstd
