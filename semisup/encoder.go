package semisup

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/csr"
	"github.com/gwf-graphs/gwf/layers/tape"
)

// EncoderKind names what computes a model's embeddings or node features: nothing (free
// embeddings, or the graphs' own features) or a message-passing graph encoder; its JSON is the
// name. Each setting says which kinds it takes (Config.Encoder, TemplateConfig.Encoder,
// GNN.Kind).
type EncoderKind string

// The encoder kinds: free embeddings (one learned z_i per graph, the paper's model), or a
// message-passing graph encoder z_i = f(G_i). TemplateConfig.Encoder also takes EncoderAuto, a
// choice between EncoderNone and EncoderGIN.
const (
	EncoderNone EncoderKind = "none"
	EncoderGCN  EncoderKind = "gcn"
	EncoderGIN  EncoderKind = "gin"
)

// IsGNN reports whether e is a graph neural network: EncoderGCN or EncoderGIN.
func (e EncoderKind) IsGNN() bool { return e == EncoderGCN || e == EncoderGIN }

// IsFree reports whether e is no encoder: EncoderNone or "".
func (e EncoderKind) IsFree() bool { return e == "" || e == EncoderNone }

// DefaultEncoderHidden are an encoder's hidden widths when none are given (Config.EncoderHidden,
// EncoderTrainer.Hidden, TemplateConfig's default): two layers of 32.
func DefaultEncoderHidden() []int { return []int{32, 32} }

// GNN is a message-passing graph encoder: hidden layers H_l = ReLU(P·H_{l−1}·W_l + 1·b_lᵀ) from
// the node features H_0 = X, a permutation-invariant readout r of the last layer's rows, and
// z = r·W_out + b_out. GCN (Kipf and Welling 2017): P = D^{−1/2}(A+I)D^{−1/2} with D the degrees
// of A+I, r the mean. GIN (Xu et al. 2019, ε = 0, a one-layer MLP per layer): sum aggregation
// P = (A + I)/(1 + mean degree) and sum readout r = Σ rows/√n — the sums of GIN, rescaled per
// graph so that dense graphs do not overflow (see prepare). X is the graph's node features (one-hot labels or
// attributes) or, for graphs without, one-hot degrees (16 bins). The last entry of W and B is
// the output layer.
type GNN struct {
	Kind EncoderKind // EncoderGCN or EncoderGIN
	W    []*mat.Dense
	B    [][]float64
}

// NewGNN makes an encoder from in node features through the hidden widths to k outputs, with
// Glorot-uniform weights (seeded) and zero biases.
func NewGNN(kind EncoderKind, in int, hidden []int, k int, rng *rand.Rand) (*GNN, error) {
	if !kind.IsGNN() {
		return nil, fmt.Errorf("gnn: kind %q, want gcn or gin", kind)
	}
	if in < 1 || k < 1 || len(hidden) == 0 {
		return nil, fmt.Errorf("gnn: %d inputs, %d outputs and %d hidden layers (need ≥ 1 each)", in, k, len(hidden))
	}
	e := &GNN{Kind: kind}
	sizes := append(append([]int{in}, hidden...), k)
	for l := 0; l+1 < len(sizes); l++ {
		a, b := sizes[l], sizes[l+1]
		if b < 1 || b > maxWidth {
			return nil, fmt.Errorf("gnn: layer %d has %d units (1 to %d)", l+1, b, maxWidth)
		}
		limit := math.Sqrt(6 / float64(a+b))
		w := mat.NewDense(a, b, nil)
		for i := 0; i < a; i++ {
			for j := 0; j < b; j++ {
				w.Set(i, j, (2*rng.Float64()-1)*limit)
			}
		}
		e.W = append(e.W, w)
		e.B = append(e.B, make([]float64, b))
	}
	return e, nil
}

// maxWidth bounds a layer's width (a model file or flag asking for more is refused).
const maxWidth = 4096

// InputDim is the width of the node features the encoder reads for graphs with dim-dimensional
// features (0: degree features).
func InputDim(dim int) int {
	if dim == 0 {
		return graphs.DegreeBins // graphs.OneHotDegrees
	}
	return dim
}

// Outputs is the embedding width K.
func (e *GNN) Outputs() int { _, c := e.W[len(e.W)-1].Dims(); return c }

// Inputs is the node-feature width.
func (e *GNN) Inputs() int { r, _ := e.W[0].Dims(); return r }

