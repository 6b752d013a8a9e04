package fgwsvm

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// Kind is how a candidate compares graphs (Candidate.Kind).
type Kind string

// The kinds of candidate. KindFGW is written "" in a Candidate.
const (
	// KindFGW compares graphs by their FGW discrepancy.
	KindFGW Kind = "fgw"
	// KindStatistics compares graphs by their global statistics (graphs.Statistics, counts on
	// a log scale), each divided by its standard deviation over the training graphs: the
	// squared Euclidean distance of the standardized vectors.
	KindStatistics Kind = "statistics"
	// KindWLSubtree compares graphs by their Weisfeiler-Lehman subtree features (Shervashidze
	// et al., JMLR 2011): the counts of each node label after 0 to WL iterations, as a vector
	// of unit length, compared by the squared Euclidean distance k(i,i)+k(j,j)−2k(i,j) of the
	// normalized WL subtree kernel.
	KindWLSubtree Kind = "wl-subtree"
)

// Kinds are the kinds of candidate, in the order the candidates list them.
func Kinds() []Kind { return []Kind{KindFGW, KindStatistics, KindWLSubtree} }

// ParseKind reads a kind by its name.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds() {
		if string(k) == s {
			return k, nil
		}
	}
	return "", fmt.Errorf("fgwsvm: unknown kind of candidate %q (want %s, %s or %s)", s, KindFGW, KindStatistics, KindWLSubtree)
}

// defaultSubtreeIterations are the Weisfeiler-Lehman iterations of the default WL subtree
// candidates (the WL kernel's usual range, chosen on the training graphs).
var defaultSubtreeIterations = []int{1, 2, 3, 4}

// vector reports whether the candidate compares vectors of the graphs, not discrepancies.
func (c Candidate) vector() bool { return c.Kind != "" && c.Kind != KindFGW }

// MarshalJSON writes a vector candidate without feature_weight, which it has no use for; an
// FGW candidate keeps it even at 0 (structure only).
func (c Candidate) MarshalJSON() ([]byte, error) {
	type plain Candidate // without the method, so Marshal does not recurse
	if !c.vector() {
		return json.Marshal(plain(c))
	}
	return json.Marshal(struct {
		plain
		FeatureWeight *float64 `json:"feature_weight,omitempty"` // hides plain's
	}{plain: plain(c)})
}

func (c Candidate) vectorString() string {
	out := ""
	switch c.Kind {
	case KindStatistics:
		out = fmt.Sprintf("graph statistics (%d values, scaled by their spread over the training graphs)", graphs.NumStatistics)
	default:
		edges := ""
		if c.EdgeLabels {
			edges = " with edge labels"
		}
		out = fmt.Sprintf("Weisfeiler-Lehman subtree counts%s (%d iterations)", edges, c.WL)
		switch {
		case c.WithoutFeatures:
			out += " from one label for all nodes"
		case c.Attributes > 0:
			out += " of the node labels"
		}
	}
	if c.WithoutFeatures {
		out += " (node features left out)"
	}
	return out
}

// checkVector is check for the vector kinds.
func (c Candidate) checkVector() error {
	if c.Structure != "" || c.FeatureWeight != 0 || c.Degree || c.LabelScale != 0 {
		return fmt.Errorf("%s candidate with structure %q, feature weight %v, degrees %v, label scale %v", c.Kind, c.Structure, c.FeatureWeight, c.Degree, c.LabelScale)
	}
	switch c.Kind {
	case KindStatistics:
		if c.WL != 0 || c.EdgeLabels || c.Attributes != 0 || c.Part != "" {
			return fmt.Errorf("statistics candidate with WL %d, edge labels %v, %d attribute columns, part %q", c.WL, c.EdgeLabels, c.Attributes, c.Part)
		}
	case KindWLSubtree:
		switch {
		case c.WL < 1 || c.WL > graphs.MaxWLIterations:
			return fmt.Errorf("WL subtree candidate with %d iterations (want 1 to %d)", c.WL, graphs.MaxWLIterations)
		case c.Attributes < 0 || (c.Attributes > 0) != (c.Part == PartLabels) || (c.Attributes == 0 && c.Part != ""):
			return fmt.Errorf("WL subtree candidate with %d attribute columns and part %q (want the labels part of mixed features)", c.Attributes, c.Part)
		case c.WithoutFeatures && c.Attributes != 0:
			return fmt.Errorf("WL subtree candidate without node features, yet %d attribute columns", c.Attributes)
		}
	default:
		return fmt.Errorf("unknown kind of candidate %q", c.Kind)
	}
	return nil
}

