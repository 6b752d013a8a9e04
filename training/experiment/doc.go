// Package experiment runs the paper's clustering experiment (Table 1) as a library: fit a GWF
// model per seed, cluster the graphs' embeddings with K-means and score the clusters against
// the class labels — or run one of the GW baselines (FGWK, GWB-KM) in its place — and report
// each run and the mean ± std over the runs.
//
// Run is what `gwf cluster` and the Table 1 notebook call. With Options.Dir set, every
// finished GWF run is saved as Dir/run<r>.json together with the data fingerprint and the
// settings it was computed from, with its embeddings and clusters in Dir/embeddings-run<r>.csv,
// and the report as Dir/report.json; a later Run with the same data and settings reuses the
// saved runs instead of training them again, so a killed multi-seed experiment continues where
// it stopped.
//
// Options.Trainer trains the runs' models another way than the paper's free embeddings: with
// semisup.EncoderTrainer, z_i is a graph encoder's output, trained by the GWF term (`gwf cluster
// --encoder gin`). This package does not depend on the encoder's package.
//
// Run r uses seed Config.Seed + r for training and for K-means, so results are deterministic
// for a seed and independent of the number of workers.
//
// Cluster does the same for a model already trained (no training: `gwf embed --clusters`),
// Embed gives the embeddings of any graphs under a model (the trained ones for its own graphs,
// transform mode for others), and Embeddings writes them, with the graphs' names, their labels
// as the data files write them and their clusters, as CSV or NumPy .npz/.npy.
package experiment
