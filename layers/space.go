package layers

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// Space is one side of a (fused) GW problem: a structure matrix (an adjacency or a
// barycenter), a strictly positive node distribution Mu, and optional node features F compared
// by Metric. The structure is C, dense, or, when C is nil, A, sparse: an observed graph stored
// sparse is densified only inside the solver's state, one problem at a time.
type Space struct {
	C  *mat.Dense
	A  *csr.Matrix
	Mu []float64
	F  *mat.Dense
	// Metric is how the features of two nodes are compared; both sides of a problem must use
	// the same. Solvers that differentiate through the features (the GWB module's atoms) use
	// the zero value, SquaredEuclidean.
	Metric FeatureMetric

	// lowRank, set by GWBState for a barycenter of small atoms, factors C for the products.
	lowRank *lowRank
}

// FeatureMetric is the cost of the features of two nodes in the fused cost D.
type FeatureMetric uint8

const (
	// SquaredEuclidean is ‖f_i − g_j‖², the paper's.
	SquaredEuclidean FeatureMetric = iota
	// Hamming counts the columns where f_i and g_j differ: features that are categorical codes,
	// one column per code, as FGW's code compares Weisfeiler-Lehman labels. On one-hot
	// encodings of the same codes it is half the squared Euclidean distance.
	Hamming
)

func (m FeatureMetric) String() string {
	switch m {
	case SquaredEuclidean:
		return "squared-euclidean"
	case Hamming:
		return "hamming"
	}
	return fmt.Sprintf("FeatureMetric(%d)", uint8(m))
}

// ErrInput is wrapped by every error about a malformed problem (sizes, values, distributions).
var ErrInput = errors.New("invalid input")

// ErrNumerical is wrapped by errors about non-finite results.
var ErrNumerical = errors.New("numerical failure")

// N is the number of nodes.
func (s Space) N() int {
	switch {
	case s.C != nil:
		r, _ := s.C.Dims()
		return r
	case s.A != nil:
		return s.A.N()
	}
	return 0
}

// structure returns the structure matrix, row-major: C's own data, or A written into *buf
// (grown as needed).
func (s Space) structure(buf *[]float64) blas64.General {
	if s.C != nil {
		return s.C.RawMatrix()
	}
	n := s.A.N()
	*buf = grow(*buf, n*n)
	s.A.DenseInto(*buf, n)
	return blas64.General{Rows: n, Cols: n, Stride: n, Data: *buf}
}

// Dense returns the structure matrix as a dense matrix: C itself, or a new dense copy of A.
func (s Space) Dense() *mat.Dense {
	if s.C != nil {
		return s.C
	}
	return s.A.Dense()
}

// Dim is the feature dimension, 0 without features.
func (s Space) Dim() int {
	if s.F == nil {
		return 0
	}
	_, d := s.F.Dims()
	return d
}

// checkShape verifies sizes only (O(N)); it is what the hot path can afford.
func (s Space) checkShape(what string) error {
	if s.C == nil && s.A == nil {
		return fmt.Errorf("%s: %w: no structure matrix", what, ErrInput)
	}
	if s.C != nil {
		if r, c := s.C.Dims(); r != c {
			return fmt.Errorf("%s: %w: structure matrix is %d×%d, not square", what, ErrInput, r, c)
		}
	}
	r := s.N()
	if len(s.Mu) != r {
		return fmt.Errorf("%s: %w: mu has %d entries for %d nodes", what, ErrInput, len(s.Mu), r)
	}
	if s.F != nil {
		if fr, _ := s.F.Dims(); fr != r {
			return fmt.Errorf("%s: %w: features have %d rows for %d nodes", what, ErrInput, fr, r)
		}
	}
	return nil
}

// Validate checks sizes and every value: finite non-negative C, Mu strictly positive summing
// to 1, finite features. Use it on user input before solving.
func (s Space) Validate(what string) error {
	if err := s.checkShape(what); err != nil {
		return err
	}
	n := s.N()
	for i := 0; i < n; i++ {
		var cols []int32
		var vals []float64
		if s.C != nil {
			vals = s.C.RawRowView(i)
		} else {
			cols, vals = s.A.Row(i)
		}
		for j, v := range vals {
			if !(v >= 0) || math.IsInf(v, 0) {
				if cols != nil {
					j = int(cols[j])
				}
				return fmt.Errorf("%s: %w: C[%d][%d] = %v is not finite and non-negative", what, ErrInput, i, j, v)
			}
		}
	}
	sum := 0.0
	for i, v := range s.Mu {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: %w: mu[%d] = %v is not strictly positive", what, ErrInput, i, v)
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("%s: %w: mu sums to %v, not 1", what, ErrInput, sum)
	}
	if s.F != nil {
		for i := 0; i < n; i++ {
			for j, v := range s.F.RawRowView(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("%s: %w: F[%d][%d] = %v is not finite", what, ErrInput, i, j, v)
				}
			}
		}
	}
	return nil
}

// checkPair verifies that two spaces can be compared: both with features of one dimension,
// or both without.
func checkPair(src, dst Space) error {
	if err := src.checkShape("source"); err != nil {
		return err
	}
	if err := dst.checkShape("target"); err != nil {
		return err
	}
	if src.N() == 0 || dst.N() == 0 {
		return fmt.Errorf("%w: empty graph (%d and %d nodes)", ErrInput, src.N(), dst.N())
	}
	if (src.F == nil) != (dst.F == nil) {
		return fmt.Errorf("%w: only one side has node features", ErrInput)
	}
	if src.Dim() != dst.Dim() {
		return fmt.Errorf("%w: feature dimensions differ: %d and %d", ErrInput, src.Dim(), dst.Dim())
	}
	if src.Metric != dst.Metric {
		return fmt.Errorf("%w: features compared by %s on one side and %s on the other", ErrInput, src.Metric, dst.Metric)
	}
	if src.Metric > Hamming {
		return fmt.Errorf("%w: unknown feature metric %s", ErrInput, src.Metric)
	}
	return nil
}
