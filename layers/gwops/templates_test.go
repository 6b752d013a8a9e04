package gwops

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/layers"
)

// templateProblem is a batch of random graphs with node features and K random templates.
type templateProblem struct {
	obs    []layers.Space
	x      []float64 // the graphs' features, stacked
	v, h   []*mat.Dense
	mus    [][]float64
	weight float64
	// logits, when set, are learned node weights (Template.Logits); mus is then ignored.
	logits [][]float64
}

func newTemplateProblem(seed uint64, graphs, templates, d int) templateProblem {
	rng := rand.New(rand.NewPCG(seed, 7))
	p := templateProblem{weight: 0.7}
	for b := 0; b < graphs; b++ {
		s := randomSpace(rng, 4+b%3, 0.5, 1, false, d)
		p.x = append(p.x, s.F.RawMatrix().Data...)
		p.obs = append(p.obs, layers.Space{C: s.C, Mu: s.Mu})
	}
	for k := 0; k < templates; k++ {
		s := randomSpace(rng, 3+k%2, 0.8, 1, false, d)
		n := s.N()
		v := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j <= i; j++ {
				x := rng.Float64()*1.5 - 0.3 // some entries below 0: the ReLU masks them
				v.Set(i, j, x)
				v.Set(j, i, x)
			}
		}
		p.v, p.h, p.mus = append(p.v, v), append(p.h, s.F), append(p.mus, s.Mu)
	}
	return p
}

func (p templateProblem) dim() int { _, d := p.h[0].Dims(); return d }

// build adds the layer and the scalar Σ_bk G[b][k]·D[b][k] to a new graph; it returns the
// graph, the scalar, the discrepancies and the parameter nodes (V_k, H_k, X).
func (p templateProblem) build(t *testing.T, l Templates, g []float64) (*gorgonia.ExprGraph, *gorgonia.Node, *gorgonia.Node, gorgonia.Nodes) {
	t.Helper()
	eg := gorgonia.NewGraph()
	var ts []Template
	var params gorgonia.Nodes
	for k, v := range p.v {
		n, _ := v.Dims()
		vn := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(n, n), tensor.WithBacking(append([]float64(nil), v.RawMatrix().Data...))), gorgonia.WithName("V"+string(rune('a'+k))))
		ts = append(ts, Template{V: vn, Mu: p.mus[k]})
		params = append(params, vn)
	}
	for k, h := range p.h {
		n, d := h.Dims()
		hn := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(n, d), tensor.WithBacking(append([]float64(nil), h.RawMatrix().Data...))), gorgonia.WithName("H"+string(rune('a'+k))))
		ts[k].H = hn
		params = append(params, hn)
	}
	x := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(len(p.x)/p.dim(), p.dim()), tensor.WithBacking(append([]float64(nil), p.x...))), gorgonia.WithName("X"))
	params = append(params, x)
	for k, lg := range p.logits {
		ln := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(1, len(lg)), tensor.WithBacking(append([]float64(nil), lg...))), gorgonia.WithName("L"+string(rune('a'+k))))
		ts[k].Logits = ln
		params = append(params, ln)
	}
	d, err := l.Build(eg, ts, x, nil, p.obs, nil)
	if err != nil {
		t.Fatal(err)
	}
	gn := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(len(p.obs), len(p.v)), tensor.WithBacking(g)), gorgonia.WithName("G"))
	s := gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(d, gn))))
	return eg, s, d, params
}

// readValue copies n's value when the machine computes it (an in-place op later in the graph
// may overwrite it).
func readValue(n *gorgonia.Node) (*gorgonia.Node, *gorgonia.Value) {
	var v gorgonia.Value
	return gorgonia.Read(n, &v), &v
}

// run evaluates the scalar (and its gradients when grads).
func (p templateProblem) run(t *testing.T, l Templates, g []float64, grads bool) (float64, []float64, [][]float64) {
	t.Helper()
	eg, s, d, params := p.build(t, l, g)
	_, dv := readValue(d)
	if grads {
		if _, err := gorgonia.Grad(s, params...); err != nil {
			t.Fatal(err)
		}
	}
	m := gorgonia.NewTapeMachine(eg)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	var out [][]float64
	if grads {
		for _, n := range params {
			gv, err := n.Grad()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, append([]float64(nil), gv.Data().([]float64)...))
		}
	}
	return s.Value().Data().(float64), append([]float64(nil), (*dv).Data().([]float64)...), out
}

