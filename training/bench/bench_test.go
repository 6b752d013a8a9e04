package bench

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/training"
)

func TestKernels(t *testing.T) {
	if testing.Short() {
		t.Skip("times real kernels")
	}
	rep := NewReport("test")
	var seen []string
	if err := Kernels(&rep, time.Millisecond, func(k Kernel) { seen = append(seen, k.Name) }); err != nil {
		t.Fatal(err)
	}
	if want := 2*len(GWDSizes()) + 2; len(rep.Timings) != want || len(seen) != want {
		t.Fatalf("%d timings (%d reported), want %d", len(rep.Timings), len(seen), want)
	}
	if rep.GEMMGflops <= 0 || rep.GonumGflops <= 0 {
		t.Fatalf("GEMM rates %v, %v", rep.GEMMGflops, rep.GonumGflops)
	}
	for _, k := range rep.Timings {
		if !(k.Millis > 0) {
			t.Errorf("%s: %v ms", k.Name, k.Millis)
		}
		// Counted process-wide, so the runtime's own allocations may show; that the solvers'
		// steady state allocates nothing is layers' TestNoAllocationInSteadyState.
		if k.AllocsPerOp < 0 {
			t.Errorf("%s: %.1f allocations per call", k.Name, k.AllocsPerOp)
		}
	}
	var buf bytes.Buffer
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"gwd ppa N=20", "gwd ppa dense N=200", "loss+gradients", "GEMM:"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestCurveCountsCGIterations(t *testing.T) {
	k, err := Curve(20, "cg", time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if !(k.Iterations >= 1) || !(k.Millis > 0) {
		t.Fatalf("cg curve %+v: want iterations and a time", k)
	}
	if _, err := Curve(20, "sinkhorn", time.Millisecond); err == nil {
		t.Fatal("an unknown solver was timed")
	}
}

// gwdFlop counts a sparse structure by its non-zeros and a dense one in full.
func TestGWDFlop(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	p := layers.DefaultPPA()
	d := denseSpace(10, rng)
	perLayer := 2*100*10.0 + 2*100*10 + float64(4*p.Inner)*100
	if got, want := gwdFlop(p, d, d), float64(p.Layers)*perLayer; got != want {
		t.Fatalf("dense: %v flop, want %v", got, want)
	}
}

func TestTimeEpoch(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	var data []*graphs.Graph
	for range 6 {
		g, err := graphs.BarabasiAlbert(8, 2, rng)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, g)
	}
	cfg := training.DefaultConfig()
	cfg.Atoms, cfg.AtomSize = 2, 4
	e, err := TimeEpoch(context.Background(), "BA", "none", data[:3], len(data), cfg, training.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if e.Graphs != 6 || e.Timed != 3 || !(e.GraphsPerSec > 0) || e.SecondsPerEpoch != 6/e.GraphsPerSec {
		t.Fatalf("epoch %+v", e)
	}
	if _, err := TimeEpoch(context.Background(), "BA", "none", nil, 6, cfg, training.Options{}); err == nil {
		t.Fatal("no graphs to time: no error")
	}
}
