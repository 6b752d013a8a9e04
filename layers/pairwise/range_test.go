package pairwise

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
)

// TestRangeShards: the slices of any number of shards, concatenated, give exactly the
// discrepancies of Matrix, pair for pair, and through the CSV the same matrix.
func TestRangeShards(t *testing.T) {
	data, _ := twoClasses(t, 5) // 10 graphs, 45 pairs
	for i := range data {
		data[i].Name = fmt.Sprintf("g%d", i)
	}
	ctx := context.Background()
	opt := Options{Solver: fast(), Workers: 2}
	want, _, err := Matrix(ctx, data, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, shards := range []int{1, 4, 45, 50} {
		var buf bytes.Buffer
		w := NewCSVWriter(&buf, data)
		next := 0
		for s := range shards {
			lo, hi := s*Pairs(len(data))/shards, (s+1)*Pairs(len(data))/shards // as shard.Shard.Range
			st, err := Range(ctx, data, opt, lo, hi, func(i, j int, d float64) error {
				if pi, pj := PairAt(next, len(data)); pi != i || pj != j {
					t.Fatalf("%d shards: pair %d is (%d, %d), want (%d, %d)", shards, next, i, j, pi, pj)
				}
				next++
				if d != want.At(i, j) {
					t.Errorf("%d shards: d(%d, %d) = %v, Matrix %v", shards, i, j, d, want.At(i, j))
				}
				return w.Write(i, j, d)
			})
			if err != nil || st.GWDs != hi-lo {
				t.Fatalf("%d shards, shard %d: %d GWDs, err %v", shards, s, st.GWDs, err)
			}
		}
		if next != Pairs(len(data)) {
			t.Fatalf("%d shards emitted %d pairs, want %d", shards, next, Pairs(len(data)))
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		got, err := ReadCSV(&buf, data)
		if err != nil {
			t.Fatal(err)
		}
		for i := range data {
			for j := range data {
				if got.At(i, j) != want.At(i, j) {
					t.Fatalf("%d shards: read d(%d, %d) = %v, want %v", shards, i, j, got.At(i, j), want.At(i, j))
				}
			}
		}
	}
	if _, err := Range(ctx, data, opt, 40, 46, nil); err == nil {
		t.Error("pairs beyond the last: no error")
	}
}

// TestReadCSVErrors: every malformed or mismatched file is refused with a clear error.
func TestReadCSVErrors(t *testing.T) {
	data, _ := twoClasses(t, 2) // 4 graphs, 6 pairs
	for i := range data {
		data[i].Name = fmt.Sprintf("g%d", i)
	}
	rows := []string{"0,1,g0,g1,0.5", "0,2,g0,g2,0.25", "0,3,g0,g3,1", "1,2,g1,g2,2", "1,3,g1,g3,0", "2,3,g2,g3,3e-2"}
	file := func(rows ...string) string { return "i,j,graph_i,graph_j,gwd\n" + strings.Join(rows, "\n") + "\n" }
	d, err := ReadCSV(strings.NewReader(file(rows...)), data)
	if err != nil || d.At(3, 2) != 0.03 || d.At(1, 2) != 2 || d.At(2, 2) != 0 {
		t.Fatalf("good file: %v, %v", d, err)
	}
	for name, c := range map[string]struct{ text, want string }{
		"missing pair":  {file(rows[1:]...), "missing"},
		"duplicate":     {file(append(rows, rows[2])...), "twice"},
		"other data":    {file(append([]string{"0,1,g0,x,0.5"}, rows[1:]...)...), "other data"},
		"not finite":    {file(append([]string{"0,1,g0,g1,NaN"}, rows[1:]...)...), "not finite"},
		"i not below j": {file(append([]string{"1,0,g1,g0,0.5"}, rows[1:]...)...), "0 ≤ i < j"},
		"out of range":  {file(append([]string{"0,4,g0,g4,0.5"}, rows[1:]...)...), "0 ≤ i < j"},
		"not a number":  {file(append([]string{"0,1,g0,g1,x"}, rows[1:]...)...), "a number"},
		"wrong header":  {"graph,label,lambda0\n", "header"},
		"short row":     {file("0,1,g0"), "fields"},
		"empty":         {"", "header"},
		"no line ends":  {strings.Repeat("\x00", 2<<20), "line too long"},
	} {
		if _, err := ReadCSV(strings.NewReader(c.text), data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", name, err, c.want)
		}
	}
}

// FuzzReadCSV: any file is read or refused, never a panic, and what is read is
// symmetric and finite.
func FuzzReadCSV(f *testing.F) {
	f.Add("i,j,graph_i,graph_j,gwd\n0,1,g0,g1,0.5\n0,2,g0,g2,1\n1,2,g1,g2,2\n")
	f.Add("i,j,graph_i,graph_j,gwd\n0,1,g0,g1,0.5\n0,1,g0,g1,1\n")
	f.Add("i,j,graph_i,graph_j,gwd\n-1,9999999999999999999,g0,g1,1e308\n")
	f.Add("i,j,graph_i,graph_j,gwd\n\"0\",1,g0,\"g\n1\",Inf\n")
	var data []*graphs.Graph
	for i := range 3 {
		g, err := graphs.New(fmt.Sprintf("g%d", i), mat.NewDense(2, 2, []float64{0, 1, 1, 0}), nil, nil)
		if err != nil {
			f.Fatal(err)
		}
		data = append(data, g)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, err := ReadCSV(strings.NewReader(text), data)
		if err != nil {
			return
		}
		for i := range data {
			for j := range data {
				if v := d.At(i, j); v != d.At(j, i) || math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("d(%d, %d) = %v", i, j, v)
				}
			}
		}
	})
}

