package training

import (
	"fmt"
	"math"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/gwops"
	"github.com/gwf-graphs/gwf/layers/tape"
)

// Gradients are the losses and gradients of one mini-batch, before any step.
type Gradients struct {
	Loss  float64     // the batch's GWF loss (sum over its graphs)
	Terms []float64   // each extra term's value (0 where it added nothing)
	Atoms [][]float64 // w.r.t. V_k, then H_k
	Z     []float64   // w.r.t. the batch's embeddings, B×K, row r for batch[r] (free embeddings)
	// Encoder holds the gradients w.r.t. the encoder's Params (with Options.Encoder).
	Encoder [][]float64
	// Embeddings are the batch's embeddings, B×K (the encoder's outputs, or Z's rows).
	Embeddings []float64
	// TermParams holds, per term, the gradients w.r.t. its Params (nil where it added nothing).
	TermParams [][][]float64
	// Skipped are the positions in the batch of graphs left out (Options.SkipNonFinite).
	Skipped []int
}

// BatchGradients computes the losses and gradients of one mini-batch (indices into data) as a
// training step of Fit would — the same expression graph — without changing the model.
func BatchGradients(m *Model, data []*graphs.Graph, batch []int, opt Options) (*Gradients, error) {
	if err := m.check(graphs.Slice(data)); err != nil {
		return nil, err
	}
	for _, i := range batch {
		if i < 0 || i >= len(data) {
			return nil, fmt.Errorf("batch index %d out of range [0, %d)", i, len(data))
		}
	}
	if len(batch) == 0 {
		return nil, fmt.Errorf("empty batch")
	}
	tr, err := newTrainer(m, graphs.Slice(data), opt)
	if err != nil {
		return nil, err
	}
	return tr.gradients(batch)
}

// batchGraph holds the nodes of one mini-batch's expression graph that gradients reads back.
type batchGraph struct {
	wrt       gorgonia.Nodes // the atoms (with the GWF term), then Z or the encoder, then the terms
	grads     gorgonia.Nodes // d total / d wrt; nil when the batch has nothing to learn from
	encAt     int            // where Z or the encoder starts in wrt
	z         *gorgonia.Node
	zb        []float64 // the batch's rows of Z (free embeddings)
	gs        []*graphs.Graph
	bl        *gwops.Batch // the GWF term (nil without it)
	termNodes []*gorgonia.Node
	termWrt   []int // where each present term's params start in wrt
}

// gradients builds the batch's expression graph and runs it forward and backward. Every
// gradient is checked to be finite.
func (tr *trainer) gradients(batch []int) (*Gradients, error) {
	g, bg, err := tape.Build(func() (*gorgonia.ExprGraph, *batchGraph, error) { return tr.buildBatch(batch) })
	if err != nil {
		return nil, err
	}
	if bg.grads == nil { // no GWF term and no term in this batch: nothing to learn from
		return &Gradients{Terms: make([]float64, len(bg.termNodes)), TermParams: make([][][]float64, len(bg.termNodes))}, nil
	}
	return tr.runBatch(g, bg)
}

