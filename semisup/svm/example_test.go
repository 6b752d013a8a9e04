package svm_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/semisup/svm"
)

// Example trains on points of a line with an RBF kernel and classifies new points. With
// graphs, the kernel would instead be ExpKernelSym of their pairwise GW distances.
func Example() {
	x := mat.NewDense(6, 1, []float64{0, 0.5, 1, 4, 4.5, 5})
	y := []int{0, 0, 0, 1, 1, 1}
	sq := svm.SquaredDistances(x, x)
	k := svm.ExpKernelSym(mat.NewSymDense(6, sq.RawMatrix().Data), 0.5)

	m, err := svm.Fit(k, y, 2, 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	xt := mat.NewDense(3, 1, []float64{-1, 2, 6})
	kr := svm.ExpKernel(svm.SquaredDistances(xt, x), 0.5)
	fmt.Println("support:", m.Support())
	fmt.Println("predicted:", m.Predict(kr))
	// Output:
	// support: [0 2 3 5]
	// predicted: [0 0 1]
}
