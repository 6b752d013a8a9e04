package training

import (
	"math/rand/v2"
	"slices"
	"testing"

	"gorgonia.org/tensor"
)

// TestZAdamIsOneSolverPerZ: the embeddings' Adam (states swapped through one solver) steps
// every z_i as a Gorgonia solver of its own would, bit for bit, in any order of the batches, and
// its snapshots are those solvers' (so model files and resumed runs are unchanged).
func TestZAdamIsOneSolverPerZ(t *testing.T) {
	const rows, k = 5, 3
	rng := rand.New(rand.NewPCG(1, 2))
	zOwn, zSwap := make([]float64, rows*k), make([]float64, rows*k)
	for i := range zOwn {
		zOwn[i] = rng.NormFloat64()
	}
	copy(zSwap, zOwn)
	own := make([]*group, rows)
	for i := range own {
		own[i] = newGroup([]*param{paramOf(tensor.New(tensor.WithShape(k), tensor.WithBacking(zOwn[i*k:(i+1)*k])))}, 0.05)
	}
	za, err := newZAdam(rows, k, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	grad := make([]float64, k)
	for step := 0; step < 40; step++ {
		i := rng.IntN(rows - 1) // the last z is never stepped
		for j := range grad {
			grad[j] = rng.NormFloat64()
		}
		copy(own[i].params[0].gradData(), grad)
		if err := own[i].step(); err != nil {
			t.Fatal(err)
		}
		if err := za.step(i, zSwap[i*k:(i+1)*k], grad); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(zOwn, zSwap) {
		t.Fatalf("embeddings: swapped %v, one solver each %v", zSwap, zOwn)
	}
	restored, err := newZAdam(rows, k, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	for i := range own {
		want, err := own[i].snapshot()
		if err != nil {
			t.Fatal(err)
		}
		got := za.snapshot(i)
		if got.Iter != want.Iter || (want.Iter > 0 && (!slices.Equal(got.M[0], want.M[0]) || !slices.Equal(got.V[0], want.V[0]))) {
			t.Fatalf("z %d: snapshot %+v, one solver's %+v", i, got, want)
		}
		if err := restored.restore(i, got); err != nil {
			t.Fatal(err)
		}
	}
	// A restored state steps on as the original does.
	for i := range grad {
		grad[i] = 0.3
	}
	a, b := slices.Clone(zSwap[:k]), slices.Clone(zSwap[:k])
	if err := za.step(0, a, grad); err != nil {
		t.Fatal(err)
	}
	if err := restored.step(0, b, grad); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) {
		t.Errorf("after restore: %v, want %v", b, a)
	}
	if err := restored.restore(0, AdamState{Iter: 1, M: [][]float64{{1}}, V: [][]float64{{1}}}); err == nil {
		t.Error("a state of 1 value for z of 3: no error")
	}
}

// BenchmarkZAdamStep is one embedding's Adam step (K = 30) among 1000.
func BenchmarkZAdamStep(b *testing.B) {
	const rows, k = 1000, 30
	z := make([]float64, rows*k)
	za, err := newZAdam(rows, k, 0.05)
	if err != nil {
		b.Fatal(err)
	}
	grad := make([]float64, k)
	for i := range grad {
		grad[i] = 0.01 * float64(i)
	}
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		i := n % rows
		if err := za.step(i, z[i*k:(i+1)*k], grad); err != nil {
			b.Fatal(err)
		}
	}
}