// Params are W_l then b_l (as 1×c matrices), sharing the encoder's storage.
func (e *GNN) Params() []*tensor.Dense {
	var ps []*tensor.Dense
	for _, w := range e.W {
		r, c := w.Dims()
		ps = append(ps, tensor.New(tensor.WithShape(r, c), tensor.WithBacking(w.RawMatrix().Data)))
	}
	for _, b := range e.B {
		ps = append(ps, tensor.New(tensor.WithShape(1, len(b)), tensor.WithBacking(b)))
	}
	return ps
}

// prepared is one graph's propagation matrix and node features, computed once, and the factor
// of its readout.
type prepared struct {
	p       *csr.Matrix
	x       *tensor.Dense
	n       int
	readout float64
	// wl are, with a template model's Weisfeiler-Lehman labels, each node's column in each
	// iteration's vocabulary (n × iterations, row-major; −1: none), which readRows spreads
	// one-hot beside x a batch at a time rather than holding the wide rows of every graph.
	wl []int32
}

// prepare computes P and X of a graph for this encoder.
func (e *GNN) prepare(g *graphs.Graph) (prepared, error) {
	n := g.N()
	if want := e.Inputs(); InputDim(g.Dim()) != want {
		return prepared{}, fmt.Errorf("gnn: graph %q has %d node features, the encoder reads %d", g.Name, InputDim(g.Dim()), want)
	}
	rowPtr, col, val := selfLoops(g)
	readout := 1 / float64(n) // GCN: the mean of the rows
	if e.Kind == EncoderGIN {
		// Sum aggregation over A + I and a sum readout grow like the degree and the size: on
		// IMDB-BINARY's dense ego-networks (degrees up to 135) two layers would overflow the
		// head's log-softmax. Dividing P by 1 + the mean degree and the readout by √n keeps the
		// sums' relative weights within a graph and a bounded scale across graphs.
		edges := 0.0
		for _, v := range val {
			edges += v
		}
		meanDeg := (edges - float64(n)) / float64(n)
		for q := range val {
			val[q] /= 1 + meanDeg
		}
		readout = 1 / math.Sqrt(float64(n))
	}
	if e.Kind == EncoderGCN {
		deg := make([]float64, n)
		for i := 0; i < n; i++ {
			for q := rowPtr[i]; q < rowPtr[i+1]; q++ {
				deg[i] += val[q]
			}
		}
		for i := 0; i < n; i++ {
			for q := rowPtr[i]; q < rowPtr[i+1]; q++ {
				val[q] /= math.Sqrt(deg[i] * deg[col[q]])
			}
		}
	}
	p, err := csr.New(n, rowPtr, col, val)
	if err != nil {
		return prepared{}, fmt.Errorf("gnn: graph %q: %w", g.Name, err)
	}
	d := InputDim(g.Dim())
	x := inputFeatures(g)
	return prepared{p: p, x: tensor.New(tensor.WithShape(n, d), tensor.WithBacking(x)), n: n, readout: readout}, nil
}

// inputFeatures are the node features an encoder reads (n×InputDim, row-major): the graph's
// own, or one-hot degrees for a graph without.
func inputFeatures(g *graphs.Graph) []float64 {
	n, d := g.N(), InputDim(g.Dim())
	if g.Dim() > 0 {
		return append([]float64(nil), mat.DenseCopyOf(g.F).RawMatrix().Data...)
	}
	x := make([]float64, n*d)
	graphs.OneHotDegrees(g.A, x)
	return x
}

// selfLoops returns A + I of g in compressed rows (csr.New's arguments), for the caller to
// normalise before making the matrix.
func selfLoops(g *graphs.Graph) (rowPtr []int, col []int32, val []float64) {
	n := g.N()
	rowPtr = make([]int, n+1)
	for i := 0; i < n; i++ {
		cols, vals := g.A.Row(i)
		diag := false
		for q, j := range cols {
			if !diag && int(j) >= i {
				diag = true
				if int(j) == i {
					col, val = append(col, j), append(val, vals[q]+1)
					continue
				}
				col, val = append(col, int32(i)), append(val, 1)
			}
			col, val = append(col, j), append(val, vals[q])
		}
		if !diag {
			col, val = append(col, int32(i)), append(val, 1)
		}
		rowPtr[i+1] = len(col)
	}
	return rowPtr, col, val
}

