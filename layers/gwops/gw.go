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

// Space is one side of a (fused) GW problem inside an expression graph: a structure node C
// (n×n, non-negative), its fixed node distribution Mu, and an optional feature node F (n×d).
type Space struct {
	C  *gorgonia.Node
	Mu []float64
	F  *gorgonia.Node
}

func (s Space) check(what string) error {
	if s.C == nil || s.C.Dims() != 2 || s.C.Shape()[0] != s.C.Shape()[1] {
		return errorf("%s: C must be a square matrix node", what)
	}
	if n := s.C.Shape()[0]; len(s.Mu) != n {
		return errorf("%s: mu has %d entries for %d nodes", what, len(s.Mu), n)
	}
	if s.F != nil && (s.F.Dims() != 2 || s.F.Shape()[0] != s.C.Shape()[0]) {
		return errorf("%s: F must be a matrix node with one row per node", what)
	}
	return nil
}

func checkSpaces(src, dst Space) error {
	if err := src.check("source"); err != nil {
		return err
	}
	if err := dst.check("target"); err != nil {
		return err
	}
	if (src.F == nil) != (dst.F == nil) || (src.F != nil && src.F.Shape()[1] != dst.F.Shape()[1]) {
		return errorf("the two sides' features differ (one has none, or their dimensions differ)")
	}
	return nil
}

// Transport adds a GWD module (any layers.Solver: PPA, BADMM, …) between src and dst to g: a
// node holding the transport T (ns×nt, rows = src nodes), computed from the current values of
// the structure (and feature) nodes when the machine runs. It is detached: no gradient flows
// through it (the envelope theorem); differentiate Discrepancy instead.
func Transport(g *gorgonia.ExprGraph, s layers.Solver, src, dst Space) (*gorgonia.Node, error) {
	if s == nil {
		return nil, errorf("gwd node: no solver")
	}
	if err := checkSpaces(src, dst); err != nil {
		return nil, fmt.Errorf("gwd node: %w", err)
	}
	op := &gwdOp{solver: s, src: src.Mu, dst: dst.Mu, features: src.F != nil}
	inputs := gorgonia.Nodes{src.C, dst.C}
	if op.features {
		op.dim = src.F.Shape()[1]
		inputs = append(inputs, src.F, dst.F)
	}
	t, err := gorgonia.ApplyOp(op, inputs...)
	if err != nil {
		return nil, fmt.Errorf("gwd node: %w", err)
	}
	return t, nil
}

// Discrepancy adds the (fused) GW objective <Cst − 2·Cs·T·Ctᵀ + w·D, T> for the transport node
// t (treated as a constant) to g: eq. (5) with D_ij = ‖Fs_i − Ft_j‖². It is differentiable in
// both structure nodes and both feature nodes — the envelope-theorem gradient of the GW
// discrepancy when t is the optimal (or unrolled) transport.
func Discrepancy(g *gorgonia.ExprGraph, t *gorgonia.Node, src, dst Space, weight float64) (*gorgonia.Node, error) {
	if err := checkSpaces(src, dst); err != nil {
		return nil, fmt.Errorf("gw discrepancy node: %w", err)
	}
	if t == nil || t.Dims() != 2 || t.Shape()[0] != len(src.Mu) || t.Shape()[1] != len(dst.Mu) {
		return nil, errorf("gw discrepancy node: the transport must be %d×%d", len(src.Mu), len(dst.Mu))
	}
	e := &exprBuilder{g: g}
	d := discrepancyExpr(e, t, src.C, src.F, dst.C, dst.F, src.Mu, dst.Mu, weight)
	if e.err != nil {
		return nil, fmt.Errorf("gw discrepancy node: %w", e.err)
	}
	return d, nil
}

// GWD adds both: the detached transport T between src and dst and the discrepancy for it.
func GWD(g *gorgonia.ExprGraph, s layers.Solver, src, dst Space) (value, transport *gorgonia.Node, err error) {
	if transport, err = Transport(g, s, src, dst); err != nil {
		return nil, nil, err
	}
	if value, err = Discrepancy(g, transport, src, dst, s.FeatureWeight()); err != nil {
		return nil, nil, err
	}
	return value, transport, nil
}

