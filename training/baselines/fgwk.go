package baselines

import (
	"context"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/pairwise"
	"github.com/gwf-graphs/gwf/training/cluster"
)

// FGWK clusters data into k groups: pairwise (F)GW discrepancies d, the kernel
// exp(−d/β) with β the median discrepancy (a scale set from the data, not the labels), and
// spectral clustering. It returns the cluster of every graph.
func FGWK(ctx context.Context, data []*graphs.Graph, k int, opt Options) ([]int, Stats, error) {
	if k < 1 || k > len(data) {
		return nil, Stats{}, fmt.Errorf("fgwk: %d clusters for %d graphs", k, len(data))
	}
	d, st, err := pairwise.Matrix(ctx, data, opt.pairwise())
	if err != nil {
		return nil, st, fmt.Errorf("fgwk: %w", err)
	}
	assign, err := SpectralClustering(Kernel(d), k, opt.Seed)
	if err != nil {
		return nil, st, fmt.Errorf("fgwk: %w", err)
	}
	return assign, st, nil
}

// Kernel returns exp(−d_ij/β) with β the median off-diagonal entry of d (1 if that is 0).
// Negative discrepancies (rounding of the solver) count as 0.
func Kernel(d *mat.SymDense) *mat.SymDense {
	n := d.SymmetricDim()
	var off []float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			off = append(off, math.Max(d.At(i, j), 0))
		}
	}
	sort.Float64s(off)
	beta := 1.0
	if len(off) > 0 && off[len(off)/2] > 0 {
		beta = off[len(off)/2]
	}
	k := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			k.SetSym(i, j, math.Exp(-math.Max(d.At(i, j), 0)/beta))
		}
	}
	return k
}

// SpectralClustering (Ng, Jordan and Weiss 2001) of a non-negative affinity matrix: the k
// leading eigenvectors of D^(−1/2)·A·D^(−1/2), rows normalised to unit length, clustered by
// K-means (seeded).
func SpectralClustering(a *mat.SymDense, k int, seed uint64) ([]int, error) {
	n := a.SymmetricDim()
	if k < 1 || k > n {
		return nil, fmt.Errorf("spectral clustering: %d clusters for %d points", k, n)
	}
	deg := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			deg[i] += a.At(i, j)
		}
		if !(deg[i] > 0) {
			return nil, fmt.Errorf("spectral clustering: point %d has no affinity to any point", i)
		}
	}
	norm := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			norm.SetSym(i, j, a.At(i, j)/math.Sqrt(deg[i]*deg[j]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(norm, true) {
		return nil, fmt.Errorf("spectral clustering: eigendecomposition failed")
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	// Eigenvalues come in ascending order: the k leading ones are the last k columns.
	rows := make([][]float64, n)
	for i := range rows {
		row := make([]float64, k)
		s := 0.0
		for c := 0; c < k; c++ {
			row[c] = vecs.At(i, n-1-c)
			s += row[c] * row[c]
		}
		if s > 0 {
			for c := range row {
				row[c] /= math.Sqrt(s)
			}
		}
		rows[i] = row
	}
	res, err := cluster.KMeans(rows, cluster.KMeansOptions{K: k, Seed: seed})
	if err != nil {
		return nil, fmt.Errorf("spectral clustering: %w", err)
	}
	return res.Assign, nil
}
