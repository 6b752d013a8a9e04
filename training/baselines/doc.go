// Package baselines implements the two GW-based clustering baselines of the paper's Table 1,
// for comparison with GWF on the same data:
//
//   - FGWK (Vayer et al. 2019 as used in the paper): the (fused) GW discrepancy of every pair of
//     graphs, the kernel exp(−d/β) and spectral clustering. It needs I(I−1)/2 GWDs.
//   - GWB-KM: K-means over graphs with GW barycenters as centers: random initial centers from
//     the data, assignment by GW discrepancy, each center recomputed as the GW barycenter of its
//     members. It needs about k·I GWDs per iteration, plus the barycenters.
//
// Both spread their GWDs over the cores (layers/pairwise, which computes FGWK's matrix and
// reads and writes it, sharded runs included), report progress, stop with their context, and
// give the same result for a given seed whatever the number of workers. Both take their GWD
// module from a training.Config, as GWF does.
package baselines
