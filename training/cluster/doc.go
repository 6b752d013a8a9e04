// Package cluster clusters the graphs of a GWF model and scores the clusters: Model groups a
// trained model's embeddings (λ = softmax(z) by default, DefaultEmbedding) with K-means
// (k-means++ seeding, Lloyd iterations, best of several restarts), and Evaluate compares
// clusters with the true class labels using clustering accuracy, normalized mutual
// information, the adjusted Rand index and the Rand index. KMeans and the metrics work on any
// vectors and partitions.
//
// Everything is deterministic: KMeans draws from its own math/rand/v2 PCG generator seeded by
// KMeansOptions.Seed, so the same inputs and seed give identical results, and there is no
// package-level state. Labels passed to the metrics may be arbitrary ints (for example -1/1);
// only the partition they induce matters.
//
// MeanStd and FormatMeanStd summarise a score over several seeds as "mean ± std".
package cluster
