package simd

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// The shapes of a GWD layer: a dense N×N barycenter times an N×Nₖ transport.
var benchShapes = [][3]int{{20, 20, 20}, {40, 40, 40}, {100, 40, 100}, {256, 256, 256}, {620, 40, 620}, {2000, 2000, 2000}, {2000, 20, 2000}, {2000, 128, 2000}}

func BenchmarkMulAdd(b *testing.B) {
	for _, s := range benchShapes {
		m, n, k := s[0], s[1], s[2]
		x, y, z := make([]float64, m*k), make([]float64, k*n), make([]float64, m*n)
		for i := range x {
			x[i] = 1
		}
		for i := range y {
			y[i] = 1
		}
		b.Run(fmt.Sprintf("gemm/%dx%dx%d", m, n, k), func(b *testing.B) {
			for b.Loop() {
				MulAdd(m, n, k, 1, x, k, y, n, z, n)
			}
			b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("gonum/%dx%dx%d", m, n, k), func(b *testing.B) {
			gx := blas64.General{Rows: m, Cols: k, Stride: k, Data: x}
			gy := blas64.General{Rows: k, Cols: n, Stride: n, Data: y}
			gz := blas64.General{Rows: m, Cols: n, Stride: n, Data: z}
			for b.Loop() {
				blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, gx, gy, 1, gz)
			}
			b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkKernelWidth compares the AVX2 and AVX-512 tilings on the same shapes.
func BenchmarkKernelWidth(b *testing.B) {
	if !use512 {
		b.Skip("no AVX-512")
	}
	defer func() { use512 = true }()
	for _, s := range benchShapes {
		m, n, k := s[0], s[1], s[2]
		x, y, z := make([]float64, m*k), make([]float64, k*n), make([]float64, m*n)
		for _, wide := range []bool{false, true} {
			b.Run(fmt.Sprintf("%dx%dx%d/avx512=%v", m, n, k, wide), func(b *testing.B) {
				use512 = wide
				for b.Loop() {
					MulAdd(m, n, k, 1, x, k, y, n, z, n)
				}
				b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
