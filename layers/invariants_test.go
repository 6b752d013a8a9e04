package layers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/layers/layerstest"
)

// checkTransport asserts the invariants of a transport: finite, non-negative, rows sum to mus
// (to rowTol relative), and reports the column-marginal error.
// randomSpace makes a random weighted graph (layerstest.RandomGraph) as a Space.
func randomSpace(rng *rand.Rand, n int, p, scale float64, directed bool, d int) Space {
	c, f, mu := layerstest.RandomGraph(rng, n, p, scale, directed, d)
	sp := Space{C: c, Mu: mu}
	if f != nil {
		sp.F = f
	}
	return sp
}

func checkTransport(t *testing.T, tr *mat.Dense, mus, mut []float64, rowTol float64) (colErr float64) {
	t.Helper()
	ns, nt := tr.Dims()
	col := make([]float64, nt)
	for i := 0; i < ns; i++ {
		row := 0.0
		for j := 0; j < nt; j++ {
			v := tr.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Fatalf("T[%d][%d] = %v", i, j, v)
			}
			if v != 0 && v < 0x1p-1022 {
				t.Fatalf("T[%d][%d] = %v is subnormal (slow in every later product)", i, j, v)
			}
			row += v
			col[j] += v
		}
		if math.Abs(row-mus[i]) > rowTol*mus[i] {
			t.Errorf("row %d sums to %v, want %v", i, row, mus[i])
		}
	}
	for j, c := range col {
		colErr = math.Max(colErr, math.Abs(c-mut[j]))
	}
	return colErr
}

// TestInvariants: for γ over five decades and edge weights up to 1e3, both solvers return
// finite, non-negative transports whose rows match μs; PPA's columns converge to μt.
func TestInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, gamma := range []float64{1e-4, 1e-3, 1e-2, 1e-1, 1, 10} {
		for _, scale := range []float64{1, 30, 1e3} {
			for _, directed := range []bool{false, true} {
				src := randomSpace(rng, 12, 0.3, scale, directed, 0)
				dst := randomSpace(rng, 9, 0.4, scale, directed, 2)
				dst.F = nil
				for _, s := range []Solver{
					PPA{Gamma: gamma, Layers: 30, Inner: 1, Weight: 1},
					PPA{Gamma: gamma, Layers: 30, Inner: 5, Weight: 1},
					BADMM{Gamma: gamma, Layers: 30, Weight: 1},
				} {
					name := fmt.Sprintf("%s/inner=%v/gamma=%g/w=%g/directed=%v", s.Name(), s, gamma, scale, directed)
					tr, obj, err := GWD(s, src, dst)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if math.IsNaN(obj) || math.IsInf(obj, 0) {
						t.Fatalf("%s: objective %v", name, obj)
					}
					checkTransport(t, tr, src.Mu, dst.Mu, 1e-9)
				}
			}
		}
	}
}

// TestPPAColumnsConverge: each layer is an entropic OT problem, so with enough Sinkhorn sweeps
// per layer the column marginals are met too, and more sweeps give smaller column errors.
func TestPPAColumnsConverge(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	src := randomSpace(rng, 15, 0.3, 1, false, 0)
	dst := randomSpace(rng, 11, 0.3, 1, false, 0)
	colErr := func(inner int) float64 {
		tr, _, err := GWD(PPA{Gamma: 0.1, Layers: 10, Inner: inner, Weight: 1}, src, dst)
		if err != nil {
			t.Fatal(err)
		}
		return checkTransport(t, tr, src.Mu, dst.Mu, 1e-12)
	}
	one, many := colErr(1), colErr(500)
	if !(many < one) || many > 1e-10 {
		t.Errorf("column marginal error %g with 1 sweep, %g with 500", one, many)
	}
}

