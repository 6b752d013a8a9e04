package graphs

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/csr"
)

// Graph is one observed graph: a weighted, possibly directed adjacency matrix A,
// a distribution Mu over its nodes and optional node features F (one row per node).
type Graph struct {
	// Name identifies the graph in error messages and outputs (a file name, "AIDS#12", ...).
	Name string
	// A is the N×N adjacency matrix, stored sparse (a graph costs memory in proportion to its
	// edges); entries are finite and non-negative. Dense returns a dense copy.
	A *csr.Matrix
	// Mu is the node distribution: N strictly positive entries summing to 1.
	Mu []float64
	// F holds the node features (N×D), or is nil when the graph has none.
	F *mat.Dense
	// EdgeLabels, when not nil, holds a label code for each entry of A, in the same sparse
	// pattern: edge labels such as bond types (TUOptions.EdgeLabels, FolderOptions.EdgeLabels;
	// EdgeLabelCode). Only the Weisfeiler-Lehman relabelling reads it (WLCodesWithEdges); a
	// graph whose A is replaced (shortest paths) does not keep it.
	EdgeLabels *csr.Matrix
	// Label is the class label of the graph; meaningful only when HasLabel is true.
	Label    int
	HasLabel bool
	// labelText is a class label a file gave as text ("ring"), for a folder to map to a
	// class with the others (HasLabel stays false until then: Label holds no class yet), or
	// an integer label as the file spelled it where that is not its plain form ("01", "+1";
	// Label and HasLabel set), for a folder to tell it from "1".
	labelText string
	// categories are the string node attributes a reader kept for a folder to encode
	// (NodeLinkOptions.Categories); nil otherwise.
	categories nodeCategories
	// attrColumns name the numeric node attributes behind the columns of F, in order, where a
	// reader of named attributes (node-link, GraphML, GML, GEXF) made F, so that a folder
	// matches them by name; nil otherwise.
	attrColumns []attrColumn
	// omittedAttrs are the numeric node attributes a reader left out because some nodes lack
	// them (NodeLinkOptions.OmitPartialAttributes), for a folder to leave out of every graph.
	omittedAttrs []omittedAttr
}

// omittedAttr is a numeric node attribute left out of a graph's features: node (an id, as the
// file writes it) lacks it, node has has it.
type omittedAttr struct {
	name, node, has string
}

// partialAttrHint says what to do of a numeric node attribute that some nodes lack.
const partialAttrHint = "give it to every node; without --features, gwf leaves it out with a warning (FolderOptions.OmitPartialAttributes); --features labels or none leave out all of them"

// attrColumn is a numeric node attribute and the number of columns of F it fills.
type attrColumn struct {
	name  string
	width int
}

// attrColumnNames lists the attributes as "charge, pos (3 values)".
func attrColumnNames(cols []attrColumn) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = strconv.Quote(c.name)
		if c.width != 1 {
			names[i] += fmt.Sprintf(" (%d values)", c.width)
		}
	}
	return strings.Join(names, ", ")
}

// ErrInvalid is wrapped by every validation error, so callers can test for it with errors.Is.
var ErrInvalid = errors.New("invalid graph")

// ErrNoFeatures is wrapped by the readers' errors when node features are asked for and the data
// have none of that kind (a TU dataset without the file, a folder none of whose graphs has
// them), so that a caller may read the data without them instead.
var ErrNoFeatures = errors.New("no node features of the kind asked for")

// ErrNoAttributes wraps ErrNoFeatures where a folder has no numeric node attributes at all:
// a caller that tries kinds of features in turn need not ask for attributes again.
var ErrNoAttributes = fmt.Errorf("%w: no numeric node attributes", ErrNoFeatures)

// simplexTol is how far the sum of Mu may be from 1.
const simplexTol = 1e-9

