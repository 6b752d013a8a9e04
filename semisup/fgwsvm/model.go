package fgwsvm

import (
	"context"
	"fmt"
	"slices"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/semisup"
	"github.com/gwf-graphs/gwf/semisup/svm"
	"github.com/gwf-graphs/gwf/training"
)

// Model is a trained classifier: what inner cross-validation chose, the SVM, and the graphs
// it compares new graphs with (its support graphs, as read: the structure is applied when
// they are compared).
type Model struct {
	Choice Choice
	// SVM's support indices index Graphs.
	SVM    *svm.Model
	Graphs []*graphs.Graph
	// Solver is the GWD module the discrepancies were computed with (FeatureWeight aside:
	// Choice.Candidate's); prediction uses the same.
	Solver training.Config
	// ClassLabels say which of the data's labels class c stands for; Features says how the
	// training graphs' node features were read, so that new graphs are read alike.
	semisup.ClassLabels
	Features graphs.FeatureEncoding
	// Stats says what choosing cost (not saved).
	Stats Stats
}

// Train chooses a candidate, γ and C by cross-validation on data (labels in [0, classes);
// screened, see Settings.Screen), trains the SVM on all of data and keeps the graphs it needs.
func Train(ctx context.Context, data []*graphs.Graph, labels []int, classes int, s Settings, opt Options) (*Model, error) {
	if len(data) != len(labels) {
		return nil, fmt.Errorf("fgwsvm: %d graphs and %d labels", len(data), len(labels))
	}
	if err := checkLabels(labels, classes); err != nil {
		return nil, err
	}
	mx, err := newMatrices(ctx, data, s, opt)
	if err != nil {
		return nil, err
	}
	all := seq(len(data))
	ch, d, err := mx.chooseFor(all, labels, classes, s.Grid)
	if err != nil {
		return nil, err
	}
	m, err := fit(d, ch, labels, all, classes)
	if err != nil {
		return nil, err
	}
	sup := m.Support()
	kept := make([]*graphs.Graph, len(sup))
	for a, i := range sup {
		kept[a] = data[i]
	}
	return &Model{Choice: ch, SVM: remap(m, sup), Graphs: kept, Solver: opt.solver(), Stats: mx.stats}, nil
}

// remap renumbers the machines' support indices into positions in sup (sorted).
func remap(m *svm.Model, sup []int) *svm.Model {
	out := *m
	out.Machines = make([]svm.Machine, len(m.Machines))
	for k, mc := range m.Machines {
		mc.Support = slices.Clone(mc.Support)
		for a, i := range mc.Support {
			mc.Support[a], _ = slices.BinarySearch(sup, i)
		}
		out.Machines[k] = mc
	}
	return &out
}

// Predict classifies graphs: their discrepancies to the model's graphs under the chosen
// candidate, the kernel, the SVM. It is the computation cross-validation scored held-out
// graphs with. opt.Solver is ignored (the model's is used).
func (m *Model) Predict(ctx context.Context, data []*graphs.Graph, opt Options) ([]int, error) {
	if len(data) == 0 {
		return nil, nil
	}
	for _, g := range data {
		if err := m.checkFeatures(g); err != nil {
			return nil, err
		}
	}
	opt.Solver = m.Solver
	d, err := crossDistances(ctx, data, m.Graphs, m.Choice.Candidate, opt)
	if err != nil {
		return nil, err
	}
	return m.SVM.Predict(svm.ExpKernel(d, m.Choice.kernelScale())), nil
}

// checkFeatures refuses a graph whose feature width differs from the model's graphs'.
func (m *Model) checkFeatures(g *graphs.Graph) error {
	want := dim(m.Graphs[0])
	if got := dim(g); got != want {
		return fmt.Errorf("fgwsvm: graph %q has %d node features, the classifier's graphs %d (read the new graphs with the training data's --features)", g.Name, got, want)
	}
	return nil
}

func dim(g *graphs.Graph) int {
	if g.F == nil {
		return 0
	}
	_, d := g.F.Dims()
	return d
}
