package semisup

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/csr"
	"github.com/gwf-graphs/gwf/layers/gwops"
	"github.com/gwf-graphs/gwf/layers/tape"
)

// boundTemplates is a model bound to a dataset: every graph's propagation matrix and input
// features (computed once) and its structure for the template layer.
type boundTemplates struct {
	m     *TemplateModel
	graph []prepared
	obs   []layers.Space
	// stats are each graph's standardized statistics, with Config.GraphStatistics.
	stats [][]float64
}

// bind prepares data for m.
func (m *TemplateModel) bind(data []*graphs.Graph) (*boundTemplates, error) {
	graph, obs, err := m.inputs(data)
	if err != nil {
		return nil, err
	}
	b := &boundTemplates{m: m, graph: graph, obs: obs}
	data = m.Config.read(data)
	if m.Config.GraphStatistics {
		if b.stats, err = m.standardStatistics(data); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// inputs are the graphs as m reads them: each one's propagation matrix and input features
// (with their Weisfeiler-Lehman rounds), and its structure for the template layer.
func (m *TemplateModel) inputs(data []*graphs.Graph) ([]prepared, []layers.Space, error) {
	graph, obs := make([]prepared, len(data)), make([]layers.Space, len(data))
	data = m.Config.read(data)
	gin := &GNN{Kind: EncoderGIN, W: []*mat.Dense{mat.NewDense(m.Inputs, 1, nil)}}
	structures, err := m.Config.Structure.Apply(data)
	if err != nil {
		return nil, nil, fmt.Errorf("templates: %w", err)
	}
	var index []map[uint64]int32 // each iteration's code → column
	if m.Config.WLLabels > 0 && m.WLVocabulary != nil {
		index = wlIndex(m.WLVocabulary)
	}
	for i, g := range data {
		if graph[i], err = gin.prepare(g); err != nil {
			return nil, nil, fmt.Errorf("templates: %w", err)
		}
		if r := m.Config.WLRounds; r > 0 {
			x := wlFeatures(g, graph[i].x.Data().([]float64), m.Inputs, r)
			graph[i].x = tensor.New(tensor.WithShape(g.N(), m.readWidth()), tensor.WithBacking(x))
		}
		if index != nil && m.Config.WLEdgeLabels && g.EdgeLabels == nil {
			return nil, nil, fmt.Errorf("templates: graph %q has no edge labels, which the model's Weisfeiler-Lehman labels read (it was trained on graphs with them)", g.Name)
		}
		if index != nil {
			codes, err := wlCodes(g, graph[i].x.Data().([]float64), m.Inputs, m.Config.WLLabels, m.Config.WLEdgeLabels)
			if err != nil {
				return nil, nil, err
			}
			graph[i].wl = wlPositions(codes, index, m.Config.WLRareColumns)
		}
		obs[i] = layers.Space{A: structures[i].A, Mu: g.Mu}
	}
	return graph, obs, nil
}

// appendRows appends the node features pg's graph is read with (n × readWidth) to dst: its
// input features, with its Weisfeiler-Lehman labels one-hot beside them where it has them.
func (m *TemplateModel) appendRows(dst []float64, pg prepared) []float64 {
	x := pg.x.Data().([]float64)
	if pg.wl == nil {
		return append(dst, x...)
	}
	return appendWLRows(dst, x, pg.n, m.Inputs, pg.wl, m.WLVocabulary, m.Config.WLRareColumns)
}

// learnWLVocabulary sets m.WLVocabulary from the Weisfeiler-Lehman codes of data (as the model
// reads them). Where a node's features are not one-hot (attributes) it leaves it nil: codes
// of continuous rows tell every node apart, and the model reads such features as they are,
// as 'gwf classify' takes WL labels of categorical features only.
func (m *TemplateModel) learnWLVocabulary(data []*graphs.Graph) error {
	for _, g := range data {
		if d := InputDim(g.Dim()); d != m.Inputs {
			return fmt.Errorf("templates: graph %q has %d node features, the model reads %d", g.Name, d, m.Inputs)
		}
	}
	_, codes, notOneHot, err := categoricalWLCodes(data, m.Inputs, m.Config.WLLabels, m.Config.WLEdgeLabels)
	if err != nil {
		return err
	}
	m.WLVocabulary = nil
	if notOneHot == nil {
		m.WLVocabulary = wlVocabulary(codes, m.Config.WLLabels)
	}
	return nil
}

// standardStatistics are the graphs' statistics standardized by StatShift and StatScale.
func (m *TemplateModel) standardStatistics(data []*graphs.Graph) ([][]float64, error) {
	if len(m.StatShift) != graphs.NumStatistics || len(m.StatScale) != graphs.NumStatistics {
		return nil, fmt.Errorf("templates: %d statistics' shifts and %d scales, want %d", len(m.StatShift), len(m.StatScale), graphs.NumStatistics)
	}
	out := make([][]float64, len(data))
	for i, g := range data {
		s, err := graphs.LogStatistics(g)
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		for j := range s {
			s[j] = (s[j] - m.StatShift[j]) / m.StatScale[j]
		}
		out[i] = s
	}
	return out, nil
}

// params are the model's parameters as tensors sharing its storage, in a fixed order: the
// encoder's W_l then b_l, the templates' V_k then H_k, log w (when learned), the templates'
// node-weight logits (when learned), the head's W_l then b_l.
func (m *TemplateModel) params() []*tensor.Dense {
	var ps []*tensor.Dense
	if m.Encoder != nil {
		ps = append(ps, m.Encoder.Params()...)
	}
	for _, t := range m.Templates {
		ps = append(ps, denseTensor(t.V))
	}
	for _, t := range m.Templates {
		if t.H != nil {
			ps = append(ps, denseTensor(t.H))
		}
	}
	if m.logWeight != nil {
		ps = append(ps, tensor.New(tensor.WithShape(1, 1), tensor.WithBacking(m.logWeight)))
	}
	for _, t := range m.Templates {
		if t.Logits != nil {
			ps = append(ps, tensor.New(tensor.WithShape(1, len(t.Logits)), tensor.WithBacking(t.Logits)))
		}
	}
	for _, w := range m.Head.W {
		ps = append(ps, denseTensor(w))
	}
	for _, b := range m.Head.B {
		ps = append(ps, tensor.New(tensor.WithShape(1, len(b)), tensor.WithBacking(b)))
	}
	return ps
}

func denseTensor(m *mat.Dense) *tensor.Dense {
	r, c := m.Dims()
	return tensor.New(tensor.WithShape(r, c), tensor.WithBacking(m.RawMatrix().Data))
}

// forwardNodes are the nodes of a batch's forward pass.
type forwardNodes struct {
	logits *gorgonia.Node // B×classes
	dist   *gorgonia.Node // B×K template discrepancies
	scaled *gorgonia.Node // B×K, standardized: what the head reads
	// templates are the templates' V_k and H_k nodes, for a reconstruction term.
	templates []gwops.Template
}

// forward adds the batch's class scores to g (B×classes) from params (m.params() as nodes of
// g), and returns them with the template discrepancies (B×K).
func (b *boundTemplates) forward(g *gorgonia.ExprGraph, params gorgonia.Nodes, batch []int, layer gwops.Templates) (logits, dist *gorgonia.Node, err error) {
	f, err := b.forwardAll(g, params, batch, layer)
	if err != nil {
		return nil, nil, err
	}
	return f.logits, f.dist, nil
}

// forwardAll is forward returning every node a training step needs.
func (b *boundTemplates) forwardAll(g *gorgonia.ExprGraph, params gorgonia.Nodes, batch []int, layer gwops.Templates) (f forwardNodes, err error) {
	m := b.m
	obs := make([]layers.Space, len(batch))
	for r, i := range batch {
		if i < 0 || i >= len(b.graph) {
			return f, fmt.Errorf("templates: graph %d of %d", i, len(b.graph))
		}
		obs[r] = b.obs[i]
	}
	var x *gorgonia.Node
	if m.Config.FeatureWeight > 0 {
		if x, params, err = b.encode(g, params, batch); err != nil {
			return f, err
		}
	}
	K := len(m.Templates)
	ts := make([]gwops.Template, K)
	for k, t := range m.Templates {
		ts[k] = gwops.Template{V: params[k], Mu: t.Mu}
		if x != nil {
			ts[k].H = params[K+k]
		}
	}
	params = params[K:]
	if x != nil {
		params = params[K:]
	}
	var logWeight *gorgonia.Node
	if m.logWeight != nil {
		logWeight, params = params[0], params[1:]
	}
	for k, t := range m.Templates {
		if t.Logits != nil {
			ts[k].Logits, params = params[0], params[1:]
		}
	}
	f.templates = ts
	if f.dist, err = layer.Build(g, ts, x, logWeight, obs, batch); err != nil {
		return f, err
	}
	h, err := m.standardize(g, f.dist)
	if err != nil {
		return f, err
	}
	f.scaled = h
	if b.stats != nil {
		S := graphs.NumStatistics
		x := make([]float64, 0, len(batch)*S)
		for _, i := range batch {
			x = append(x, b.stats[i]...)
		}
		s := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(len(batch), S), tensor.WithBacking(x)), gorgonia.WithName("tfgw_statistics"))
		if h, err = gorgonia.Concat(1, h, s); err != nil {
			return f, err
		}
	}
	nl := len(m.Head.W)
	for l := 0; l < nl; l++ {
		if h, err = gorgonia.Mul(h, params[l]); err != nil {
			return f, err
		}
		if h, err = gorgonia.BroadcastAdd(h, params[nl+l], nil, []byte{0}); err != nil {
			return f, err
		}
		if l+1 < nl {
			if h, err = relu(h); err != nil {
				return f, err
			}
		}
	}
	f.logits = h
	return f, nil
}