// New builds and validates a graph from a dense adjacency matrix, which it stores sparse. A nil
// mu means the uniform distribution; a nil f means no features. mu and f are used as given, not
// copied.
func New(name string, c *mat.Dense, mu []float64, f *mat.Dense) (*Graph, error) {
	if c == nil {
		return nil, fmt.Errorf("graph %q: %w: no adjacency matrix", name, ErrInvalid)
	}
	a, err := csr.FromDense(c)
	if err != nil {
		return nil, fmt.Errorf("graph %q: %w: %v", name, ErrInvalid, err)
	}
	return NewSparse(name, a, mu, f)
}

// NewSparse builds and validates a graph from a sparse adjacency matrix (used as given).
func NewSparse(name string, a *csr.Matrix, mu []float64, f *mat.Dense) (*Graph, error) {
	if a == nil {
		return nil, fmt.Errorf("graph %q: %w: no adjacency matrix", name, ErrInvalid)
	}
	if mu == nil {
		mu = UniformMu(a.N())
	}
	g := &Graph{Name: name, A: a, Mu: mu, F: f}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return g, nil
}

// N is the number of nodes.
func (g *Graph) N() int {
	if g.A == nil {
		return 0
	}
	return g.A.N()
}

// Dense returns a new dense copy of the adjacency matrix (N×N: use it on small graphs, or one
// graph at a time).
func (g *Graph) Dense() *mat.Dense { return g.A.Dense() }

// UndirectedEdges counts the node pairs u < v joined by an entry in either direction.
func (g *Graph) UndirectedEdges() int {
	e := 0
	for u := 0; u < g.N(); u++ {
		cols, _ := g.A.Row(u)
		for _, v := range cols {
			// u < v counts once; u > v only when (v, u) did not count it.
			if int(v) > u || (int(v) < u && g.A.At(int(v), u) == 0) {
				e++
			}
		}
	}
	return e
}

// Bytes is the memory the graph's adjacency, distribution and features hold.
func (g *Graph) Bytes() int64 {
	b := g.A.Bytes() + 8*int64(len(g.Mu))
	if g.F != nil {
		r, c := g.F.Dims()
		b += 8 * int64(r) * int64(c)
	}
	return b
}

// Dim is the feature dimension D, or 0 when the graph has no features.
func (g *Graph) Dim() int {
	if g.F == nil {
		return 0
	}
	_, d := g.F.Dims()
	return d
}

// WithoutFeatures returns copies of data without node features, to be compared by their
// structure alone; the adjacency, distribution and labels are shared, not copied.
func WithoutFeatures(data []*Graph) []*Graph {
	out := make([]*Graph, len(data))
	for i, g := range data {
		c := *g
		c.F = nil
		out[i] = &c
	}
	return out
}

// Validate checks the invariants listed on Graph and says which graph and what is wrong.
func (g *Graph) Validate() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("graph %q: %w: %s", g.Name, ErrInvalid, fmt.Sprintf(format, args...))
	}
	if g.A == nil {
		return fail("no adjacency matrix")
	}
	r := g.A.N()
	if r == 0 {
		return fail("no nodes")
	}
	for i := 0; i < r; i++ {
		cols, vals := g.A.Row(i)
		for p, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return fail("adjacency entry (%d,%d) = %v is not finite and non-negative", i, cols[p], v)
			}
		}
	}
	if len(g.Mu) != r {
		return fail("mu has %d entries for %d nodes", len(g.Mu), r)
	}
	sum := 0.0
	for i, v := range g.Mu {
		if !(v > 0) || math.IsInf(v, 0) {
			return fail("mu[%d] = %v is not strictly positive and finite", i, v)
		}
		sum += v
	}
	if math.Abs(sum-1) > simplexTol {
		return fail("mu sums to %v, not 1", sum)
	}
	if err := g.validateEdgeLabels(); err != nil {
		return fail("%v", err)
	}
	if g.F != nil {
		fr, fc := g.F.Dims()
		if fr != r {
			return fail("features have %d rows for %d nodes", fr, r)
		}
		if fc == 0 {
			return fail("features have no columns")
		}
		for i := 0; i < fr; i++ {
			for j, v := range g.F.RawRowView(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fail("feature (%d,%d) = %v is not finite", i, j, v)
				}
			}
		}
	}
	return nil
}

