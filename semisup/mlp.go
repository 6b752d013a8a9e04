package semisup

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Activation is the nonlinearity of an MLP's hidden layers; its JSON is the name.
type Activation string

// The activations of an MLP's hidden layers.
const (
	ReLU Activation = "relu"
	Tanh Activation = "tanh"
)

// Valid reports whether a is ReLU or Tanh.
func (a Activation) Valid() bool { return a == ReLU || a == Tanh }

// MLP is the classifier head: hidden layers with an activation, then a linear layer to the
// class scores (no hidden layer: a linear classifier). Layer l maps x ↦ x·W_l + b_l.
type MLP struct {
	Activation Activation   `json:"activation"`
	W          []*mat.Dense `json:"-"`
	B          [][]float64  `json:"-"`
}

// NewMLP makes a head from in inputs through the hidden sizes to classes outputs, with
// Glorot-uniform weights (seeded) and zero biases.
func NewMLP(in int, hidden []int, classes int, activation Activation, rng *rand.Rand) (*MLP, error) {
	if !activation.Valid() {
		return nil, fmt.Errorf("mlp: activation %q, want relu or tanh", activation)
	}
	if in < 1 || classes < 2 {
		return nil, fmt.Errorf("mlp: %d inputs and %d classes (need at least 1 and 2)", in, classes)
	}
	m := &MLP{Activation: activation}
	sizes := append(append([]int{in}, hidden...), classes)
	for l := 0; l+1 < len(sizes); l++ {
		a, b := sizes[l], sizes[l+1]
		if b < 1 {
			return nil, fmt.Errorf("mlp: hidden layer %d has %d units", l+1, b)
		}
		limit := math.Sqrt(6 / float64(a+b))
		w := mat.NewDense(a, b, nil)
		for i := 0; i < a; i++ {
			for j := 0; j < b; j++ {
				w.Set(i, j, (2*rng.Float64()-1)*limit)
			}
		}
		m.W = append(m.W, w)
		m.B = append(m.B, make([]float64, b))
	}
	return m, nil
}

// Classes is the number of outputs.
func (m *MLP) Classes() int { _, c := m.W[len(m.W)-1].Dims(); return c }

// Inputs is the input width.
func (m *MLP) Inputs() int { r, _ := m.W[0].Dims(); return r }

// Logits computes the class scores of the rows of x (pure Go, for prediction).
func (m *MLP) Logits(x *mat.Dense) *mat.Dense {
	h := mat.DenseCopyOf(x)
	for l, w := range m.W {
		var next mat.Dense
		next.Mul(h, w)
		r, c := next.Dims()
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				v := next.At(i, j) + m.B[l][j]
				if l+1 < len(m.W) {
					v = activate(m.Activation, v)
				}
				next.Set(i, j, v)
			}
		}
		h = &next
	}
	return h
}

func activate(a Activation, v float64) float64 {
	if a == Tanh {
		return math.Tanh(v)
	}
	return math.Max(v, 0)
}

// Predict returns the arg-max class of each row of x.
func (m *MLP) Predict(x *mat.Dense) []int {
	lg := m.Logits(x)
	r, c := lg.Dims()
	out := make([]int, r)
	for i := 0; i < r; i++ {
		best := 0
		for j := 1; j < c; j++ {
			if lg.At(i, j) > lg.At(i, best) {
				best = j
			}
		}
		out[i] = best
	}
	return out
}

// nodes are the head's parameters as Gorgonia nodes sharing the MLP's storage.
type mlpNodes struct {
	w, b gorgonia.Nodes
}

func (m *MLP) nodes(g *gorgonia.ExprGraph) mlpNodes {
	var n mlpNodes
	for l, w := range m.W {
		r, c := w.Dims()
		n.w = append(n.w, gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(r, c), gorgonia.WithName(fmt.Sprintf("mlp_W%d", l)),
			gorgonia.WithValue(tensor.New(tensor.WithShape(r, c), tensor.WithBacking(w.RawMatrix().Data)))))
		n.b = append(n.b, gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(1, c), gorgonia.WithName(fmt.Sprintf("mlp_b%d", l)),
			gorgonia.WithValue(tensor.New(tensor.WithShape(1, c), tensor.WithBacking(m.B[l])))))
	}
	return n
}

// logits builds x·W_1 + b_1 → activation → … → class scores, for x a B×in node.
func (m *MLP) logits(x *gorgonia.Node, n mlpNodes) (*gorgonia.Node, error) {
	h := x
	for l := range n.w {
		var err error
		if h, err = gorgonia.Mul(h, n.w[l]); err != nil {
			return nil, err
		}
		if h, err = gorgonia.BroadcastAdd(h, n.b[l], nil, []byte{0}); err != nil {
			return nil, err
		}
		if l+1 < len(n.w) {
			if m.Activation == Tanh {
				h, err = gorgonia.Tanh(h)
			} else {
				h, err = relu(h)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return h, nil
}
