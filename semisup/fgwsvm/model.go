package fgwsvm

import (
	"context"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/classlabel"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/semisup/svm"
)

// Model is a trained classifier: the voters inner cross-validation chose, and the graphs it
// compares new graphs with (the voters' support graphs, as read: each voter's structure is
// applied when they are compared).
type Model struct {
	// Voters are the choices whose SVMs vote, best first; their SVMs' support indices index
	// Graphs.
	Voters []Voter
	Graphs []*graphs.Graph
	// Landmarks, for a classifier trained with Settings.Landmarks, are the positions in Graphs
	// of its landmark graphs, ascending: the SVM of each voter whose Choice.Landmarks is set
	// weighs exactly them, its Nyström kernel folded into its coefficients (landmarks.go), so
	// that a new graph is compared with them alone. Nil otherwise.
	Landmarks []int
	// Solver is the GWD module the discrepancies were computed with (FeatureWeight aside:
	// each voter's candidate's); prediction uses the same.
	Solver layers.SolverOptions
	// ClassLabels say which of the data's labels class c stands for; Features says how the
	// training graphs' node features were read, so that new graphs are read alike.
	classlabel.ClassLabels
	Features graphs.FeatureEncoding
	// Stats says what choosing cost (not saved).
	Stats Stats
}

// Voter is one choice of a model and its SVM.
type Voter struct {
	Choice Choice     `json:"choice"`
	SVM    *svm.Model `json:"svm"`
	// Scales, for a statistics candidate (KindStatistics), are the standard deviations of the
	// statistics over the training graphs, which a new graph's statistics are divided by as
	// the training graphs' were (the means cancel in the distances); nil for other kinds.
	Scales []float64 `json:"scales,omitempty"`
}

// Vote is the model's choices, best first.
func (m *Model) Vote() Vote {
	v := make(Vote, len(m.Voters))
	for k, vt := range m.Voters {
		v[k] = vt.Choice
	}
	return v
}

// Train chooses the voters (candidate, γ and C) by cross-validation on data (labels in
// [0, classes); screened, see Settings.Screen), trains their SVMs on all of data and keeps
// the graphs they need.
func Train(ctx context.Context, data []*graphs.Graph, labels []int, classes int, s Settings, opt Options) (*Model, error) {
	if len(data) != len(labels) {
		return nil, fmt.Errorf("fgwsvm: %d graphs and %d labels", len(data), len(labels))
	}
	if err := checkLabels(labels, classes); err != nil {
		return nil, err
	}
	if s.Budget > 0 {
		var m *Model
		st, err := budgeted(ctx, data, 1, s, opt, func(ctx context.Context, s Settings, _ *int) (Stats, error) {
			var err error
			if m, err = Train(ctx, data, labels, classes, s, opt); err != nil {
				return Stats{}, err
			}
			return m.Stats, nil
		})
		if err != nil {
			return nil, err
		}
		m.Stats = st
		return m, nil
	}
	mx, err := newMatrices(ctx, data, s, opt)
	if err != nil {
		return nil, err
	}
	all := seq(len(data))
	screened, err := mx.plan([][]int{all}, labels, classes, s.Grid)
	if err != nil {
		return nil, err
	}
	v, err := mx.chooseFor(all, labels, classes, s.Grid, screened[0])
	if err != nil {
		return nil, err
	}
	vs, err := mx.fitFor(v, labels, all, classes)
	if err != nil {
		return nil, err
	}
	var sup []int
	for _, vt := range vs {
		sup = append(sup, vt.svm.Support()...)
	}
	slices.Sort(sup)
	sup = slices.Compact(sup)
	m := &Model{Solver: opt.solver(), Stats: mx.stats}
	for _, vt := range vs {
		voter := Voter{Choice: vt.choice, SVM: remap(vt.svm, sup)}
		if vt.choice.Candidate.Kind == KindStatistics {
			voter.Scales = mx.scaled[vt.choice.index].scales // of all, the training graphs
		}
		m.Voters = append(m.Voters, voter)
	}
	for _, i := range sup {
		m.Graphs = append(m.Graphs, data[i])
	}
	m.Landmarks = landmarkPositions(vs, sup)
	return m, nil
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

// Predict classifies graphs: for each voter, their discrepancies to the model's graphs it
// uses under its candidate, the kernel, the SVM; then the voters' majority. It is the
// computation cross-validation scored held-out graphs with. opt.Solver is ignored (the
// model's is used).
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
	total := 0
	for _, vt := range m.Voters {
		total += len(data) * len(vt.SVM.Support())
	}
	preds := make([][]int, len(m.Voters))
	done := 0
	for k, vt := range m.Voters {
		sup := vt.SVM.Support()
		used := make([]*graphs.Graph, len(sup))
		for a, i := range sup {
			used[a] = m.Graphs[i]
		}
		d, err := crossDistances(ctx, data, used, vt.Choice.Candidate, vt.Scales, opt, done, total)
		if err != nil {
			return nil, err
		}
		done += len(data) * len(sup)
		// The columns of graphs this voter does not use are never read by its SVM.
		kr := mat.NewDense(len(data), len(m.Graphs), nil)
		for i := range data {
			for a, j := range sup {
				kr.Set(i, j, d.At(i, a))
			}
		}
		preds[k] = vt.SVM.Predict(svm.ExpKernel(kr, vt.Choice.kernelScale()))
	}
	return majority(preds, m.Voters[0].SVM.Classes), nil
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