// VectorCandidates are the candidates of the given vector kinds on data whose node features
// were made as enc says: KindStatistics, one candidate (the node features left out where the
// graphs have some); KindWLSubtree, for each number of iterations (wl above 0, or 1 to 4 where
// wl is −1; none where it is 0), the subtree counts of the categorical node features (node
// labels, or the labels part of mixed features), with the edge labels too where every graph
// has them, and from one label for all nodes, which on graphs with features leaves them out.
func VectorCandidates(data []*graphs.Graph, enc graphs.FeatureEncoding, kinds []Kind, wl int) ([]Candidate, error) {
	if wl < -1 || wl > graphs.MaxWLIterations {
		return nil, fmt.Errorf("fgwsvm: %d Weisfeiler-Lehman iterations (want 0 to %d)", wl, graphs.MaxWLIterations)
	}
	feat := hasFeatures(data)
	var out []Candidate
	if slices.Contains(kinds, KindStatistics) {
		out = append(out, Candidate{Kind: KindStatistics, WithoutFeatures: feat})
	}
	if !slices.Contains(kinds, KindWLSubtree) || wl == 0 {
		return out, nil
	}
	hs := defaultSubtreeIterations
	if wl > 0 {
		hs = []int{wl}
	}
	edges := graphs.HasEdgeLabels(data)
	var bases []Candidate // from the node labels, with the edge labels, from one label
	switch {
	case enc.Kind == graphs.FeaturesBoth:
		labels := Candidate{Kind: KindWLSubtree, Attributes: enc.Attributes, Part: PartLabels}
		bases = append(bases, labels)
		if edges {
			labels.EdgeLabels = true
			bases = append(bases, labels)
		}
	case !feat || graphs.Categorical(data):
		bases = append(bases, Candidate{Kind: KindWLSubtree})
		if edges {
			bases = append(bases, Candidate{Kind: KindWLSubtree, EdgeLabels: true})
		}
	}
	if feat {
		bases = append(bases, Candidate{Kind: KindWLSubtree, WithoutFeatures: true})
	}
	for _, b := range bases {
		for _, h := range hs {
			c := b
			c.WL = h
			out = append(out, c)
		}
	}
	return out, nil
}

// sparseVector is a vector of WL subtree features: sorted keys and their values.
type sparseVector struct {
	keys []uint64
	vals []float64
}

// vectors holds a vector candidate's vectors of some graphs: dense statistics (on a log scale
// where they count) or sparse WL subtree features of unit length.
type vectors struct {
	dense  [][]float64
	sparse []sparseVector
}

// vectorsOf computes candidate c's vectors of data, the graphs in parallel.
func (c Candidate) vectorsOf(ctx context.Context, data []*graphs.Graph, workers int) (*vectors, error) {
	out := &vectors{}
	switch c.Kind {
	case KindStatistics:
		out.dense = make([][]float64, len(data))
		err := parallel(ctx, len(data), workers, func(i int) error {
			s, err := graphs.LogStatistics(data[i])
			if err != nil {
				return fmt.Errorf("fgwsvm: %w", err)
			}
			out.dense[i] = s
			return nil
		})
		return out, err
	case KindWLSubtree:
		if c.Attributes == 0 && !c.WithoutFeatures && hasFeatures(data) && !graphs.Categorical(data) {
			return nil, fmt.Errorf("fgwsvm: %s: Weisfeiler-Lehman labels need categorical node features (one-hot node labels) or none", c)
		}
		coded, err := c.nodeFeatures(data)
		if err != nil {
			return nil, err
		}
		out.sparse = make([]sparseVector, len(data))
		err = parallel(ctx, len(data), workers, func(i int) error {
			out.sparse[i] = subtreeVector(coded[i].F)
			return nil
		})
		return out, err
	}
	return nil, fmt.Errorf("fgwsvm: %s has no vectors", c)
}

// subtreeVector counts the WL codes (column t: after t iterations) as features (t, code),
// scaled to unit length.
func subtreeVector(codes *mat.Dense) sparseVector {
	n, cols := codes.Dims()
	keys := make([]uint64, 0, n*cols)
	for v := range n {
		for t, code := range codes.RawRowView(v)[:cols] {
			keys = append(keys, uint64(t)<<52|uint64(code)) // codes hold 52 bits
		}
	}
	slices.Sort(keys)
	out := sparseVector{}
	for i := 0; i < len(keys); {
		j := i
		for j < len(keys) && keys[j] == keys[i] {
			j++
		}
		out.keys = append(out.keys, keys[i])
		out.vals = append(out.vals, float64(j-i))
		i = j
	}
	sq := 0.0
	for _, v := range out.vals {
		sq += v * v
	}
	if sq > 0 {
		inv := 1 / math.Sqrt(sq)
		for k := range out.vals {
			out.vals[k] *= inv
		}
	}
	return out
}

