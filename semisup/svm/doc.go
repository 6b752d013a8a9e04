// Package svm is a small kernel support vector machine for classifying graphs (or anything
// else) from a precomputed kernel matrix: K = exp(-γ·D) for a matrix D of pairwise
// Gromov-Wasserstein distances, which need not be positive semi-definite, or an RBF kernel on
// embedding vectors (ExpKernel, SquaredDistances).
//
// It is libsvm's C-SVC, as scikit-learn's SVC(kernel="precomputed", C=C) runs it, rewritten
// step for step so that it gives the same models:
//
//   - the dual is solved by SMO with second-order working-set selection (Fan, Chen and Lin,
//     JMLR 6, 2005, "WSS3"), stopping tolerance ε = 1e-3, and libsvm's shrinking heuristic;
//   - where the kernel gives a pair of items no positive curvature (an indefinite K), the
//     curvature is replaced by τ = 1e-12, libsvm's safeguard, so the step stays a descent step
//     and the solver terminates (Chen, Fan and Lin, 2006);
//   - the solver keeps kernel entries in float32, as libsvm's Qfloat does, and the diagonal
//     in float64; the bias is libsvm's ρ: the mean of yᵢ∇ᵢ over free support vectors, else the
//     midpoint of the bounds;
//   - k classes give k(k-1)/2 binary machines, one per pair (A, B), A < B, each trained on
//     that pair's items only (class A's items, then class B's, each in training order, as
//     libsvm groups them); a new item gets a vote from every machine (class A where the
//     decision value is > 0, else class B) and the class with most votes wins, ties going to
//     the lowest class index, as in libsvm.
//
// The iteration cap is upstream libsvm's, max(10⁷, 100·n) per machine; a machine that reaches
// it keeps its current (feasible, not quite optimal) solution instead of running on.
// (scikit-learn sets no cap; Fit does not report reaching it.)
//
// Memory: a machine holds its pair's kernel as an l×l float32 matrix (l = the two classes'
// items: 64 MiB for l = 4000) instead of libsvm's row cache, and up to GOMAXPROCS machines
// train at once.
//
// A class with no training item cannot be learned: Fit skips the machines that involve it,
// so such a class never gets a vote and is never predicted. At least two classes must be
// present.
//
// Why a hand-written package: no maintained pure-Go SVM library takes a precomputed kernel
// (the Go ports of libsvm are unmaintained), and the GW kernel's indefiniteness rules out
// anything that assumes a positive semi-definite kernel. The testdata holds scikit-learn's
// models for reference cases (testdata/make_fixtures.py); the tests check that predictions,
// support sets, coefficients and decision values agree.
//
// StratifiedFolds and CrossValAccuracy score a C (and a kernel) by stratified k-fold
// cross-validation on the training kernel, for a grid search by the caller.
package svm
