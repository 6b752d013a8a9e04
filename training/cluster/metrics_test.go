package cluster

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

const metricTol = 1e-12

func checkScores(t *testing.T, got, want Scores) {
	t.Helper()
	pairs := []struct {
		name      string
		got, want float64
	}{
		{"Accuracy", got.Accuracy, want.Accuracy},
		{"NMI", got.NMI, want.NMI},
		{"ARI", got.ARI, want.ARI},
		{"RandIndex", got.RandIndex, want.RandIndex},
	}
	for _, p := range pairs {
		if math.Abs(p.got-p.want) > metricTol {
			t.Errorf("%s = %.17g, want %.17g", p.name, p.got, p.want)
		}
	}
}

func TestMetricsHandComputed(t *testing.T) {
	// truth [0,0,1,1] vs pred [0,0,0,1]: table [[2,0],[1,1]].
	miSmall := 0.5*math.Log(4.0/3) + 0.25*math.Log(2.0/3) + 0.25*math.Log(2)
	hSmall := (math.Log(2) - 0.75*math.Log(0.75) - 0.25*math.Log(0.25)) / 2

	tests := []struct {
		name        string
		truth, pred []int
		want        Scores
	}{
		{
			// scikit-learn reference values.
			name:  "sklearn reference",
			truth: []int{0, 0, 0, 1, 1, 1},
			pred:  []int{0, 0, 1, 1, 2, 2},
			want:  Scores{Accuracy: 4.0 / 6, NMI: 0.5158037429793889, ARI: 0.24242424242424243, RandIndex: 0.6666666666666666},
		},
		{
			name:  "independent halves",
			truth: []int{0, 0, 1, 1},
			pred:  []int{0, 1, 0, 1},
			want:  Scores{Accuracy: 0.5, NMI: 0, ARI: -0.5, RandIndex: 1.0 / 3},
		},
		{
			name:  "one moved point",
			truth: []int{0, 0, 1, 1},
			pred:  []int{0, 0, 0, 1},
			want:  Scores{Accuracy: 0.75, NMI: miSmall / hSmall, ARI: 0, RandIndex: 0.5},
		},
		{
			// More classes than clusters: class 1 stays unmatched.
			name:  "fewer clusters",
			truth: []int{0, 0, 1, 1, 2, 2},
			pred:  []int{0, 0, 0, 1, 1, 1},
			want:  Scores{Accuracy: 4.0 / 6, NMI: 0.5158037429793889, ARI: 0.24242424242424243, RandIndex: 0.6666666666666666},
		},
		{
			name:  "both single cluster",
			truth: []int{3, 3, 3},
			pred:  []int{-1, -1, -1},
			want:  Scores{Accuracy: 1, NMI: 1, ARI: 1, RandIndex: 1},
		},
		{
			// ARI: sum C(n_ij,2)=0, expected 0·3/3=0, max 1.5 → 0.
			name:  "single cluster vs singletons",
			truth: []int{0, 0, 0},
			pred:  []int{0, 1, 2},
			want:  Scores{Accuracy: 1.0 / 3, NMI: 0, ARI: 0, RandIndex: 0},
		},
		{
			name:  "all singletons",
			truth: []int{5, 6, 7, 8},
			pred:  []int{1, 2, 3, 4},
			want:  Scores{Accuracy: 1, NMI: 1, ARI: 1, RandIndex: 1},
		},
		{
			name:  "one point",
			truth: []int{1},
			pred:  []int{9},
			want:  Scores{Accuracy: 1, NMI: 1, ARI: 1, RandIndex: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Evaluate(tt.truth, tt.pred)
			if err != nil {
				t.Fatal(err)
			}
			checkScores(t, got, tt.want)

			// The single-metric functions must agree with Evaluate.
			acc, err1 := Accuracy(tt.truth, tt.pred)
			nmi, err2 := NMI(tt.truth, tt.pred)
			ari, err3 := ARI(tt.truth, tt.pred)
			ri, err4 := RandIndex(tt.truth, tt.pred)
			for _, err := range []error{err1, err2, err3, err4} {
				if err != nil {
					t.Fatal(err)
				}
			}
			checkScores(t, Scores{acc, nmi, ari, ri}, got)

			// All four metrics are symmetric in their arguments.
			swapped, err := Evaluate(tt.pred, tt.truth)
			if err != nil {
				t.Fatal(err)
			}
			checkScores(t, swapped, got)
		})
	}
}

func TestMetricsIdenticalAndPermuted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 50 {
		n, k := 1+rng.IntN(40), 1+rng.IntN(5)
		truth := make([]int, n)
		for i := range truth {
			truth[i] = rng.IntN(k)
		}
		same, err := Evaluate(truth, truth)
		if err != nil {
			t.Fatal(err)
		}
		checkScores(t, same, Scores{1, 1, 1, 1})

		// Renaming cluster ids (to arbitrary, even negative, values) changes nothing.
		pred := make([]int, n)
		for i := range pred {
			pred[i] = rng.IntN(k + 1)
		}
		perm := rng.Perm(k + 1)
		renamed := make([]int, n)
		for i, p := range pred {
			renamed[i] = 10*perm[p] - 7
		}
		a, err := Evaluate(truth, pred)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Evaluate(truth, renamed)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		checkScores(t, b, a)
	}
}

// TestAccuracyTwoClassFormula checks Accuracy against the GWF paper's two-class formula
// 1 − min(‖y−ŷ‖₁, ‖y−1+ŷ‖₁)/N on random 0/1 labelings.
func TestAccuracyTwoClassFormula(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		n := 1 + rng.IntN(30)
		y, yhat := make([]int, n), make([]int, n)
		for i := range y {
			y[i], yhat[i] = rng.IntN(2), rng.IntN(2)
		}
		d0, d1 := 0, 0
		for i := range y {
			d0 += abs(y[i] - yhat[i])
			d1 += abs(y[i] - 1 + yhat[i])
		}
		want := 1 - float64(min(d0, d1))/float64(n)
		got, err := Accuracy(y, yhat)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > metricTol {
			t.Fatalf("Accuracy(%v, %v) = %v, paper formula %v", y, yhat, got, want)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestMetricsErrors(t *testing.T) {
	tests := []struct {
		name        string
		truth, pred []int
		wantMsg     string
	}{
		{"length mismatch", []int{0, 1}, []int{0}, "2 true labels but 1 predicted"},
		{"empty", []int{}, []int{}, "no labels"},
		{"nil", nil, nil, "no labels"},
	}
	fns := map[string]func(a, b []int) error{
		"Accuracy":  func(a, b []int) error { _, err := Accuracy(a, b); return err },
		"NMI":       func(a, b []int) error { _, err := NMI(a, b); return err },
		"ARI":       func(a, b []int) error { _, err := ARI(a, b); return err },
		"RandIndex": func(a, b []int) error { _, err := RandIndex(a, b); return err },
		"Evaluate":  func(a, b []int) error { _, err := Evaluate(a, b); return err },
	}
	for _, tt := range tests {
		for name, fn := range fns {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				err := fn(tt.truth, tt.pred)
				if err == nil || !strings.Contains(err.Error(), tt.wantMsg) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantMsg)
				}
			})
		}
	}
}
