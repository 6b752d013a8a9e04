package fgwsvm

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/internal/matfile"
	"github.com/gwf-graphs/gwf/training"
)

// landmarkFile is where the discrepancies of the graphs rest to the landmarks under c are kept
// in dir: the name of rest's matrix (matrixFile: their hash, the candidate's and the
// solver's) followed by the landmarks' count and hash.
func landmarkFile(dir string, rest, landmarks []*graphs.Graph, c Candidate, solver training.Config) string {
	sum := sha256.Sum256([]byte(training.Fingerprint(landmarks)))
	base := strings.TrimSuffix(matrixFile(dir, rest, c, solver), ".npy")
	return fmt.Sprintf("%s-to-%d-landmarks-%s.npy", base, len(landmarks), hex.EncodeToString(sum[:6]))
}

// loadCross reads a matrix kept by saveCross, if the file exists and holds a finite
// rows×cols matrix; ok is false otherwise (it is then computed anew).
func loadCross(path string, rows, cols int) (d *mat.Dense, ok bool) {
	d, err := matfile.ReadFile(path, matfile.Limits{MaxRows: rows, MaxCols: cols})
	if err != nil {
		return nil, false
	}
	if r, c := d.Dims(); r != rows || c != cols {
		return nil, false
	}
	for i := range rows {
		for _, v := range d.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, false
			}
		}
	}
	return d, true
}

func saveCross(path string, d *mat.Dense) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error { return matfile.Write(w, matfile.NPY, d, nil) })
}

// graphsAt is data[idx[0]], data[idx[1]], ….
func graphsAt(data []*graphs.Graph, idx []int) []*graphs.Graph {
	out := make([]*graphs.Graph, len(idx))
	for a, i := range idx {
		out[a] = data[i]
	}
	return out
}