// standardize adds (D − Shift) ⊘ Scale, column by column: the head reads discrepancies of
// order 1 whatever their scale (a few hundredths for sparse graphs), so that Adam's steps move
// its weights at the pace of the data.
func (m *TemplateModel) standardize(g *gorgonia.ExprGraph, dist *gorgonia.Node) (*gorgonia.Node, error) {
	K := len(m.Templates)
	if len(m.Shift) != K || len(m.Scale) != K {
		return dist, nil
	}
	diag := make([]float64, K*K)
	bias := make([]float64, K)
	for k := 0; k < K; k++ {
		diag[k*K+k] = 1 / m.Scale[k]
		bias[k] = -m.Shift[k] / m.Scale[k]
	}
	d := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(K, K), tensor.WithBacking(diag)), gorgonia.WithName("tfgw_scale"))
	c := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(1, K), tensor.WithBacking(bias)), gorgonia.WithName("tfgw_shift"))
	h, err := gorgonia.Mul(dist, d)
	if err != nil {
		return nil, err
	}
	return gorgonia.BroadcastAdd(h, c, nil, []byte{0})
}

// encode adds the batch's node features to g (Σ N × features, graphs stacked in batch order):
// the input features, then with the GIN encoder every layer's output H_l = ReLU(P·H_{l−1}·W_l +
// b_l), side by side. It returns the parameters it did not use.
func (b *boundTemplates) encode(g *gorgonia.ExprGraph, params gorgonia.Nodes, batch []int) (*gorgonia.Node, gorgonia.Nodes, error) {
	m := b.m
	total := 0
	for _, i := range batch {
		total += b.graph[i].n
	}
	xData := make([]float64, 0, total*m.readWidth())
	rowPtr, col, val := make([]int, 1, total+1), []int32(nil), []float64(nil)
	off := 0
	for _, i := range batch {
		pg := b.graph[i]
		xData = m.appendRows(xData, pg)
		for a := 0; a < pg.n; a++ {
			cols, vals := pg.p.Row(a)
			for q, j := range cols {
				col, val = append(col, j+int32(off)), append(val, vals[q])
			}
			rowPtr = append(rowPtr, len(col))
		}
		off += pg.n
	}
	x := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(total, m.readWidth()), tensor.WithBacking(xData)), gorgonia.WithName("tfgw_X"))
	if m.Encoder == nil {
		return x, params, nil
	}
	p, err := csr.New(total, rowPtr, col, val) // block diagonal
	if err != nil {
		return nil, nil, fmt.Errorf("templates: %w", err)
	}
	propagate := newSparseMulOp(p)
	nl := len(m.Encoder.W)
	outs := gorgonia.Nodes{x}
	h := x
	for l := 0; l < nl; l++ {
		ph, err := gorgonia.ApplyOp(propagate, h)
		if err != nil {
			return nil, nil, err
		}
		if h, err = gorgonia.Mul(ph, params[l]); err != nil {
			return nil, nil, err
		}
		if h, err = gorgonia.BroadcastAdd(h, params[nl+l], nil, []byte{0}); err != nil {
			return nil, nil, err
		}
		if h, err = relu(h); err != nil {
			return nil, nil, err
		}
		outs = append(outs, h)
	}
	cat, err := gorgonia.Concat(1, outs...)
	if err != nil {
		return nil, nil, err
	}
	return cat, params[2*nl:], nil
}