func exactCG(w float64) layers.CG {
	c := layers.DefaultCG()
	c.Weight = w
	return c
}

// The layer's discrepancies are those of layers.Discrepancy with the same solver.
func TestTemplatesValues(t *testing.T) {
	p := newTemplateProblem(1, 3, 2, 2)
	l := Templates{Solver: exactCG(p.weight)}
	g := make([]float64, 6)
	_, d, _ := p.run(t, l, g, false)
	for b, o := range p.obs {
		n := o.N()
		xb := mat.NewDense(n, p.dim(), p.x[offset(p.obs, b)*p.dim():(offset(p.obs, b)+n)*p.dim()])
		for k := range p.v {
			u := mat.NewDense(len(p.mus[k]), len(p.mus[k]), nil)
			layers.ReLU(u, p.v[k])
			r, err := layers.Discrepancy(l.Solver, layers.Space{C: o.C, Mu: o.Mu, F: xb}, layers.Space{C: u, Mu: p.mus[k], F: p.h[k]})
			if err != nil {
				t.Fatal(err)
			}
			if got := d[b*len(p.v)+k]; math.Abs(got-r.Objective) > 1e-12*(1+r.Objective) {
				t.Errorf("D[%d][%d] = %v, layers.Discrepancy %v", b, k, got, r.Objective)
			}
			if got := d[b*len(p.v)+k]; got < 0 || math.IsNaN(got) {
				t.Errorf("D[%d][%d] = %v", b, k, got)
			}
		}
	}
}

func offset(obs []layers.Space, b int) int {
	s := 0
	for _, o := range obs[:b] {
		s += o.N()
	}
	return s
}

// The backward pass equals Gorgonia's own differentiation of the discrepancy expression
// (Discrepancy, written independently) at the same detached transports.
func TestTemplatesGradientsMatchExpression(t *testing.T) {
	p := newTemplateProblem(2, 3, 2, 3)
	l := Templates{Solver: exactCG(p.weight), Workers: 2}
	rng := rand.New(rand.NewPCG(3, 3))
	g := make([]float64, len(p.obs)*len(p.v))
	for i := range g {
		g[i] = rng.Float64()*2 - 0.5
	}
	_, _, got := p.run(t, l, g, true)

	// The same scalar as an expression over the transports the solver finds.
	eg := gorgonia.NewGraph()
	K := len(p.v)
	var params gorgonia.Nodes
	var vs, hs []*gorgonia.Node
	for k, v := range p.v {
		n, _ := v.Dims()
		vn := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(n, n), tensor.WithBacking(append([]float64(nil), v.RawMatrix().Data...))), gorgonia.WithName("v"+string(rune('a'+k))))
		vs, params = append(vs, vn), append(params, vn)
	}
	for k, h := range p.h {
		n, d := h.Dims()
		hn := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(n, d), tensor.WithBacking(append([]float64(nil), h.RawMatrix().Data...))), gorgonia.WithName("h"+string(rune('a'+k))))
		hs, params = append(hs, hn), append(params, hn)
	}
	x := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(len(p.x)/p.dim(), p.dim()), tensor.WithBacking(append([]float64(nil), p.x...))), gorgonia.WithName("x"))
	params = append(params, x)
	var total *gorgonia.Node
	for b, o := range p.obs {
		n, off := o.N(), offset(p.obs, b)
		xb := gorgonia.Must(gorgonia.Slice(x, gorgonia.S(off, off+n)))
		xbv := mat.NewDense(n, p.dim(), p.x[off*p.dim():(off+n)*p.dim()])
		for k := range p.v {
			u := mat.NewDense(len(p.mus[k]), len(p.mus[k]), nil)
			layers.ReLU(u, p.v[k])
			r, err := layers.Discrepancy(l.Solver, layers.Space{C: o.C, Mu: o.Mu, F: xbv}, layers.Space{C: u, Mu: p.mus[k], F: p.h[k]})
			if err != nil {
				t.Fatal(err)
			}
			tn := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(r.Transport.Dims()), tensor.WithBacking(r.Transport.RawMatrix().Data)), gorgonia.WithName(fmt.Sprintf("T%d_%d", b, k)))
			cn := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(n, n), tensor.WithBacking(o.C.RawMatrix().Data)), gorgonia.WithName(fmt.Sprintf("C%d_%d", b, k)))
			src := Space{C: cn, Mu: o.Mu, F: xb}
			dst := Space{C: gorgonia.Must(gorgonia.Rectify(vs[k])), Mu: p.mus[k], F: hs[k]}
			d, err := Discrepancy(eg, tn, src, dst, p.weight)
			if err != nil {
				t.Fatal(err)
			}
			term := gorgonia.Must(gorgonia.Mul(d, gorgonia.NewConstant(g[b*K+k])))
			if total == nil {
				total = term
			} else {
				total = gorgonia.Must(gorgonia.Add(total, term))
			}
		}
	}
	if _, err := gorgonia.Grad(total, params...); err != nil {
		t.Fatal(err)
	}
	m := gorgonia.NewTapeMachine(eg)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for k := range p.v {
		names = append(names, "V"+string(rune('0'+k)))
	}
	for k := range p.h {
		names = append(names, "H"+string(rune('0'+k)))
	}
	names = append(names, "X")
	for i, n := range params {
		gv, err := n.Grad()
		if err != nil {
			t.Fatal(err)
		}
		want := gv.Data().([]float64)
		if e := relErr(got[i], [][]float64{want}); e > 1e-9 {
			t.Errorf("gradient in %s: relative error %.3g against the expression's\n got %v\nwant %v", names[i], e, got[i], want)
		}
	}
}

