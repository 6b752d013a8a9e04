package fgwsvm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/atomicfile"
	"github.com/gwf-graphs/gwf/internal/matfile"
	"github.com/gwf-graphs/gwf/layers"
)

// landmarkFile is where the discrepancies of the graphs rest to the landmarks under c are kept
// in dir: the name of rest's matrix (matrixFile: their hash, the candidate's and the
// solver's) followed by the landmarks' count and hash.
func landmarkFile(dir string, rest, landmarks []*graphs.Graph, c Candidate, solver layers.SolverOptions) string {
	sum := sha256.Sum256([]byte(graphs.Fingerprint(landmarks)))
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

// crossBlock is the number of discrepancies of a block of rows of crossKept (at least one
// row): small enough that a killed run loses little, large enough to keep the workers busy.
const crossBlock = 1024

// crossKept is crossDistances of a (FGW) to b under c, computed in blocks of rows (of about
// blockPairs discrepancies) whose
// discrepancies are kept beside path (partialFile, a 1×t array of the rows done, row by row)
// as they finish — every few seconds (keepAfter) and when the work stops — and resumed from
// there by a rerun.
func (o Options) crossKept(ctx context.Context, a, b []*graphs.Graph, c Candidate, path string, offset, total, blockPairs int) (*mat.Dense, error) {
	rows, cols := len(a), len(b)
	partial := partialFile(path)
	vals := loadPartial(partial, rows*cols)
	vals = vals[:len(vals)/cols*cols] // whole rows only
	if len(vals) > 0 {
		o.log("resuming %s at %d of %d graphs", partial, len(vals)/cols, rows)
	}
	vals = append(make([]float64, 0, rows*cols), vals...)
	block := max(1, blockPairs/cols)
	kept, wait := time.Now(), o.keepAfter(0)
	for lo := len(vals) / cols; lo < rows; lo += block {
		hi := min(rows, lo+block)
		d, err := crossDistances(ctx, a[lo:hi], b, c, nil, o, offset+lo*cols, total)
		if err != nil {
			o.keepPartial(partial, vals) // cancelled, or a pair failed: keep the rows done
			return nil, err
		}
		for i := range hi - lo {
			vals = append(vals, d.RawRowView(i)...)
		}
		if hi < rows && time.Since(kept) >= wait {
			start := time.Now()
			o.keepPartial(partial, vals)
			kept, wait = time.Now(), o.keepAfter(time.Since(start))
		}
	}
	return mat.NewDense(rows, cols, vals), nil
}

// graphsAt is data[idx[0]], data[idx[1]], ….
func graphsAt(data []*graphs.Graph, idx []int) []*graphs.Graph {
	out := make([]*graphs.Graph, len(idx))
	for a, i := range idx {
		out[a] = data[i]
	}
	return out
}