// UniformMu returns the uniform distribution over n nodes.
func UniformMu(n int) []float64 {
	mu := make([]float64, n)
	for i := range mu {
		mu[i] = 1 / float64(n)
	}
	return mu
}

// DegreeMu returns a distribution proportional to (degree + 1) — the paper's footnote allows
// degree-based distributions; the +1 keeps isolated nodes in the support. Degree here is the
// weighted out- plus in-degree, so directed graphs are handled too.
func DegreeMu(a *csr.Matrix) []float64 {
	n := a.N()
	mu := make([]float64, n)
	total := 0.0
	for i := 0; i < n; i++ {
		cols, vals := a.Row(i)
		for p, v := range vals {
			mu[i] += v
			mu[cols[p]] += v
		}
	}
	for i := range mu {
		mu[i]++
		total += mu[i]
	}
	for i := range mu {
		mu[i] /= total
	}
	return mu
}

// StandardizeFeatures rescales the node features of gs in place so that each feature dimension
// has mean 0 and standard deviation 1 over all nodes of all graphs (a constant dimension is
// only centred), and returns the means and scales used. Raw attributes on large scales (PROTEINS_full's
// reach 400) otherwise dominate the fused GW cost and drown the structure term.
//
// A non-finite feature is an error naming the graph, node and dimension, and nothing is
// changed. Finite features whose sums overflow (attributes near 1e308) are standardized
// through a copy divided by the dimension's largest magnitude, so the results stay finite.
func StandardizeFeatures(gs []*Graph) (mean, scale []float64, err error) {
	if mean, scale, err = Standardization(Slice(gs)); err != nil || mean == nil {
		return nil, nil, err
	}
	standardize(gs, mean, scale)
	return mean, scale, nil
}

// Standardization returns the means and scales StandardizeFeatures would use for the graphs
// of src, changing nothing: src is read through twice (or three times when sums overflow),
// graph after graph, so a corpus on disk need not be in memory. Nil, nil when the graphs have
// no features.
func Standardization(src Source) (mean, scale []float64, err error) {
	if src.Len() == 0 {
		return nil, nil, nil
	}
	g0, err := src.Graph(0)
	if err != nil || g0.F == nil {
		return nil, nil, err
	}
	d := g0.Dim()
	div := make([]float64, d)
	for j := range div {
		div[j] = 1
	}
	if mean, scale, err = meanStd(src, d, div); err != nil {
		return nil, nil, err
	}
	var overflowed []int
	for j := range d {
		if math.IsInf(mean[j], 0) || math.IsInf(scale[j], 0) || math.IsNaN(scale[j]) {
			overflowed = append(overflowed, j)
		}
	}
	if overflowed != nil {
		// The sums overflowed: redo these dimensions on values divided by their largest
		// magnitude (a rare path, so that ordinary data keep their exact results).
		big, err := maxAbs(src, d)
		if err != nil {
			return nil, nil, err
		}
		m, sd, err := meanStd(src, d, big)
		if err != nil {
			return nil, nil, err
		}
		for _, j := range overflowed {
			mean[j], scale[j] = m[j]*big[j], sd[j]*big[j]
			if math.IsInf(mean[j], 0) || math.IsInf(scale[j], 0) {
				return nil, nil, fmt.Errorf("standardize: feature dimension %d: mean %v and standard deviation %v are not finite", j, mean[j], scale[j])
			}
		}
	}
	for j := range d {
		if !(scale[j] > 0) {
			scale[j] = 1
		}
	}
	return mean, scale, nil
}

// checkFeatures checks that every graph of gs has d finite feature dimensions.
func checkFeatures(gs []*Graph, d int) error {
	for gi, g := range gs {
		if err := checkGraphFeatures(gi, g, d); err != nil {
			return err
		}
	}
	return nil
}

// checkGraphFeatures checks that graph gi, g, has d finite feature dimensions.
func checkGraphFeatures(gi int, g *Graph, d int) error {
	if g.F == nil {
		return fmt.Errorf("standardize: graph %d has no node features, %d expected", gi, d)
	}
	r, c := g.F.Dims()
	if c != d {
		return fmt.Errorf("standardize: graph %d has %d feature dimensions, %d expected", gi, c, d)
	}
	for i := 0; i < r; i++ {
		for j, v := range g.F.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("standardize: graph %d, node %d: feature dimension %d is %v", gi, i, j, v)
			}
		}
	}
	return nil
}