// The backward pass is the derivative of the layer itself (transports re-solved) by central
// differences: the envelope theorem, for exact CG whose optimal transport does not move under
// a small perturbation.
func TestTemplatesGradientsFiniteDifferences(t *testing.T) {
	p := newTemplateProblem(4, 2, 2, 2)
	if checked, _ := p.checkFiniteDifferences(t); checked < 30 {
		t.Fatalf("only %d entries checked", checked)
	}
}

// checkFiniteDifferences compares the backward pass with central differences of the layer
// in every entry of every input (V_k, H_k, X, then the logits where learned), and returns the
// entries checked and how many of them were logits.
func (p templateProblem) checkFiniteDifferences(t *testing.T) (checked, logits int) {
	t.Helper()
	l := Templates{Solver: exactCG(p.weight)}
	g := []float64{1, -0.5, 0.3, 2}
	_, _, grads := p.run(t, l, g, true)
	const eps = 1e-6
	params := append(append(append([]*mat.Dense{}, p.v...), p.h...), mat.NewDense(len(p.x)/p.dim(), p.dim(), p.x))
	for _, lg := range p.logits {
		params = append(params, mat.NewDense(1, len(lg), lg))
	}
	for i, m := range params {
		data := m.RawMatrix().Data
		for j := range data {
			old := data[j]
			if i < len(p.v) && math.Abs(old) < 10*eps {
				continue // the ReLU's kink
			}
			data[j] = old + eps
			plus, _, _ := p.run(t, l, g, false)
			data[j] = old - eps
			minus, _, _ := p.run(t, l, g, false)
			data[j] = old
			fd := (plus - minus) / (2 * eps)
			if math.Abs(fd-grads[i][j]) > 1e-5*(1+math.Abs(fd)) {
				t.Errorf("input %d entry %d: backward %v, central difference %v", i, j, grads[i][j], fd)
			}
			checked++
			if i > 2*len(p.v) {
				logits++
			}
		}
	}
	return checked, logits
}

// Without node features the layer compares structures alone, and the gradient of the
// structures is the same formula.
func TestTemplatesStructureOnly(t *testing.T) {
	p := newTemplateProblem(5, 2, 3, 1)
	eg := gorgonia.NewGraph()
	var ts []Template
	var vs gorgonia.Nodes
	for k, v := range p.v {
		n, _ := v.Dims()
		vn := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(n, n), tensor.WithBacking(v.RawMatrix().Data)), gorgonia.WithName("V"+string(rune('a'+k))))
		ts, vs = append(ts, Template{V: vn, Mu: p.mus[k]}), append(vs, vn)
	}
	d, err := Templates{Solver: exactCG(0)}.Build(eg, ts, nil, nil, p.obs, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := gorgonia.Must(gorgonia.Sum(d))
	if _, err := gorgonia.Grad(s, vs...); err != nil {
		t.Fatal(err)
	}
	m := gorgonia.NewTapeMachine(eg)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	for i, v := range d.Value().Data().([]float64) {
		if !(v >= 0) {
			t.Errorf("D entry %d = %v", i, v)
		}
	}
	for _, v := range vs {
		gv, _ := v.Grad()
		if !finite(gv.Data().([]float64)) {
			t.Errorf("gradient of %s not finite", v.Name())
		}
	}
}

