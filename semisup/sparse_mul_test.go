package semisup

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers/csr"
)

// TestSparseMulOp: P·H by the sparse op equals gorgonia.Mul with P dense, in value and in the
// gradient w.r.t. H of a loss on it (Pᵀ·G), with a non-symmetric P with an empty row.
func TestSparseMulOp(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows, cols, d = 5, 5, 3
	dense := make([]float64, rows*cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			if i != 2 && rng.Float64() < 0.5 { // row 2 empty
				dense[i*cols+j] = rng.NormFloat64()
			}
		}
	}
	p, err := csr.FromDense(mat.NewDense(rows, cols, append([]float64(nil), dense...)))
	if err != nil {
		t.Fatal(err)
	}
	hData := make([]float64, cols*d)
	for i := range hData {
		hData[i] = rng.NormFloat64()
	}
	run := func(sparse bool) (out, grad []float64) {
		g := gorgonia.NewGraph()
		h := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(cols, d), gorgonia.WithName("H"),
			gorgonia.WithValue(tensor.New(tensor.WithShape(cols, d), tensor.WithBacking(append([]float64(nil), hData...)))))
		var ph *gorgonia.Node
		var err error
		if sparse {
			ph, err = gorgonia.ApplyOp(newSparseMulOp(p), h)
		} else {
			pn := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(rows, cols), tensor.WithBacking(append([]float64(nil), dense...))), gorgonia.WithName("P"))
			ph, err = gorgonia.Mul(pn, h)
		}
		if err != nil {
			t.Fatal(err)
		}
		loss := gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.Cube(ph))))
		if _, err := gorgonia.Grad(loss, h); err != nil {
			t.Fatal(err)
		}
		vm := gorgonia.NewTapeMachine(g)
		defer vm.Close()
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		gv, err := h.Grad()
		if err != nil {
			t.Fatal(err)
		}
		return append([]float64(nil), ph.Value().Data().([]float64)...), append([]float64(nil), gv.Data().([]float64)...)
	}
	outS, gradS := run(true)
	outD, gradD := run(false)
	for i := range outD {
		if math.Abs(outS[i]-outD[i]) > 1e-12 {
			t.Fatalf("P·H[%d] = %v sparse, %v dense", i, outS[i], outD[i])
		}
	}
	for i := range gradD {
		if math.Abs(gradS[i]-gradD[i]) > 1e-12*math.Max(1, math.Abs(gradD[i])) {
			t.Fatalf("gradient[%d] = %v sparse, %v dense", i, gradS[i], gradD[i])
		}
	}
}

// TestSelfLoops: A + I in compressed rows, with and without a diagonal entry in A.
func TestSelfLoops(t *testing.T) {
	c := mat.NewDense(3, 3, []float64{0, 2, 0, 1, 5, 1, 0, 3, 0})
	g, err := graphs.New("g", c, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	rowPtr, col, val := selfLoops(g)
	p, err := csr.New(3, rowPtr, col, val) // checks that the columns increase
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(3, 3, []float64{1, 2, 0, 1, 6, 1, 0, 3, 1})
	if !mat.Equal(p.Dense(), want) {
		t.Errorf("A + I =\n%v", mat.Formatted(p.Dense()))
	}
}