// sparseDistance is the squared Euclidean distance of a and b, summed over the union of their
// keys so that equal vectors are exactly 0 apart.
func sparseDistance(a, b sparseVector) float64 {
	i, j, d := 0, 0, 0.0
	for i < len(a.keys) || j < len(b.keys) {
		switch {
		case j == len(b.keys) || (i < len(a.keys) && a.keys[i] < b.keys[j]):
			d += a.vals[i] * a.vals[i]
			i++
		case i == len(a.keys) || b.keys[j] < a.keys[i]:
			d += b.vals[j] * b.vals[j]
			j++
		default:
			x := a.vals[i] - b.vals[j]
			d += x * x
			i++
			j++
		}
	}
	return d
}

// scaledDistance is the squared Euclidean distance of a and b, each entry divided by its scale.
func scaledDistance(a, b, scales []float64) float64 {
	d := 0.0
	for k, s := range scales {
		x := (a[k] - b[k]) / s
		d += x * x
	}
	return d
}

// statisticScales are the standard deviations of the statistics over the vectors idx, 1 where
// one does not vary: what standardizing on those graphs divides by (their means cancel in the
// distances).
func statisticScales(v [][]float64, idx []int) []float64 {
	out := make([]float64, graphs.NumStatistics)
	for k := range out {
		mean, sq := 0.0, 0.0
		for _, i := range idx {
			mean += v[i][k]
		}
		mean /= float64(len(idx))
		for _, i := range idx {
			x := v[i][k] - mean
			sq += x * x
		}
		s := math.Sqrt(sq / float64(len(idx)))
		if !(s > 1e-12*max(1, math.Abs(mean))) || math.IsInf(s, 0) {
			s = 1
		}
		out[k] = s
	}
	return out
}

// distance is the distance of vectors i of a and j of b (statistics divided by scales).
func (a *vectors) distance(i int, b *vectors, j int, scales []float64) float64 {
	if a.dense != nil {
		return scaledDistance(a.dense[i], b.dense[j], scales)
	}
	return sparseDistance(a.sparse[i], b.sparse[j])
}

// subset is the vectors idx.
func (a *vectors) subset(idx []int) *vectors {
	out := &vectors{}
	for _, i := range idx {
		if a.dense != nil {
			out.dense = append(out.dense, a.dense[i])
		} else {
			out.sparse = append(out.sparse, a.sparse[i])
		}
	}
	return out
}

// len is the number of graphs.
func (a *vectors) len() int { return max(len(a.dense), len(a.sparse)) }

// pairwise is the matrix of distances of all pairs of v (statistics divided by scales), the
// rows in parallel.
func (a *vectors) pairwise(ctx context.Context, scales []float64, workers int) (*mat.SymDense, error) {
	n := a.len()
	if n < 2 {
		return nil, fmt.Errorf("fgwsvm: %d graphs, need at least 2", n)
	}
	d := mat.NewSymDense(n, nil)
	err := parallel(ctx, n, workers, func(i int) error {
		for j := i + 1; j < n; j++ {
			d.SetSym(i, j, a.distance(i, a, j, scales)) // each pair is written by one worker
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, checkFinite(d)
}

// cross is the matrix of distances from each of a to each of b.
func (a *vectors) cross(ctx context.Context, b *vectors, scales []float64, workers int) (*mat.Dense, error) {
	d := mat.NewDense(a.len(), b.len(), nil)
	err := parallel(ctx, a.len(), workers, func(i int) error {
		row := d.RawRowView(i)
		for j := range row {
			row[j] = a.distance(i, b, j, scales)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, checkFinite(d)
}

// parallel runs f(0), …, f(n−1) on workers goroutines (0: GOMAXPROCS) and returns the first
// error by index; it stops early where ctx is cancelled.
func parallel(ctx context.Context, n, workers int, f func(i int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, n))
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				errs[i] = f(i)
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return firstError(errs)
}

func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// vectorDistances is the matrix of candidate c's distances between all pairs of data,
// statistics scaled by their spread over all of data (Distances: no labels are read).
func vectorDistances(ctx context.Context, data []*graphs.Graph, c Candidate, opt Options) (*mat.SymDense, error) {
	v, err := c.vectorsOf(ctx, data, opt.Workers)
	if err != nil {
		return nil, err
	}
	var scales []float64
	if v.dense != nil {
		scales = statisticScales(v.dense, seq(len(data)))
	}
	d, err := v.pairwise(ctx, scales, opt.Workers)
	if err != nil {
		return nil, fmt.Errorf("fgwsvm: %s: %w", c, err)
	}
	return d, nil
}