// Bind returns the encoder of data as the trainer takes it (training.Encoder): it computes
// every graph's P and X once.
func (e *GNN) Bind(data []*graphs.Graph) (*BoundGNN, error) {
	b := &BoundGNN{gnn: e, graphs: make([]prepared, len(data))}
	for i, g := range data {
		var err error
		if b.graphs[i], err = e.prepare(g); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// BoundGNN is a GNN bound to a dataset; it implements training.Encoder.
type BoundGNN struct {
	gnn    *GNN
	graphs []prepared
}

// Params implements training.Encoder.
func (b *BoundGNN) Params() []*tensor.Dense { return b.gnn.Params() }

// Encode implements training.Encoder: the embeddings of the graphs batch (B×K).
func (b *BoundGNN) Encode(g *gorgonia.ExprGraph, params gorgonia.Nodes, batch []int) (*gorgonia.Node, error) {
	e := b.gnn
	nl := len(e.W)
	w, bias := params[:nl], params[nl:]
	// The whole batch as one graph: P block-diagonal, X stacked, and the readout a pooling
	// matrix R (B×N) whose row r holds graph r's readout weights. A handful of nodes per batch
	// rather than a dozen per graph: Gorgonia merges two nodes whose 32-bit hashes collide when
	// their op and shape agree, which thousands of per-graph nodes made happen.
	total := 0
	for _, i := range batch {
		if i < 0 || i >= len(b.graphs) {
			return nil, fmt.Errorf("gnn: graph %d of %d", i, len(b.graphs))
		}
		total += b.graphs[i].n
	}
	d := e.Inputs()
	rowPtr, col, val := make([]int, 1, total+1), []int32(nil), []float64(nil)
	xData := make([]float64, 0, total*d)
	rData := make([]float64, len(batch)*total)
	off := 0
	for r, i := range batch {
		pg := b.graphs[i]
		for a := 0; a < pg.n; a++ {
			cols, vals := pg.p.Row(a)
			for q, j := range cols {
				col, val = append(col, j+int32(off)), append(val, vals[q])
			}
			rowPtr = append(rowPtr, len(col))
			rData[r*total+off+a] = pg.readout
		}
		xData = append(xData, pg.x.Data().([]float64)...)
		off += pg.n
	}
	pb, err := csr.New(total, rowPtr, col, val) // block diagonal
	if err != nil {
		return nil, fmt.Errorf("gnn: %w", err)
	}
	propagate := newSparseMulOp(pb)
	h := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(total, d), tensor.WithBacking(xData)), gorgonia.WithName("gnn_X"))
	pool := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(len(batch), total), tensor.WithBacking(rData)), gorgonia.WithName("gnn_R"))
	for l := 0; l < nl-1; l++ {
		ph, err := gorgonia.ApplyOp(propagate, h)
		if err != nil {
			return nil, err
		}
		lin, err := gorgonia.Mul(ph, w[l])
		if err != nil {
			return nil, err
		}
		if lin, err = gorgonia.BroadcastAdd(lin, bias[l], nil, []byte{0}); err != nil {
			return nil, err
		}
		if h, err = relu(lin); err != nil {
			return nil, err
		}
	}
	readout, err := gorgonia.Mul(pool, h)
	if err != nil {
		return nil, err
	}
	z, err := gorgonia.Mul(readout, w[nl-1])
	if err != nil {
		return nil, err
	}
	return gorgonia.BroadcastAdd(z, bias[nl-1], nil, []byte{0})
}

// Embed computes the embeddings of data (one row per graph) with a forward pass — how an
// encoder model embeds graphs it has never seen.
func (e *GNN) Embed(data []*graphs.Graph) (*mat.Dense, error) {
	b, err := e.Bind(data)
	if err != nil {
		return nil, err
	}
	out := mat.NewDense(len(data), e.Outputs(), nil)
	const chunk = 32
	for s := 0; s < len(data); s += chunk {
		batch := make([]int, 0, chunk)
		for i := s; i < min(s+chunk, len(data)); i++ {
			batch = append(batch, i)
		}
		g, z, err := tape.Build(func() (*gorgonia.ExprGraph, *gorgonia.Node, error) {
			g := gorgonia.NewGraph()
			var pn gorgonia.Nodes
			for q, p := range e.Params() {
				pn = append(pn, gorgonia.NodeFromAny(g, p, gorgonia.WithName(fmt.Sprintf("enc_%d", q))))
			}
			z, err := b.Encode(g, pn, batch)
			return g, z, err
		})
		if err != nil {
			return nil, err
		}
		vm := gorgonia.NewTapeMachine(g)
		err = vm.RunAll()
		vm.Close()
		if err != nil {
			return nil, fmt.Errorf("gnn: %w", err)
		}
		vals := z.Value().Data().([]float64)
		for r, i := range batch {
			out.SetRow(i, vals[r*e.Outputs():(r+1)*e.Outputs()])
		}
	}
	return out, nil
}
