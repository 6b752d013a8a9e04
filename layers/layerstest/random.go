package layerstest

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Dense turns rows into a matrix; nil stays nil.
func Dense(rows [][]float64) *mat.Dense {
	if rows == nil {
		return nil
	}
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// RelErr is max|a−b| / max(max|b|, tiny): the relative error of a matrix (a, row-major) as a
// whole; +Inf if the sizes differ.
func RelErr(a []float64, b [][]float64) float64 {
	var diff, scale float64
	k := 0
	for _, row := range b {
		for _, v := range row {
			if k >= len(a) {
				return math.Inf(1)
			}
			diff = math.Max(diff, math.Abs(a[k]-v))
			scale = math.Max(scale, math.Abs(v))
			k++
		}
	}
	if k != len(a) {
		return math.Inf(1)
	}
	return diff / math.Max(scale, 1e-300)
}

// ScalarRelErr is |a−b| / max(|b|, tiny).
func ScalarRelErr(a, b float64) float64 { return math.Abs(a-b) / math.Max(math.Abs(b), 1e-300) }

// RandomModel makes random atoms of the given sizes (V with some negative entries, so that
// ReLU matters) with uniform masses, their d-dimensional features when d > 0, and z.
func RandomModel(rng *rand.Rand, sizes []int, d int) (v, h []*mat.Dense, mus [][]float64, z []float64) {
	for _, nk := range sizes {
		vk := mat.NewDense(nk, nk, nil)
		for i := 0; i < nk; i++ {
			for j := 0; j < nk; j++ {
				vk.Set(i, j, rng.Float64()*1.5-0.3)
			}
		}
		v = append(v, vk)
		mu := make([]float64, nk)
		for i := range mu {
			mu[i] = 1 / float64(nk)
		}
		mus = append(mus, mu)
		if d > 0 {
			h = append(h, normal(rng, nk, d))
		}
		z = append(z, rng.NormFloat64())
	}
	return v, h, mus, z
}

// RandomGraph makes a random weighted graph: n nodes, edge density p, weights in [0, scale]
// (symmetric unless directed), a random strictly positive mu summing to 1, and d-dimensional
// normal features when d > 0 (f is nil otherwise).
func RandomGraph(rng *rand.Rand, n int, p, scale float64, directed bool, d int) (c, f *mat.Dense, mu []float64) {
	c = mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j || (!directed && j < i) || rng.Float64() > p {
				continue
			}
			w := scale * rng.Float64()
			c.Set(i, j, w)
			if !directed {
				c.Set(j, i, w)
			}
		}
	}
	mu = make([]float64, n)
	s := 0.0
	for i := range mu {
		mu[i] = 0.5 + rng.Float64()
		s += mu[i]
	}
	for i := range mu {
		mu[i] /= s
	}
	if d > 0 {
		f = normal(rng, n, d)
	}
	return c, f, mu
}

func normal(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	return m
}