// buildBatch builds the batch's expression graph: the loss and its gradients.
func (tr *trainer) buildBatch(batch []int) (*gorgonia.ExprGraph, *batchGraph, error) {
	m, o := tr.m, tr.adam
	K := m.K()
	g := gorgonia.NewGraph()
	gwf := !tr.opt.WithoutGWF
	atoms := make([]gwops.AtomNodes, K)
	var wrt gorgonia.Nodes // the atoms (with the GWF term), then Z or the encoder, then the terms
	for k, p := range o.v {
		atoms[k] = gwops.AtomNodes{V: paramNode(g, fmt.Sprintf("V%d", k), p.value), Mu: m.AtomMu[k]}
		if gwf {
			wrt = append(wrt, atoms[k].V)
		}
	}
	for k, p := range o.h {
		atoms[k].H = paramNode(g, fmt.Sprintf("H%d", k), p.value)
		if gwf {
			wrt = append(wrt, atoms[k].H)
		}
	}
	zb := make([]float64, len(batch)*K)
	obs := make([]layers.Space, len(batch))
	gs := make([]*graphs.Graph, len(batch))
	for r, i := range batch {
		copy(zb[r*K:(r+1)*K], m.Z.RawRowView(i))
		d, err := tr.src.Graph(i)
		if err != nil {
			return nil, nil, err
		}
		if d.Dim() != m.Dim() {
			return nil, nil, fmt.Errorf("graph %q has %d-dimensional node features, the model %d", d.Name, d.Dim(), m.Dim())
		}
		gs[r] = d
		obs[r] = layers.Space{A: d.A, Mu: d.Mu, F: d.F}
	}
	var zNode *gorgonia.Node
	encAt := len(wrt)
	if enc := tr.opt.Encoder; enc != nil {
		var pn gorgonia.Nodes
		for q, p := range o.encoder.params {
			pn = append(pn, paramNode(g, fmt.Sprintf("enc_%d", q), p.value))
		}
		var err error
		if zNode, err = enc.Encode(g, pn, batch); err != nil {
			return nil, nil, fmt.Errorf("encoder: %w", err)
		}
		if s := zNode.Shape(); zNode.Dims() != 2 || s[0] != len(batch) || s[1] != K {
			return nil, nil, fmt.Errorf("encoder: embeddings of shape %v, want (%d, %d)", zNode.Shape(), len(batch), K)
		}
		wrt = append(wrt, pn...)
	} else {
		zNode = paramNode(g, "Z", tensor.New(tensor.WithShape(len(batch), K), tensor.WithBacking(zb)))
		wrt = append(wrt, zNode)
	}
	var bl *gwops.Batch
	var total *gorgonia.Node
	if gwf {
		var err error
		if bl, err = tr.loss.BuildBatch(g, atoms, zNode, obs); err != nil {
			return nil, nil, err
		}
		total = bl.Loss
	}
	termNodes := make([]*gorgonia.Node, len(tr.opt.Terms))
	termWrt := make([]int, len(tr.opt.Terms)) // where each present term's params start in wrt
	for j, t := range tr.opt.Terms {
		var pn gorgonia.Nodes
		for q, p := range o.terms[j].params {
			pn = append(pn, paramNode(g, fmt.Sprintf("term%d_%d", j, q), p.value))
		}
		tn, err := t.Build(g, zNode, pn, batch)
		if err != nil {
			return nil, nil, fmt.Errorf("term %d: %w", j, err)
		}
		if tn == nil {
			continue
		}
		termNodes[j], termWrt[j] = tn, len(wrt)
		wrt = append(wrt, pn...)
		if total == nil {
			total = tn
		} else if total, err = gorgonia.Add(total, tn); err != nil {
			return nil, nil, fmt.Errorf("term %d: %w", j, err)
		}
	}
	bg := &batchGraph{wrt: wrt, encAt: encAt, z: zNode, zb: zb, gs: gs, bl: bl, termNodes: termNodes, termWrt: termWrt}
	if total == nil {
		return g, bg, nil
	}
	var err error
	if bg.grads, err = gorgonia.Grad(total, wrt...); err != nil {
		return nil, nil, fmt.Errorf("gradients: %w", err)
	}
	return g, bg, nil
}

