package gwops

import (
	"context"
	"fmt"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/layers"
)

// transportOp is a Gorgonia op that runs the forward pass (layers.GWB and the final GWD) on the
// current values of V_1..V_K, [H_1..H_K] and z, and returns every transport packed in one
// vector: T_1 (n×N_1), …, T_K (n×N_K), then T (n×n), each row-major. It declares itself
// non-differentiable in all inputs, which is how the transports are detached: no gradient
// flows through them (the envelope theorem), only through the expression built on top.
type transportOp struct {
	plainOp
	forward     layers.Forward
	obs         layers.Space
	weights     bool // the last input is λ itself, not z (λ = softmax(z))
	barycentric bool // GWB only: no final GWD, T_1..T_K only
	atomMus     [][]float64
	sizes       []int
	features    bool

	// reused between runs
	state  layers.ForwardState
	atoms  []layers.Atom
	lambda []float64
}

func (op *transportOp) k() int { return len(op.sizes) }

func (op *transportOp) outLen() int {
	n := op.obs.N()
	total := n * n
	if op.barycentric {
		total = 0
	}
	for _, nk := range op.sizes {
		total += n * nk
	}
	return total
}

func (op *transportOp) Arity() int {
	if op.features {
		return 2*op.k() + 1
	}
	return op.k() + 1
}

func (op *transportOp) Type() hm.Type {
	mat2 := gorgonia.TensorType{Dims: 2, Of: tensor.Float64}
	vec := gorgonia.TensorType{Dims: 1, Of: tensor.Float64}
	ts := make([]hm.Type, 0, op.Arity()+1)
	for i := 0; i < op.Arity()-1; i++ {
		ts = append(ts, mat2)
	}
	ts = append(ts, vec, vec)
	return hm.NewFnType(ts...)
}

func (op *transportOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.outLen()}, nil
}

func (op *transportOp) Do(values ...gorgonia.Value) (gorgonia.Value, error) {
	if len(values) != op.Arity() {
		return nil, fmt.Errorf("gwf transports: %d inputs, want %d", len(values), op.Arity())
	}
	K := op.k()
	if op.atoms == nil {
		op.atoms = make([]layers.Atom, K)
		op.lambda = make([]float64, K)
		for k, nk := range op.sizes {
			op.atoms[k] = layers.Atom{U: mat.NewDense(nk, nk, nil), Mu: op.atomMus[k]}
		}
	}
	for k, nk := range op.sizes {
		v, err := float64s(values[k], nk*nk)
		if err != nil {
			return nil, fmt.Errorf("gwf transports: V_%d: %w", k, err)
		}
		layers.ReLU(op.atoms[k].U, mat.NewDense(nk, nk, v))
		if op.features {
			_, d := op.obs.F.Dims()
			h, err := float64s(values[K+k], nk*d)
			if err != nil {
				return nil, fmt.Errorf("gwf transports: H_%d: %w", k, err)
			}
			op.atoms[k].H = mat.NewDense(nk, d, h)
		}
	}
	z, err := float64s(values[len(values)-1], K)
	if err != nil {
		return nil, fmt.Errorf("gwf transports: weights: %w", err)
	}
	if op.weights {
		copy(op.lambda, z)
	} else {
		layers.Softmax(op.lambda, z)
	}
	out := make([]float64, 0, op.outLen())
	// Op.Do takes no context and the op holds none: the solves run to the end.
	ctx := context.Background()
	if op.barycentric {
		if err := op.forward.GWB.Compute(ctx, &op.state.GWB, op.atoms, op.lambda, op.obs); err != nil {
			return nil, fmt.Errorf("gwf transports: %w", err)
		}
		for k := range op.sizes {
			out = append(out, op.state.GWB.RawTransport(k)...)
		}
		return tensor.New(tensor.WithShape(len(out)), tensor.WithBacking(out)), nil
	}
	if err := op.forward.Run(ctx, &op.state, op.atoms, op.lambda, op.obs); err != nil {
		return nil, fmt.Errorf("gwf transports: %w", err)
	}
	for k := range op.sizes {
		out = append(out, op.state.GWB.RawTransport(k)...)
	}
	out = append(out, op.state.RawTransport()...)
	return tensor.New(tensor.WithShape(len(out)), tensor.WithBacking(out)), nil
}

// float64s returns a value's float64 data, checking its length.
func float64s(v gorgonia.Value, n int) ([]float64, error) {
	data, ok := v.Data().([]float64)
	if !ok {
		return nil, fmt.Errorf("%w: value of type %T is not float64", layers.ErrInput, v.Data())
	}
	if len(data) != n {
		return nil, fmt.Errorf("%w: %d entries, want %d", layers.ErrInput, len(data), n)
	}
	return data, nil
}

// WriteHash makes every instance distinct: Gorgonia merges nodes with equal hashes, and two
// losses on different graphs must never be merged.
func (op *transportOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "gwf-transports-%p", op) }

func (op *transportOp) Hashcode() uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}

func (op *transportOp) String() string {
	return fmt.Sprintf("GWFTransports(K=%d,n=%d)", op.k(), op.obs.N())
}

// DiffWRT says the transports are constants for differentiation (detached).
func (op *transportOp) DiffWRT(inputs int) []bool { return make([]bool, inputs) }

// SymDiff is never reached for a detached op; it returns no gradient for any input.
func (op *transportOp) SymDiff(inputs gorgonia.Nodes, output, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	return make(gorgonia.Nodes, len(inputs)), nil
}
