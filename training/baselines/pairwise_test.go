package baselines

import "testing"

func TestPairOf(t *testing.T) {
	for _, n := range []int{2, 3, 7, 100, 2001} {
		k := 0
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if gi, gj := pairOf(k, n); gi != i || gj != j {
					t.Fatalf("n=%d: pairOf(%d) = (%d, %d), want (%d, %d)", n, k, gi, gj, i, j)
				}
				k++
			}
		}
	}
}
