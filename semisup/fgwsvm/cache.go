package fgwsvm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/sbinet/npyio/npy"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/training"
)

// matrixFile is where candidate c's matrix of data is kept in dir: a name that says what it
// holds and a hash of everything it depends on (the graphs, the candidate, the solver), so that
// other data or settings never reuse it.
func matrixFile(dir string, data []*graphs.Graph, c Candidate, solver training.Config) string {
	key, _ := json.Marshal(struct {
		Data      string          `json:"data"`
		Candidate Candidate       `json:"candidate"`
		Solver    training.Config `json:"solver"`
	}{training.Fingerprint(data), c, c.config(solver)})
	sum := sha256.Sum256(key)
	wl := ""
	if c.WL > 0 {
		wl = fmt.Sprintf("-wl%d", c.WL)
	}
	return filepath.Join(dir, fmt.Sprintf("fgw-%s%s-w%.4g-%d-graphs-%s.npy", c.Structure, wl, c.FeatureWeight, len(data), hex.EncodeToString(sum[:6])))
}

// loadMatrix reads a matrix kept by saveMatrix, if the file exists and holds a finite,
// symmetric n×n matrix with a zero diagonal; ok is false otherwise (it is then computed anew).
func loadMatrix(path string, n int) (d *mat.SymDense, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() > int64(n)*int64(n)*8+4096 { // checked before anything is allocated
		return nil, false
	}
	var m mat.Dense
	if err := npy.Read(io.LimitReader(f, st.Size()), &m); err != nil {
		return nil, false
	}
	if r, c := m.Dims(); r != n || c != n {
		return nil, false
	}
	for i := range n {
		if m.At(i, i) != 0 {
			return nil, false
		}
		for j := i + 1; j < n; j++ {
			v := m.At(i, j)
			if v != m.At(j, i) || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, false
			}
		}
	}
	return mat.NewSymDense(n, m.RawMatrix().Data), true
}

// saveMatrix writes d as a NumPy array (n×n float64), atomically.
func saveMatrix(path string, d *mat.SymDense) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	full := mat.DenseCopyOf(d)
	return atomicfile.Write(path, func(w io.Writer) error { return npy.Write(w, full) })
}
