package subset

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestInts(t *testing.T) {
	if got := Ints([]int{10, 11, 12, 13}, []int{3, 0, 3}); !slices.Equal(got, []int{13, 10, 13}) {
		t.Fatalf("Ints = %v", got)
	}
	if got := Ints([]int{1}, nil); len(got) != 0 {
		t.Fatalf("Ints of no index = %v", got)
	}
}

func TestRows(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, 5})
	got := Rows(x, []int{2, 0})
	if want := mat.NewDense(2, 2, []float64{4, 5, 0, 1}); !mat.Equal(got, want) {
		t.Fatalf("Rows = %v, want %v", mat.Formatted(got), mat.Formatted(want))
	}
	got.Set(0, 0, 9)
	if x.At(2, 0) != 4 {
		t.Fatal("Rows shares memory with its input")
	}
}