// paramNodes adds the parameters to g as named nodes sharing the model's storage.
func paramNodes(g *gorgonia.ExprGraph, ps []*tensor.Dense) gorgonia.Nodes {
	out := make(gorgonia.Nodes, len(ps))
	for q, p := range ps {
		out[q] = gorgonia.NodeFromAny(g, p, gorgonia.WithName(fmt.Sprintf("tfgw_param_%d", q)))
	}
	return out
}

// evalChunk is the number of graphs per expression graph when scoring.
const evalChunk = 64

// Logits returns the class scores of data (one row per graph) — a forward pass, the
// transports solved from scratch (CG with its anchored starts), as for graphs never seen.
func (m *TemplateModel) Logits(ctx context.Context, data []*graphs.Graph, workers int) (*mat.Dense, error) {
	logits, _, err := m.scores(ctx, data, workers)
	return logits, err
}

// Discrepancies returns the K template discrepancies of data (one row per graph): the
// model's embedding of each graph.
func (m *TemplateModel) Discrepancies(ctx context.Context, data []*graphs.Graph, workers int) (*mat.Dense, error) {
	_, dist, err := m.scores(ctx, data, workers)
	return dist, err
}

func (m *TemplateModel) scores(ctx context.Context, data []*graphs.Graph, workers int) (*mat.Dense, *mat.Dense, error) {
	b, err := m.bind(data)
	if err != nil {
		return nil, nil, err
	}
	layer := gwops.Templates{Solver: m.solver(), Workers: workers, Context: ctx}
	all := make([]int, len(data))
	for i := range all {
		all[i] = i
	}
	return b.scores(all, layer)
}