// A warm start from the last transports gives the same discrepancies when nothing moved, and a
// cancelled context stops the layer with the context's error.
func TestTemplatesWarmStartsAndContext(t *testing.T) {
	p := newTemplateProblem(6, 3, 2, 2)
	g := make([]float64, 6)
	cold := Templates{Solver: exactCG(p.weight)}
	_, d0, _ := p.run(t, cold, g, false)
	warm := Templates{Solver: exactCG(p.weight), Warm: NewWarmStarts()}
	_, d1, _ := p.run(t, warm, g, false)
	_, d2, _ := p.run(t, warm, g, false)
	for i := range d0 {
		if math.Abs(d1[i]-d0[i]) > 1e-12 || d2[i] > d1[i]+1e-12 {
			t.Errorf("pair %d: cold %v, first warm run %v, second %v", i, d0[i], d1[i], d2[i])
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	eg, _, _, _ := p.build(t, Templates{Solver: exactCG(p.weight), Context: ctx}, g)
	m := gorgonia.NewTapeMachine(eg)
	defer m.Close()
	err := m.RunAll()
	if err == nil {
		t.Fatal("a cancelled layer ran")
	}
	if !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("error %v does not say the context was cancelled", err)
	}
}

// Malformed layers are refused when built.
func TestTemplatesBuildErrors(t *testing.T) {
	p := newTemplateProblem(7, 2, 2, 2)
	eg := gorgonia.NewGraph()
	v := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(3, 3), tensor.WithBacking(make([]float64, 9))), gorgonia.WithName("V"))
	l := Templates{Solver: exactCG(1)}
	cases := map[string]func() error{
		"no solver": func() error {
			_, err := Templates{}.Build(eg, []Template{{V: v, Mu: []float64{0.5, 0.5, 0}}}, nil, nil, p.obs, nil)
			return err
		},
		"no templates": func() error { _, err := l.Build(eg, nil, nil, nil, p.obs, nil); return err },
		"bad mu": func() error {
			_, err := l.Build(eg, []Template{{V: v, Mu: []float64{0.5, 0.5}}}, nil, nil, p.obs, nil)
			return err
		},
		"zero mass": func() error {
			_, err := l.Build(eg, []Template{{V: v, Mu: []float64{0.5, 0.5, 0}}}, nil, nil, p.obs, nil)
			return err
		},
		"ids": func() error {
			_, err := l.Build(eg, []Template{{V: v, Mu: []float64{0.5, 0.25, 0.25}}}, nil, nil, p.obs, []int{1})
			return err
		},
		"features": func() error {
			_, err := l.Build(eg, []Template{{V: v, Mu: []float64{0.5, 0.25, 0.25}}}, gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(2, 2), tensor.WithBacking(make([]float64, 4))), gorgonia.WithName("X")), nil, p.obs, nil)
			return err
		},
	}
	for name, f := range cases {
		if err := f(); err == nil || !errors.Is(err, layers.ErrInput) {
			t.Errorf("%s: error %v, want one wrapping ErrInput", name, err)
		}
	}
}