// runBatch runs the batch's graph forward and backward and reads the losses and gradients back.
func (tr *trainer) runBatch(g *gorgonia.ExprGraph, bg *batchGraph) (*Gradients, error) {
	o := tr.adam
	machine := gorgonia.NewTapeMachine(g)
	defer machine.Close()
	if err := machine.RunAll(); err != nil {
		if bg.bl != nil && bg.bl.Failure() != nil {
			ge := bg.bl.Failure()
			return nil, fmt.Errorf("graph %q: %w", bg.gs[ge.Index].Name, ge.Err)
		}
		return nil, err
	}
	// A graph stopped by the context (its envelope partial, its loss NaN) may have been skipped
	// as non-finite: the batch is incomplete, and none of it is applied.
	if ctx := tr.loss.Context; ctx != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	out := &Gradients{Terms: make([]float64, len(bg.termNodes)), TermParams: make([][][]float64, len(bg.termNodes))}
	var skipped []*gwops.GraphError
	if bg.bl != nil {
		out.Loss, skipped = bg.bl.Loss.Value().Data().(float64), bg.bl.Skipped()
	}
	for _, ge := range skipped {
		out.Skipped = append(out.Skipped, ge.Index)
		tr.opt.Observe.Say(true, "skipped: graph %q: %v", bg.gs[ge.Index].Name, ge.Err)
	}
	gd := make([][]float64, len(bg.grads))
	for q, gn := range bg.grads {
		d, ok := gn.Value().Data().([]float64)
		if !ok {
			return nil, fmt.Errorf("the gradient of %s is not a float64 tensor", bg.wrt[q].Name())
		}
		if !finite(d) {
			return nil, fmt.Errorf("the gradient of %s is %w", bg.wrt[q].Name(), errNonFinite)
		}
		gd[q] = d
	}
	out.Atoms = gd[:bg.encAt]
	if tr.opt.Encoder != nil {
		out.Encoder = gd[bg.encAt : bg.encAt+len(o.encoder.params)]
		out.Embeddings = append([]float64(nil), bg.z.Value().Data().([]float64)...)
		if !finite(out.Embeddings) {
			return nil, fmt.Errorf("the encoder's embeddings are %w", errNonFinite)
		}
	} else {
		out.Z, out.Embeddings = gd[bg.encAt], bg.zb
	}
	for j, tn := range bg.termNodes {
		if tn == nil {
			continue
		}
		v, ok := tn.Value().Data().(float64)
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("term %d is %v: %w", j, tn.Value(), errNonFinite)
		}
		out.Terms[j] = v
		out.TermParams[j] = gd[bg.termWrt[j] : bg.termWrt[j]+len(o.terms[j].params)]
	}
	return out, nil
}

// step computes the batch's gradients and takes the Adam steps: the atoms (unless frozen), each
// z_i of the batch that was not skipped, and each term present in the batch. It returns the
// batch's GWF loss and the terms' values.
func (tr *trainer) step(batch []int) (gwfLoss float64, terms []float64, err error) {
	o := tr.adam
	gr, err := tr.gradients(batch)
	if err != nil {
		return 0, nil, err
	}
	if gr.Atoms == nil && gr.Z == nil && gr.Encoder == nil {
		return gr.Loss, gr.Terms, nil // nothing in this batch to learn from
	}
	for q, p := range o.atoms.params {
		if len(gr.Atoms) > 0 {
			copy(p.gradData(), gr.Atoms[q])
		}
	}
	if !tr.opt.frozen && !tr.opt.WithoutGWF {
		if err := o.atoms.step(); err != nil {
			return 0, nil, fmt.Errorf("adam step on the atoms: %w", err)
		}
	}
	K := tr.m.K()
	if tr.opt.Encoder != nil {
		for q, p := range o.encoder.params {
			copy(p.gradData(), gr.Encoder[q])
		}
		if err := o.encoder.step(); err != nil {
			return 0, nil, fmt.Errorf("adam step on the encoder: %w", err)
		}
		for r, i := range batch { // Z holds the embeddings the batch was computed with
			copy(tr.m.Z.RawRowView(i), gr.Embeddings[r*K:(r+1)*K])
		}
	}
	skipped := 0
	for r, i := range batch {
		if tr.opt.Encoder != nil {
			break
		}
		if skipped < len(gr.Skipped) && gr.Skipped[skipped] == r {
			skipped++
			continue
		}
		if err := o.z.step(i, tr.m.Z.RawRowView(i), gr.Z[r*K:(r+1)*K]); err != nil {
			return 0, nil, fmt.Errorf("adam step on z of graph %d: %w", i, err)
		}
	}
	for j, tg := range gr.TermParams {
		if tg == nil {
			continue
		}
		for q, p := range o.terms[j].params {
			copy(p.gradData(), tg[q])
		}
		if err := o.terms[j].step(); err != nil {
			return 0, nil, fmt.Errorf("adam step on term %d: %w", j, err)
		}
	}
	return gr.Loss, gr.Terms, nil
}

// paramNode is a node of g whose value is t (shared, not copied): Adam's in-place updates of t
// are what the next batch's graph reads.
func paramNode(g *gorgonia.ExprGraph, name string, t *tensor.Dense) *gorgonia.Node {
	return gorgonia.NodeFromAny(g, t, gorgonia.WithName(name))
}