// TestLogDomainFallback: a problem where the plain kernel underflows takes the log-domain
// path and still gives a valid transport; a benign one never does.
func TestLogDomainFallback(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	src := randomSpace(rng, 10, 0.5, 1e3, false, 0)
	dst := randomSpace(rng, 8, 0.5, 1e3, false, 0)
	for _, s := range []Solver{PPA{Gamma: 1e-4, Layers: 20, Inner: 1, Weight: 1}, PPA{Gamma: 1e-4, Layers: 20, Inner: 5, Weight: 1}, BADMM{Gamma: 1e-4, Layers: 20, Weight: 1}} {
		var st State
		if err := Solve(context.Background(), s, &st, src, dst); err != nil {
			t.Fatal(err)
		}
		if st.LogDomainLayers == 0 {
			t.Errorf("%s: expected the log-domain fallback at gamma 1e-4 and weights 1e3", s.Name())
		}
		checkTransport(t, st.Transport(), src.Mu, dst.Mu, 1e-9)
	}
	src = randomSpace(rng, 10, 0.5, 1, false, 0)
	dst = randomSpace(rng, 8, 0.5, 1, false, 0)
	var st State
	if err := Solve(context.Background(), DefaultPPA(), &st, src, dst); err != nil {
		t.Fatal(err)
	}
	if st.LogDomainLayers != 0 {
		t.Errorf("benign problem used the log domain %d times", st.LogDomainLayers)
	}
}

// TestSymmetricProblem: the GW objective of a graph with itself is smaller than with a different
// graph, and a transport of identical spaces is symmetric when the graph is undirected.
func TestSelfDiscrepancy(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	a := randomSpace(rng, 12, 0.3, 1, false, 0)
	b := randomSpace(rng, 12, 0.6, 1, false, 0)
	_, self, err := GWD(DefaultPPA(), a, a)
	if err != nil {
		t.Fatal(err)
	}
	_, other, err := GWD(DefaultPPA(), a, b)
	if err != nil {
		t.Fatal(err)
	}
	if !(self < other) || self < -1e-12 {
		t.Errorf("self discrepancy %v, other %v", self, other)
	}
	tr, _, err := GWD(DefaultPPA(), a, a)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(tr, tr.T(), 1e-9) {
		t.Error("transport of an undirected graph with itself is not symmetric")
	}
}

// TestTrace: the per-layer trace has one objective per layer, the last equal to Objective().
func TestTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	a := randomSpace(rng, 10, 0.3, 1, false, 0)
	b := randomSpace(rng, 8, 0.3, 1, false, 0)
	st := State{Trace: []float64{}}
	if err := Solve(context.Background(), DefaultPPA(), &st, a, b); err != nil {
		t.Fatal(err)
	}
	if len(st.Trace) != 50 || st.Layer != 50 {
		t.Fatalf("trace has %d entries after %d layers, want 50", len(st.Trace), st.Layer)
	}
	if got := st.Objective(); math.Abs(got-st.Trace[49]) > 1e-12 {
		t.Errorf("last trace %v, objective %v", st.Trace[49], got)
	}
	if !(st.Trace[49] <= st.Trace[0]) {
		t.Errorf("objective rose from %v to %v", st.Trace[0], st.Trace[49])
	}
}