// With the feature weight a node (its logarithm), the layer computes what it computes with
// that weight fixed, and the gradient in log w is the derivative of the discrepancies.
func TestTemplatesLearnedWeight(t *testing.T) {
	p := newTemplateProblem(8, 2, 2, 2)
	g := []float64{1, 0.5, -0.7, 2}
	run := func(logw float64, grads bool) (float64, []float64, float64) {
		eg := gorgonia.NewGraph()
		var ts []Template
		for k, v := range p.v {
			n, _ := v.Dims()
			ts = append(ts, Template{Mu: p.mus[k],
				V: gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(n, n), tensor.WithBacking(v.RawMatrix().Data)), gorgonia.WithName(fmt.Sprintf("V%d", k))),
				H: gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(p.h[k].Dims()), tensor.WithBacking(p.h[k].RawMatrix().Data)), gorgonia.WithName(fmt.Sprintf("H%d", k)))})
		}
		x := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(len(p.x)/p.dim(), p.dim()), tensor.WithBacking(p.x)), gorgonia.WithName("X"))
		lw := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(1, 1), tensor.WithBacking([]float64{logw})), gorgonia.WithName("logw"))
		d, err := Templates{Solver: exactCG(123)}.Build(eg, ts, x, lw, p.obs, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, dv := readValue(d)
		gn := gorgonia.NodeFromAny(eg, tensor.New(tensor.WithShape(len(p.obs), len(p.v)), tensor.WithBacking(g)), gorgonia.WithName("G"))
		s := gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(d, gn))))
		if grads {
			if _, err := gorgonia.Grad(s, lw); err != nil {
				t.Fatal(err)
			}
		}
		m := gorgonia.NewTapeMachine(eg)
		defer m.Close()
		if err := m.RunAll(); err != nil {
			t.Fatal(err)
		}
		gw := 0.0
		if grads {
			gv, _ := lw.Grad()
			gw = gv.Data().([]float64)[0]
		}
		return s.Value().Data().(float64), append([]float64(nil), (*dv).Data().([]float64)...), gw
	}
	logw := math.Log(p.weight)
	_, d, grad := run(logw, true)
	_, fixed, _ := p.run(t, Templates{Solver: exactCG(p.weight)}, make([]float64, 4), false)
	for i := range d {
		if math.Abs(d[i]-fixed[i]) > 1e-12 {
			t.Errorf("D entry %d: %v with log w a node, %v with w fixed", i, d[i], fixed[i])
		}
	}
	const eps = 1e-6
	plus, _, _ := run(logw+eps, false)
	minus, _, _ := run(logw-eps, false)
	if fd := (plus - minus) / (2 * eps); math.Abs(fd-grad) > 1e-5*(1+math.Abs(fd)) {
		t.Errorf("gradient in log w: backward %v, central difference %v", grad, fd)
	}
}

// withLogits gives the problem's templates learned node weights: random logits.
func (p templateProblem) withLogits(seed uint64) templateProblem {
	rng := rand.New(rand.NewPCG(seed, 11))
	p.logits = nil
	for _, v := range p.v {
		n, _ := v.Dims()
		lg := make([]float64, n)
		for j := range lg {
			lg[j] = rng.NormFloat64()
		}
		p.logits = append(p.logits, lg)
	}
	return p
}

// With learned node weights the backward pass is still the layer's derivative by central
// differences, in the logits (the dual potentials of the target marginal, through the softmax)
// as in every other input.
func TestTemplatesLogitsFiniteDifferences(t *testing.T) {
	p := newTemplateProblem(4, 2, 2, 2).withLogits(1)
	if checked, logits := p.checkFiniteDifferences(t); checked < 30 || logits < 6 {
		t.Fatalf("only %d entries checked, %d of them logits", checked, logits)
	}
}

// Learned node weights: the transports' columns sum to softmax(logits), a warm start found
// under other weights is moved onto today's, and templates with and without logits do not mix.
func TestTemplatesLogitsWarmStartsAndMixing(t *testing.T) {
	p := newTemplateProblem(6, 3, 2, 2).withLogits(2)
	g := make([]float64, 6)
	warm := Templates{Solver: exactCG(p.weight), Warm: NewWarmStarts()}
	_, d0, _ := p.run(t, warm, g, false)
	for k := range p.logits {
		p.logits[k][0] += 1 // the weights move
	}
	_, d1, _ := p.run(t, warm, g, false)
	cold := Templates{Solver: exactCG(p.weight)}
	_, d2, _ := p.run(t, cold, g, false)
	for i := range d1 {
		if !(d1[i] >= 0) || math.Abs(d1[i]-d0[i]) < 1e-12 {
			t.Errorf("pair %d: before the move %v, after %v", i, d0[i], d1[i])
		}
		if d1[i] > d2[i]*(1+1e-6)+1e-9 && d2[i] > d1[i]*(1+1e-6)+1e-9 {
			t.Errorf("pair %d: warm %v, cold %v", i, d1[i], d2[i])
		}
	}
	eg := gorgonia.NewGraph()
	n0, _ := p.v[0].Dims()
	n1, _ := p.v[1].Dims()
	v0 := gorgonia.NewMatrix(eg, tensor.Float64, gorgonia.WithShape(n0, n0), gorgonia.WithName("V0"))
	v1 := gorgonia.NewMatrix(eg, tensor.Float64, gorgonia.WithShape(n1, n1), gorgonia.WithName("V1"))
	l0 := gorgonia.NewMatrix(eg, tensor.Float64, gorgonia.WithShape(1, n0), gorgonia.WithName("L0"))
	ts := []Template{{V: v0, Logits: l0}, {V: v1, Mu: p.mus[1]}}
	if _, err := (Templates{Solver: exactCG(0)}).Build(eg, ts, nil, nil, p.obs, nil); err == nil {
		t.Error("templates with and without learned weights were mixed")
	}
	ts = []Template{{V: v0, Logits: l0}}
	if _, err := (Templates{Solver: layers.DefaultPPA()}).Build(eg, ts, nil, nil, p.obs, nil); err == nil {
		t.Error("learned weights were accepted with PPA")
	}
}

