// Package pairwise computes matrices of (fused) GW discrepancies between graphs and reads
// and writes them: what a kernel, a nearest-neighbour rule or a clustering of graphs starts
// from.
//
// Matrix computes the symmetric matrix of a set (each pair once), Range a contiguous slice of
// its pairs in a fixed order (PairAt: a shard's, emitted in order so that a caller can keep
// them when the work stops), Cross the rectangular matrix between two sets. All spread the
// solves over the cores (Each), report counts to an observe.Observer, stop with their
// context, and give the same values whatever the number of workers. The solver is any of
// layers.NewSolver's, by its options.
//
// The matrices are written as numpy and pandas read them (WriteMatrix: .npy, .npz, .csv), a
// slice of pairs as a CSV list (CSVWriter, ReadCSV), and ReadFile reads back either.
//
// BalanceFeatures measures the two terms of the fused cost over all pairs of a dataset, and
// the feature weight that gives them the same mean.
//
// The package needs no autodiff: it imports graphs and layers only, so that a classifier on
// discrepancies (semisup/fgwsvm) does not depend on the trainer.
package pairwise