// scores returns the class scores and the discrepancies of the bound graphs idx (row r for
// graph idx[r]), a forward pass in chunks of evalChunk graphs.
func (b *boundTemplates) scores(idx []int, layer gwops.Templates) (*mat.Dense, *mat.Dense, error) {
	m := b.m
	C, K := m.Head.Classes(), len(m.Templates)
	logits, dist := mat.NewDense(len(idx), C, nil), mat.NewDense(len(idx), K, nil)
	for s := 0; s < len(idx); s += evalChunk {
		batch := idx[s:min(s+evalChunk, len(idx))]
		var d *gorgonia.Node
		g, l, err := tape.Build(func() (*gorgonia.ExprGraph, *gorgonia.Node, error) {
			g := gorgonia.NewGraph()
			l, dn, err := b.forward(g, paramNodes(g, m.params()), batch, layer)
			d = dn
			return g, l, err
		})
		if err != nil {
			return nil, nil, err
		}
		var dv gorgonia.Value
		gorgonia.Read(d, &dv)
		vm := gorgonia.NewTapeMachine(g)
		err = vm.RunAll()
		vm.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("templates: %w", err)
		}
		lv, dd := l.Value().Data().([]float64), dv.Data().([]float64)
		for r := range batch {
			logits.SetRow(s+r, lv[r*C:(r+1)*C])
			dist.SetRow(s+r, dd[r*K:(r+1)*K])
		}
	}
	return logits, dist, nil
}

// solver is the exact CG of the FGW cost with the model's feature weight.
func (m *TemplateModel) solver() layers.CG {
	c := layers.DefaultCG()
	c.Weight = m.FeatureWeight()
	if n := m.Config.SolverIterations; n > 0 {
		c.MaxIter = n
	}
	if t := m.Config.SolverTolerance; t > 0 {
		c.TolRel = t
	}
	return c
}

// EncodeNodes returns each graph's node features as the templates see them (n × features):
// the input features and, with the encoder, every layer's output.
func (m *TemplateModel) EncodeNodes(data []*graphs.Graph) ([]*mat.Dense, error) {
	b, err := m.bind(data)
	if err != nil {
		return nil, err
	}
	all := make([]int, len(data))
	for i := range all {
		all[i] = i
	}
	return b.nodeFeatures(all)
}

// nodeFeatures computes the node features of the graphs idx with the encoder's current
// weights (a forward pass without gradients).
func (b *boundTemplates) nodeFeatures(idx []int) ([]*mat.Dense, error) {
	m := b.m
	out := make([]*mat.Dense, len(idx))
	d := m.features()
	for s := 0; s < len(idx); s += evalChunk {
		batch := idx[s:min(s+evalChunk, len(idx))]
		g, x, err := tape.Build(func() (*gorgonia.ExprGraph, *gorgonia.Node, error) {
			g := gorgonia.NewGraph()
			var ps []*tensor.Dense
			if m.Encoder != nil {
				ps = m.Encoder.Params()
			}
			x, _, err := b.encode(g, paramNodes(g, ps), batch)
			return g, x, err
		})
		if err != nil {
			return nil, err
		}
		vm := gorgonia.NewTapeMachine(g)
		err = vm.RunAll()
		vm.Close()
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		vals := x.Value().Data().([]float64)
		off := 0
		for r, i := range batch {
			n := b.graph[i].n
			out[s+r] = mat.NewDense(n, d, append([]float64(nil), vals[off*d:(off+n)*d]...))
			off += n
		}
	}
	return out, nil
}

// Predict returns the most likely class of each graph (a forward pass, as Logits).
func (m *TemplateModel) Predict(ctx context.Context, data []*graphs.Graph, workers int) ([]int, error) {
	l, err := m.Logits(ctx, data, workers)
	if err != nil {
		return nil, err
	}
	return ArgMax(l), nil
}