// remarginalized returns a non-negative coupling of the new marginals.
func TestRemarginalized(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 50; trial++ {
		n, m := 2+rng.IntN(5), 2+rng.IntN(5)
		p, q0, q1 := randomSimplex(rng, n), randomSimplex(rng, m), randomSimplex(rng, m)
		t0 := make([]float64, n*m) // a vertex-like coupling of p and q0: north-west corner
		i, j, rp, rq := 0, 0, p[0], q0[0]
		for i < n && j < m {
			f := math.Min(rp, rq)
			t0[i*m+j] += f
			rp, rq = rp-f, rq-f
			if rp <= 1e-15 && i+1 < n {
				i++
				rp = p[i]
			} else if rq <= 1e-15 && j+1 < m {
				j++
				rq = q0[j]
			} else if rp <= 1e-15 || rq <= 1e-15 {
				break
			}
		}
		x := remarginalized(t0, p, q1)
		rows, cols := make([]float64, n), make([]float64, m)
		for k, v := range x {
			if v < 0 {
				t.Fatalf("trial %d: entry %d = %v", trial, k, v)
			}
			rows[k/m] += v
			cols[k%m] += v
		}
		for a := range rows {
			if math.Abs(rows[a]-p[a]) > 1e-12 {
				t.Fatalf("trial %d: row %d sums to %v, want %v", trial, a, rows[a], p[a])
			}
		}
		for b := range cols {
			if math.Abs(cols[b]-q1[b]) > 1e-12 {
				t.Fatalf("trial %d: column %d sums to %v, want %v", trial, b, cols[b], q1[b])
			}
		}
	}
}

func randomSimplex(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	s := 0.0
	for i := range x {
		x[i] = 0.1 + rng.Float64()
		s += x[i]
	}
	for i := range x {
		x[i] /= s
	}
	return x
}

// With FixedFeatures the layer computes no gradient in the node features, and every other
// gradient is the one computed with it.
func TestTemplatesFixedFeatures(t *testing.T) {
	p := newTemplateProblem(31, 3, 2, 2)
	g := []float64{0.5, -1, 2, 0.25, 1, -0.75}
	grads := func(fixed bool) (out [][]float64, gradOps int) {
		l := Templates{Solver: exactCG(0.6), FixedFeatures: fixed}
		eg, s, _, params := p.build(t, l, g)
		in := len(p.v) + len(p.h) // X's position
		wrt := append(append(gorgonia.Nodes{}, params[:in]...), params[in+1:]...)
		if _, err := gorgonia.Grad(s, wrt...); err != nil {
			t.Fatal(err)
		}
		m := gorgonia.NewTapeMachine(eg)
		defer m.Close()
		if err := m.RunAll(); err != nil {
			t.Fatal(err)
		}
		for _, n := range wrt {
			gv, err := n.Grad()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, append([]float64(nil), gv.Data().([]float64)...))
		}
		for _, n := range eg.AllNodes() {
			if _, ok := n.Op().(*templatesGradOp); ok {
				gradOps++
			}
		}
		return out, gradOps
	}
	all, n := grads(false)
	fixed, nFixed := grads(true)
	if K := len(p.v); n != 2*K+1 || nFixed != 2*K {
		t.Errorf("%d gradient nodes, %d with fixed features; want %d and %d", n, nFixed, 2*K+1, 2*K)
	}
	for i := range all {
		for j := range all[i] {
			if fixed[i][j] != all[i][j] {
				t.Fatalf("parameter %d entry %d: gradient %v with fixed features, %v without", i, j, fixed[i][j], all[i][j])
			}
		}
	}
	// Asking for the gradient in fixed features is an error, not a panic.
	_, s, _, params := p.build(t, Templates{Solver: exactCG(0.6), FixedFeatures: true}, g)
	if _, err := gorgonia.Grad(s, params...); err == nil {
		t.Error("a gradient in fixed features was granted")
	}
}
