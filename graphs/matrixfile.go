package graphs

import (
	"fmt"
	"math"

	"github.com/gwf-graphs/gwf/internal/matfile"
)

// readMatrixFile reads a graph from the adjacency matrix in a NumPy file (.npy, or the first
// array of an .npz: numpy.save(path, nx.to_numpy_array(g))): square, float64 or another
// numeric type, entries finite and non-negative; a directed graph where it is not symmetric.
// The graph is named after path. The shape is checked against lim before the matrix is read.
func readMatrixFile(path string, lim Limits) (*Graph, error) {
	lim = lim.OrDefault()
	// The largest n whose dense n×n matrix the limits allow.
	side := min(lim.MaxNodes, int(math.Sqrt(float64(lim.MaxDenseBytes)/8)))
	c, err := matfile.ReadFile(path, matfile.Limits{MaxRows: side, MaxCols: side})
	if err != nil {
		return nil, err
	}
	if r, k := c.Dims(); r != k {
		return nil, invalidf(path, "a %d×%d matrix: an adjacency matrix is square", r, k)
	}
	g, err := New(path, c, nil, nil)
	if err == nil {
		err = boundedValues(path, g, func(i, j int) string { return fmt.Sprintf("entry (%d, %d)", i, j) }, nil)
	}
	if err != nil {
		return nil, err
	}
	g.Name = path
	return g, nil
}