// Barycenter adds the GWB module (Algorithm 3) to g: the barycenter of the atoms with weights
// lambda (a K-vector node, e.g. SoftMax(z)), started from init (the observed graph, as in the
// paper: its structure, its node distribution — which the barycenter keeps — and its features
// when the atoms have them). It returns B (n×n) and, with features, F_b (n×d):
//
//	B = (Σ_k λ_k·T_k·ReLU(V_k)·T_kᵀ) ⊘ (μ·μᵀ),   F_b = (Σ_k λ_k·T_k·H_k) ⊘ (μ·1ᵀ),
//
// expressions differentiable in V_k, H_k and λ over the atom transports T_k of the last layer,
// which are computed when the machine runs and detached.
func Barycenter(g *gorgonia.ExprGraph, gwb layers.GWB, atoms []AtomNodes, lambda *gorgonia.Node, init layers.Space) (b, fb *gorgonia.Node, err error) {
	if err := init.Validate("barycenter init"); err != nil {
		return nil, nil, err
	}
	op, packed, err := transports(g, layers.Forward{GWB: gwb}, atoms, lambda, init, true, true)
	if err != nil {
		return nil, nil, fmt.Errorf("gwb node: %w", err)
	}
	e := &exprBuilder{g: g}
	tks, _ := unpack(e, packed, init.N(), op.sizes, false)
	b, fb = barycenterExpr(e, atoms, lambda, tks, init.Mu)
	if e.err != nil {
		return nil, nil, fmt.Errorf("gwb node: %w", e.err)
	}
	return b, fb, nil
}

// gwdOp solves a GWD on its inputs' values (Cs, Ct[, Fs, Ft]) and returns T; detached.
type gwdOp struct {
	plainOp
	solver   layers.Solver
	src, dst []float64
	features bool
	dim      int
	state    layers.State
}

func (op *gwdOp) Arity() int {
	if op.features {
		return 4
	}
	return 2
}

func (op *gwdOp) Type() hm.Type {
	mat2 := gorgonia.TensorType{Dims: 2, Of: tensor.Float64}
	ts := make([]hm.Type, 0, op.Arity()+1)
	for i := 0; i <= op.Arity(); i++ {
		ts = append(ts, mat2)
	}
	return hm.NewFnType(ts...)
}

func (op *gwdOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{len(op.src), len(op.dst)}, nil
}

func (op *gwdOp) Do(values ...gorgonia.Value) (gorgonia.Value, error) {
	ns, nt := len(op.src), len(op.dst)
	cs, err := float64s(values[0], ns*ns)
	if err != nil {
		return nil, fmt.Errorf("gwd node: Cs: %w", err)
	}
	ct, err := float64s(values[1], nt*nt)
	if err != nil {
		return nil, fmt.Errorf("gwd node: Ct: %w", err)
	}
	src := layers.Space{C: mat.NewDense(ns, ns, cs), Mu: op.src}
	dst := layers.Space{C: mat.NewDense(nt, nt, ct), Mu: op.dst}
	if op.features {
		fs, err := float64s(values[2], ns*op.dim)
		if err != nil {
			return nil, fmt.Errorf("gwd node: Fs: %w", err)
		}
		ft, err := float64s(values[3], nt*op.dim)
		if err != nil {
			return nil, fmt.Errorf("gwd node: Ft: %w", err)
		}
		src.F, dst.F = mat.NewDense(ns, op.dim, fs), mat.NewDense(nt, op.dim, ft)
	}
	if err := src.Validate("source"); err != nil {
		return nil, fmt.Errorf("gwd node: %w", err)
	}
	if err := dst.Validate("target"); err != nil {
		return nil, fmt.Errorf("gwd node: %w", err)
	}
	// Op.Do takes no context and the op holds none: the solve runs to the end.
	if err := layers.Solve(context.Background(), op.solver, &op.state, src, dst); err != nil {
		return nil, fmt.Errorf("gwd node: %w", err)
	}
	t := append([]float64(nil), op.state.RawTransport()...)
	return tensor.New(tensor.WithShape(ns, nt), tensor.WithBacking(t)), nil
}

// WriteHash makes every instance distinct (Gorgonia merges nodes with equal hashes).
func (op *gwdOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "gwf-gwd-%p", op) }

func (op *gwdOp) Hashcode() uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}

func (op *gwdOp) String() string {
	return fmt.Sprintf("GWD(%s,%d×%d)", op.solver.Name(), len(op.src), len(op.dst))
}

// DiffWRT says the transport is a constant for differentiation (detached).
func (op *gwdOp) DiffWRT(inputs int) []bool { return make([]bool, inputs) }

// SymDiff is never reached for a detached op; it returns no gradient for any input.
func (op *gwdOp) SymDiff(inputs gorgonia.Nodes, _, _ *gorgonia.Node) (gorgonia.Nodes, error) {
	return make(gorgonia.Nodes, len(inputs)), nil
}