// standardize maps every feature x of gs to (x − mean)/scale, dimension by dimension.
func standardize(gs []*Graph, mean, scale []float64) {
	for _, g := range gs {
		r, _ := g.F.Dims()
		for i := 0; i < r; i++ {
			row := g.F.RawRowView(i)
			for j, v := range row {
				if v-mean[j] == v-mean[j] && !math.IsInf(v-mean[j], 0) {
					row[j] = (v - mean[j]) / scale[j]
				} else {
					row[j] = v/scale[j] - mean[j]/scale[j] // v − mean overflows: divide first
				}
			}
		}
	}
}

// meanStd is the mean and standard deviation of each of the d feature dimensions over all nodes
// of src, of the values divided by div[j]; it checks the features on the way (checkFeatures).
// Each dimension's sums run over the graphs and nodes in order, as they always have.
func meanStd(src Source, d int, div []float64) (mean, std []float64, err error) {
	mean, std = make([]float64, d), make([]float64, d)
	n := 0.0
	for gi := 0; gi < src.Len(); gi++ {
		g, err := src.Graph(gi)
		if err != nil {
			return nil, nil, err
		}
		if err := checkGraphFeatures(gi, g, d); err != nil {
			return nil, nil, err
		}
		r, _ := g.F.Dims()
		for i := 0; i < r; i++ {
			for j, v := range g.F.RawRowView(i) {
				mean[j] += v / div[j]
			}
		}
		n += float64(r)
	}
	if n == 0 {
		return mean, std, nil
	}
	for j := range mean {
		mean[j] /= n
	}
	for gi := 0; gi < src.Len(); gi++ {
		g, err := src.Graph(gi)
		if err != nil {
			return nil, nil, err
		}
		r, _ := g.F.Dims()
		for i := 0; i < r; i++ {
			for j, v := range g.F.RawRowView(i) {
				x := v/div[j] - mean[j]
				std[j] += x * x
			}
		}
	}
	for j := range std {
		std[j] = math.Sqrt(std[j] / n)
	}
	return mean, std, nil
}

// maxAbs is the largest magnitude of each feature dimension over all nodes of src.
func maxAbs(src Source, d int) ([]float64, error) {
	m := make([]float64, d)
	for gi := 0; gi < src.Len(); gi++ {
		g, err := src.Graph(gi)
		if err != nil {
			return nil, err
		}
		r, _ := g.F.Dims()
		for i := 0; i < r; i++ {
			for j, v := range g.F.RawRowView(i) {
				m[j] = math.Max(m[j], math.Abs(v))
			}
		}
	}
	return m, nil
}

// graphLabelKeys are the graph attributes read as a graph's class label, first the first
// present: networkx's G.graph["label"], and the names PyTorch Geometric's to_networkx
// (graph_attrs=["y"]) and other libraries' users give it.
var graphLabelKeys = []string{"label", "y", "class", "target", "graph_label"}

// prefersGraphLabel reports whether the graph attribute key is to be the class label rather
// than the one kept so far, kept ("" for none): key is one of graphLabelKeys, none of them
// before it kept (a key given again replaces itself).
func prefersGraphLabel(key, kept string) bool {
	r := slices.Index(graphLabelKeys, key)
	return r >= 0 && (kept == "" || r <= slices.Index(graphLabelKeys, kept))
}

// setFileLabel sets the class label a file gave: an integer, or else the text itself (a
// folder maps the texts to classes). Empty text is an error.
func (g *Graph) setFileLabel(text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return errors.New("an empty class label")
	}
	if y, err := strconv.Atoi(text); err == nil {
		g.Label, g.HasLabel = y, true
		if text != strconv.Itoa(y) { // "01", "+1": kept, so that a folder that also has "1" says so
			g.labelText = text
		}
		return nil
	}
	g.labelText = text
	return nil
}
