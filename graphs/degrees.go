package graphs

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// DegreeBins is the width of one-hot degree features (FeaturesDegrees): degrees 0 to
// DegreeBins−2 have a column each, and the last column holds every larger degree.
const DegreeBins = 16

// OneHotDegrees writes the one-hot degree features of the graph of adjacency a into dst
// (a.N()×DegreeBins, row-major; zeroed first): a node's degree is the number of other nodes
// its row of a reaches (self-loops do not count), so that social networks and other graphs
// without node features can be compared by who is a hub, as the WL kernels label them.
func OneHotDegrees(a *csr.Matrix, dst []float64) {
	clear(dst)
	for i := range a.N() {
		deg := 0
		cols, _ := a.Row(i)
		for _, j := range cols {
			if int(j) != i {
				deg++
			}
		}
		dst[i*DegreeBins+min(deg, DegreeBins-1)] = 1
	}
}

// SetDegreeFeatures gives every graph its one-hot degrees as node features (F, N×DegreeBins),
// replacing any it had; a graph without nodes keeps none.
func SetDegreeFeatures(gs []*Graph) {
	for _, g := range gs {
		if g.N() == 0 {
			g.F = nil
			continue
		}
		x := make([]float64, g.N()*DegreeBins)
		OneHotDegrees(g.A, x)
		g.F = mat.NewDense(g.N(), DegreeBins, x)
	}
}

// withDegrees gives the graphs of a dataset read without features their one-hot degrees, and
// says so in its encoding; the graphs with their degrees must fit lim.MaxDenseBytes, checked
// before the degrees are made.
func withDegrees(ds *Dataset, lim Limits) error {
	var total int64
	for _, g := range ds.Graphs {
		total += g.Bytes() + 8*int64(g.N())*DegreeBins
	}
	if total > lim.MaxDenseBytes {
		return fmt.Errorf("the graphs with one-hot degrees need %s, over the limit of %s (raise Limits.MaxDenseBytes, or --max-memory on the command line)",
			tuBytes(total), tuBytes(lim.MaxDenseBytes))
	}
	SetDegreeFeatures(ds.Graphs)
	ds.Encoding.Kind = FeaturesDegrees
	return nil
}
