package meanstd

import (
	"math"
	"testing"
)

func TestMeanStd(t *testing.T) {
	tests := []struct {
		name      string
		xs        []float64
		mean, std float64
	}{
		{"four", []float64{1, 2, 3, 4}, 2.5, math.Sqrt(5.0 / 3)},
		{"one", []float64{0.7}, 0.7, 0},
		{"constant", []float64{2, 2, 2}, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, s := Of(tt.xs)
			if math.Abs(m-tt.mean) > 1e-12 || math.Abs(s-tt.std) > 1e-12 {
				t.Errorf("Of(%v) = %v, %v; want %v, %v", tt.xs, m, s, tt.mean, tt.std)
			}
		})
	}
	if m, s := Of(nil); !math.IsNaN(m) || !math.IsNaN(s) {
		t.Errorf("Of(nil) = %v, %v; want NaN, NaN", m, s)
	}
}

func TestFormatMeanStd(t *testing.T) {
	tests := []struct {
		xs    []float64
		scale float64
		want  string
	}{
		{[]float64{0.99, 1.0, 0.995}, 100, "99.5 ± 0.5"},
		{[]float64{0.5}, 100, "50.0 ± 0.0"},
		{[]float64{12.31, 12.33}, 1, "12.3 ± 0.0"},
		{[]float64{-0.0001}, 1, "0.0 ± 0.0"},
		{nil, 100, "NaN ± NaN"},
	}
	for _, tt := range tests {
		if got := Format(tt.xs, tt.scale); got != tt.want {
			t.Errorf("Format(%v, %v) = %q, want %q", tt.xs, tt.scale, got, tt.want)
		}
	}
}
