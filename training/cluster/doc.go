// Package cluster clusters vectors and scores the clusters: KMeans groups the rows of a
// matrix (k-means++ seeding, Lloyd iterations, best of several restarts), and Evaluate
// compares clusters with the true class labels using clustering accuracy, normalized mutual
// information, the adjusted Rand index and the Rand index. The paper's protocol clusters a
// trained model's λ = softmax(z) (training.EmbeddingLambda.Rows(m.Z); see
// training/experiment.DefaultEmbedding), but nothing here depends on the model: the package
// imports no other of the module's but internal/meanstd, and no autodiff.
//
// Everything is deterministic: KMeans draws from its own math/rand/v2 PCG generator seeded by
// KMeansOptions.Seed, so the same inputs and seed give identical results, and there is no
// package-level state. Labels passed to the metrics may be arbitrary ints (for example -1/1);
// only the partition they induce matters.
//
// MeanStd and FormatMeanStd summarise a score over several seeds as "mean ± std"
// (internal/meanstd's, for programs and notebooks).
package cluster
