package cluster

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteForceAssignment returns the minimum total cost over all matchings of size
// min(rows, cols) by enumerating injections from the smaller side into the larger.
func bruteForceAssignment(cost [][]float64) float64 {
	r, c := len(cost), len(cost[0])
	at := func(i, j int) float64 { return cost[i][j] }
	if r > c {
		r, c = c, r
		at = func(i, j int) float64 { return cost[j][i] }
	}
	best := math.Inf(1)
	used := make([]bool, c)
	var rec func(i int, sum float64)
	rec = func(i int, sum float64) {
		if i == r {
			best = math.Min(best, sum)
			return
		}
		for j := range c {
			if !used[j] {
				used[j] = true
				rec(i+1, sum+at(i, j))
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return best
}

// checkMatching verifies rowToCol is a valid matching of size min(rows, cols) and returns its cost.
func checkMatching(t *testing.T, cost [][]float64, rowToCol []int) float64 {
	t.Helper()
	r, c := len(cost), len(cost[0])
	if len(rowToCol) != r {
		t.Fatalf("got %d rows in matching, want %d", len(rowToCol), r)
	}
	seen := make(map[int]bool)
	total, size := 0.0, 0
	for i, j := range rowToCol {
		if j < 0 {
			continue
		}
		if j >= c || seen[j] {
			t.Fatalf("row %d: invalid or repeated column %d in %v", i, j, rowToCol)
		}
		seen[j] = true
		total += cost[i][j]
		size++
	}
	if size != min(r, c) {
		t.Fatalf("matching %v has %d pairs, want %d", rowToCol, size, min(r, c))
	}
	return total
}

func TestMinCostAssignmentBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 500 {
		r, c := 1+rng.IntN(6), 1+rng.IntN(6)
		cost := make([][]float64, r)
		for i := range cost {
			cost[i] = make([]float64, c)
			for j := range cost[i] {
				if trial%2 == 0 {
					cost[i][j] = rng.NormFloat64() * 10
				} else {
					// Small integers force many ties, like contingency tables.
					cost[i][j] = -float64(rng.IntN(4))
				}
			}
		}
		got := checkMatching(t, cost, minCostAssignment(cost))
		want := bruteForceAssignment(cost)
		if math.Abs(got-want) > 1e-9 {
			t.Fatalf("trial %d (%d×%d): cost %v, brute force %v; matrix %v", trial, r, c, got, want, cost)
		}
	}
}

func TestMinCostAssignmentCases(t *testing.T) {
	tests := []struct {
		name string
		cost [][]float64
		want []int
	}{
		{"1x1", [][]float64{{5}}, []int{0}},
		{"3x3", [][]float64{{4, 1, 3}, {2, 0, 5}, {3, 2, 2}}, []int{1, 0, 2}},
		{"wide", [][]float64{{9, 1, 9}, {1, 9, 9}}, []int{1, 0}},
		{"tall", [][]float64{{9, 1}, {1, 9}, {5, 5}}, []int{1, 0, -1}},
		{"no columns", [][]float64{{}, {}}, []int{-1, -1}},
		{"no rows", [][]float64{}, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := minCostAssignment(tt.cost)
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
			}
		})
	}
}
