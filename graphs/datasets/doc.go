// Package datasets bundles five TU Dortmund graph-classification benchmarks so that they load
// offline, with no download step: AIDS, PROTEINS and PROTEINS_full, IMDB-BINARY (the datasets of
// the GWF paper, Xu, AAAI 2020) and MUTAG (small, for tests and examples).
//
// The files are the original TU text files, byte for byte, each compressed with gzip; they are
// read with graphs.ReadTU, so Load takes the same graphs.TUOptions (node features, node
// distribution, size limits). The embedded data adds about 3 MB to a binary that imports this
// package.
//
// Provenance, checksums, format notes, verified statistics and the papers to cite are in
// tu/README.md next to this file (also readable at run time as FS() path "README.md"). In short:
// the files come from the TU zip archives bundled unchanged in the GitHub repository
// bknyaz/graph_nn (commit 72eaa1c6bd70a90fde772ad4a21049ccd6bc97a2); cite Morris et al.,
// "TUDataset: A collection of benchmark datasets for learning with graphs" (2020) and the
// original source of each dataset.
package datasets
