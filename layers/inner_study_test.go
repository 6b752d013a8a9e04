package layers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func permuted(rng *rand.Rand, s Space) Space {
	return permutedBy(s, rng.Perm(s.N()))
}

// TestInnerSweepsStudy is the measurement behind DefaultPPA's Inner = 5 (run it with
// GWF_STUDY=1 go test -run InnerSweeps -v ./layers): recovery of permuted copies, the mean
// discrepancy to unrelated graphs, and the worst relative column-marginal error.
func TestInnerSweepsStudy(t *testing.T) {
	if os.Getenv("GWF_STUDY") == "" {
		t.Skip("a study, not a test: set GWF_STUDY=1")
	}
	for _, inner := range []int{1, 2, 5, 10} {
		rng := rand.New(rand.NewPCG(1, 1))
		var objs, cols []float64
		found := 0
		for trial := 0; trial < 60; trial++ {
			n := 10 + rng.IntN(30)
			a := randomSpace(rng, n, 0.15, 1, false, 0)
			for i := range a.Mu {
				a.Mu[i] = 1 / float64(n)
			}
			b := permuted(rng, a)
			c := randomSpace(rng, 10+rng.IntN(30), 0.15, 1, false, 0)
			s := PPA{Gamma: 0.01, Layers: 50, Inner: inner, Weight: 1}
			tr, o, _ := GWD(s, a, b)
			if o < 1e-6 {
				found++
			}
			_ = tr
			tr2, o2, _ := GWD(s, a, c)
			objs = append(objs, o2)
			_, nt := tr2.Dims()
			ce := 0.0
			for j := 0; j < nt; j++ {
				ce = math.Max(ce, math.Abs(mat.Sum(tr2.ColView(j))-c.Mu[j])/c.Mu[j])
			}
			cols = append(cols, ce)
		}
		m, mc := 0.0, 0.0
		for i := range objs {
			m += objs[i] / float64(len(objs))
			mc = math.Max(mc, cols[i])
		}
		fmt.Printf("inner=%d: permuted copies recovered %d/60; mean GW to other graphs %.4f; worst column rel err %.2g\n", inner, found, m, mc)
	}
}