// TestRangeEmitsAsFinished: a pair is emitted as soon as it and those before it are
// done, not with its block, so that work stopped after the first pair keeps it: the first
// emit cancels, and the range ends with context.Canceled, having emitted the finished pairs only.
func TestRangeEmitsAsFinished(t *testing.T) {
	data, _ := twoClasses(t, 5) // 45 pairs
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	emitted := 0
	_, err := Range(ctx, data, Options{Solver: fast(), Workers: 1}, 0, Pairs(len(data)), func(i, j int, d float64) error {
		if pi, pj := PairAt(emitted, len(data)); pi != i || pj != j {
			t.Errorf("pair %d is (%d, %d), want (%d, %d)", emitted, i, j, pi, pj)
		}
		emitted++
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || emitted == 0 || emitted >= Pairs(len(data)) {
		t.Fatalf("cancelled at the first pair: %d of %d pairs emitted, err %v; want some, and context.Canceled", emitted, Pairs(len(data)), err)
	}
	// An error of emit stops the work and is returned.
	stop := errors.New("disk full")
	if _, err := Range(context.Background(), data, Options{Solver: fast(), Workers: 2}, 0, Pairs(len(data)), func(int, int, float64) error {
		return stop
	}); !errors.Is(err, stop) {
		t.Errorf("emit failing: %v", err)
	}
}

// TestRangeStopsInsideASolve: a cancel stops a pair of 1,200-node graphs inside its
// solve, within 2 s (the solve alone takes far longer), with context.Canceled.
func TestRangeStopsInsideASolve(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a 1,200-node pair")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var data []*graphs.Graph
	for range 2 {
		g, err := graphs.StochasticBlockModel([]int{600, 600}, [][]float64{{0.3, 0.05}, {0.05, 0.3}}, rng)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, g)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	cfg, _ := layers.DefaultSolverOptions("cg")
	_, err := Range(ctx, data, Options{Solver: cfg, Workers: 1}, 0, 1, func(int, int, float64) error { return nil })
	if late := time.Since(start) - 300*time.Millisecond; !errors.Is(err, context.Canceled) || late > 2*time.Second {
		t.Fatalf("cancelled after 300 ms: returned %v later with %v, want within 2 s with context.Canceled", late.Round(time.Millisecond), err)
	}
}
