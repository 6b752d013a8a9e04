package semisup

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
)

// WithWLLabels returns copies of data whose node features are each node's own with its hashed
// Weisfeiler-Lehman labels after 1..h iterations one-hot beside them, scaled as the template
// model reads them (appendWLRows): two nodes are as far apart as the mean over the iterations
// of whether their labelled neighbourhood trees differ. The vocabulary (the codes found in at
// least two graphs, the most common wlVocabularySize of each iteration) comes from data
// itself; no label is read. It is how a model without its own WL labels (the paper's GWF model
// behind --method lambda-svm) compares nodes as FGW's WL labels do. Every graph's features
// must be categorical (one-hot rows: node labels, or one-hot degrees); the graphs share their
// structure with data. h = 0 returns data.
func WithWLLabels(data []*graphs.Graph, h int) ([]*graphs.Graph, error) {
	if h < 0 || h > graphs.MaxWLIterations {
		return nil, fmt.Errorf("semisup: %d Weisfeiler-Lehman iterations: want 0 to %d", h, graphs.MaxWLIterations)
	}
	if h == 0 {
		return data, nil
	}
	for _, g := range data {
		if g.Dim() == 0 {
			return nil, fmt.Errorf("semisup: graph %q has no node features to take Weisfeiler-Lehman labels of (read one-hot degrees or node labels)", g.Name)
		}
		if g.Dim() != data[0].Dim() {
			return nil, fmt.Errorf("semisup: graph %q has %d node features, graph %q %d", g.Name, g.Dim(), data[0].Name, data[0].Dim())
		}
	}
	rows, codes, notOneHot, err := categoricalWLCodes(data, data[0].Dim(), h, false)
	if err != nil {
		return nil, err
	}
	if notOneHot != nil {
		return nil, fmt.Errorf("semisup: graph %q: Weisfeiler-Lehman labels need categorical node features (one-hot rows: node labels or degrees), not attributes", notOneHot.Name)
	}
	vocab := wlVocabulary(codes, h)
	index := wlIndex(vocab)
	out := make([]*graphs.Graph, len(data))
	for i, g := range data {
		n, d := g.N(), g.Dim()
		cp := *g
		cp.F = mat.NewDense(n, d+wlWidth(vocab, 0), appendWLRows(nil, rows[i], n, d, wlPositions(codes[i], index, 0), vocab, 0))
		out[i] = &cp
	}
	return out, nil
}
