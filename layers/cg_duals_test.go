package layers

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gwf-graphs/gwf/layers/layerstest"
)

// solvedObjective is CG's discrepancy between src and dst.
func solvedObjective(t *testing.T, cg CG, src, dst Space) float64 {
	t.Helper()
	var st State
	if err := Solve(context.Background(), cg, &st, src, dst); err != nil {
		t.Fatal(err)
	}
	return st.Objective()
}

// TestTargetPotentialsFiniteDifferences checks the derivative in the target's node weights
// against central differences along zero-sum directions e_j − e_l, on weighted, directed and
// attributed pairs with non-uniform weights.
func TestTargetPotentialsFiniteDifferences(t *testing.T) {
	cases := []struct {
		name     string
		directed bool
		weight   float64
		dim      int
	}{
		{"structure", false, 0, 0},
		{"fused", false, 0.5, 3},
		{"directed fused", true, 0.3, 2},
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ci)+7, 3))
			cs, fs, mus := layerstest.RandomGraph(rng, 7, 0.5, 1, c.directed, c.dim)
			ct, ft, mut := layerstest.RandomGraph(rng, 5, 0.6, 1, c.directed, c.dim)
			for j := range mut { // non-uniform weights, summing to 1
				mut[j] = 0.5 + rng.Float64()
			}
			normalize(mut)
			src, dst := Space{C: cs, F: fs, Mu: mus}, Space{C: ct, F: ft, Mu: mut}
			cg := DefaultCG()
			cg.Weight = c.weight
			var st State
			if err := Solve(context.Background(), cg, &st, src, dst); err != nil {
				t.Fatal(err)
			}
			v := make([]float64, len(mut))
			if err := TargetPotentials(context.Background(), &st, v); err != nil {
				t.Fatal(err)
			}
			for _, x := range v {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("potentials %v", v)
				}
			}
			const eps = 1e-6
			checked := 0
			for j := 1; j < len(mut); j++ {
				plus, minus := append([]float64(nil), mut...), append([]float64(nil), mut...)
				plus[j], plus[0] = plus[j]+eps, plus[0]-eps
				minus[j], minus[0] = minus[j]-eps, minus[0]+eps
				fd := (solvedObjective(t, cg, src, Space{C: ct, F: ft, Mu: plus}) -
					solvedObjective(t, cg, src, Space{C: ct, F: ft, Mu: minus})) / (2 * eps)
				want := v[j] - v[0]
				if math.Abs(fd-want) > 1e-4*math.Max(1, math.Abs(fd)) {
					t.Errorf("direction e_%d − e_0: finite differences %.8f, potentials %.8f", j, fd, want)
				}
				checked++
			}
			if checked == 0 {
				t.Fatal("nothing checked")
			}
		})
	}
}

func normalize(x []float64) {
	s := 0.0
	for _, v := range x {
		s += v
	}
	for i := range x {
		x[i] /= s
	}
}

// TestTargetPotentialsNeedsCG refuses a state no CG solve has filled or another solver filled
// last, and a wrong length.
func TestTargetPotentialsNeedsCG(t *testing.T) {
	var st State
	if err := TargetPotentials(context.Background(), &st, make([]float64, 3)); err == nil {
		t.Error("an empty state gave potentials")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	cs, _, mus := layerstest.RandomGraph(rng, 4, 0.5, 1, false, 0)
	ct, _, mut := layerstest.RandomGraph(rng, 3, 0.5, 1, false, 0)
	if err := Solve(context.Background(), DefaultCG(), &st, Space{C: cs, Mu: mus}, Space{C: ct, Mu: mut}); err != nil {
		t.Fatal(err)
	}
	if err := TargetPotentials(context.Background(), &st, make([]float64, 4)); err == nil {
		t.Error("4 entries for 3 target nodes were accepted")
	}
	if err := TargetPotentials(context.Background(), &st, make([]float64, 3)); err != nil {
		t.Fatalf("after a CG solve: %v", err)
	}
	// A PPA solve of the same sizes since: the potentials would be of another transport.
	if err := Solve(context.Background(), DefaultPPA(), &st, Space{C: cs, Mu: mus}, Space{C: ct, Mu: mut}); err != nil {
		t.Fatal(err)
	}
	if err := TargetPotentials(context.Background(), &st, make([]float64, 3)); err == nil {
		t.Error("a state PPA filled last gave potentials")
	}
}
