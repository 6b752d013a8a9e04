package fgwsvm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/pairwise"
)

// matrixFile is where candidate c's matrix of data is kept in dir: a name that says what it
// holds and a hash of everything it depends on (the graphs, the candidate, the solver), so that
// other data or settings never reuse it.
func matrixFile(dir string, data []*graphs.Graph, c Candidate, solver layers.SolverOptions) string {
	key, _ := json.Marshal(struct {
		Data      string     `json:"data"`
		Candidate Candidate  `json:"candidate"`
		Solver    solverFile `json:"solver"`
	}{graphs.Fingerprint(data), c, fileSolver(c.config(solver))})
	sum := sha256.Sum256(key)
	tag := ""
	switch {
	case c.Attributes > 0 && c.Part == "":
		tag = "-both"
	case c.Attributes > 0:
		tag = "-" + c.Part
	}
	if c.WithoutFeatures {
		tag += "-nofeatures"
	}
	if c.WL > 0 {
		tag += fmt.Sprintf("-wl%d", c.WL)
	}
	if c.EdgeLabels {
		tag += "-edges"
	}
	return filepath.Join(dir, fmt.Sprintf("fgw-%s%s-w%.4g-%d-graphs-%s.npy", c.Structure, tag, c.FeatureWeight, len(data), hex.EncodeToString(sum[:6])))
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
	if err != nil {
		return nil, false
	}
	d, err = pairwise.ReadMatrixNPY(f, st.Size(), n)
	return d, err == nil
}

func saveMatrix(path string, d *mat.SymDense) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error { return pairwise.WriteMatrixNPY(w, d) })
}