// TestBadInput: every malformed problem is an error wrapping ErrInput, never a panic.
func TestBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	good := randomSpace(rng, 5, 0.5, 1, false, 0)
	feat := randomSpace(rng, 5, 0.5, 1, false, 3)
	feat2 := randomSpace(rng, 5, 0.5, 1, false, 2)
	neg := mat.DenseCopyOf(good.C)
	neg.Set(0, 1, -1)
	nan := mat.DenseCopyOf(good.C)
	nan.Set(0, 1, math.NaN())
	cases := []struct {
		name     string
		s        Solver
		src, dst Space
	}{
		{"gamma zero", PPA{Gamma: 0, Layers: 5, Inner: 1, Weight: 1}, good, good},
		{"gamma NaN", BADMM{Gamma: math.NaN(), Layers: 5, Weight: 1}, good, good},
		{"no layers", PPA{Gamma: 1, Layers: 0, Inner: 1, Weight: 1}, good, good},
		{"no sweeps", PPA{Gamma: 1, Layers: 5, Inner: 0, Weight: 1}, good, good},
		{"negative weight", BADMM{Gamma: 1, Layers: 5, Weight: -1}, good, good},
		{"non-square", DefaultPPA(), Space{C: mat.NewDense(2, 3, nil), Mu: []float64{.5, .5}}, good},
		{"mu length", DefaultPPA(), Space{C: good.C, Mu: []float64{1}}, good},
		{"mu zero", DefaultPPA(), Space{C: good.C, Mu: []float64{0, .25, .25, .25, .25}}, good},
		{"mu sum", DefaultPPA(), Space{C: good.C, Mu: []float64{.1, .1, .1, .1, .1}}, good},
		{"negative edge", DefaultPPA(), Space{C: neg, Mu: good.Mu}, good},
		{"NaN edge", DefaultPPA(), Space{C: nan, Mu: good.Mu}, good},
		{"no matrix", DefaultPPA(), Space{}, good},
		{"one side features", DefaultPPA(), feat, good},
		{"feature dims differ", DefaultPPA(), feat, feat2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := GWD(c.s, c.src, c.dst)
			if !errors.Is(err, ErrInput) {
				t.Fatalf("got %v, want an ErrInput", err)
			}
		})
	}
}

func TestGWBBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	g := randomSpace(rng, 5, 0.5, 1, false, 0)
	a := Atom{U: g.C, Mu: g.Mu}
	var st GWBState
	for name, err := range map[string]error{
		"no solver":     GWB{Layers: 2}.Compute(context.Background(), &st, []Atom{a}, []float64{1}, g),
		"no layers":     GWB{Solver: DefaultPPA()}.Compute(context.Background(), &st, []Atom{a}, []float64{1}, g),
		"no atoms":      GWB{Solver: DefaultPPA(), Layers: 2}.Compute(context.Background(), &st, nil, nil, g),
		"weights":       GWB{Solver: DefaultPPA(), Layers: 2}.Compute(context.Background(), &st, []Atom{a}, []float64{.5, .5}, g),
		"atom features": GWB{Solver: DefaultPPA(), Layers: 2}.Compute(context.Background(), &st, []Atom{{U: g.C, Mu: g.Mu, H: mat.NewDense(5, 2, nil)}}, []float64{1}, g),
	} {
		if !errors.Is(err, ErrInput) {
			t.Errorf("%s: got %v, want an ErrInput", name, err)
		}
	}
}

// TestLogDomainMatchesPlain: on a problem where nothing underflows, the log-domain layer (one
// log sweep, then sweeps on the absorbed kernel) gives the plain layer's transport.
func TestLogDomainMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	src, dst := randomSpace(rng, 12, 0.4, 1, false, 3), randomSpace(rng, 9, 0.4, 1, false, 3)
	for _, inner := range []int{1, 2, 5} {
		plain := PPA{Gamma: 0.05, Layers: 15, Inner: inner, Weight: 1}
		logged := plain
		logged.forceLog = true
		var a, b State
		if err := Solve(context.Background(), plain, &a, src, dst); err != nil {
			t.Fatal(err)
		}
		if err := Solve(context.Background(), logged, &b, src, dst); err != nil {
			t.Fatal(err)
		}
		if a.LogDomainLayers != 0 || b.LogDomainLayers != 15 {
			t.Fatalf("inner %d: %d and %d log-domain layers, want 0 and 15", inner, a.LogDomainLayers, b.LogDomainLayers)
		}
		if !mat.EqualApprox(a.Transport(), b.Transport(), 1e-12) {
			t.Errorf("inner %d: log-domain transport differs from the plain one", inner)
		}
	}
}
