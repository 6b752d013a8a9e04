package cluster

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Defaults applied when the corresponding KMeansOptions field is zero.
const (
	DefaultRestarts = 10
	DefaultMaxIter  = 300
	DefaultTol      = 1e-8
)

// pcgStream is the fixed second PCG seed word; only KMeansOptions.Seed varies the stream.
const pcgStream = 0x9e3779b97f4a7c15

// KMeansOptions configures KMeans. Zero values of Restarts, MaxIter and Tol select the
// defaults (DefaultRestarts, DefaultMaxIter, DefaultTol).
type KMeansOptions struct {
	// K is the number of clusters, 1 ≤ K ≤ len(x).
	K int
	// Restarts is the number of independent k-means++ initialisations; the run with the
	// lowest inertia is returned (the earliest one on ties).
	Restarts int
	// MaxIter bounds the Lloyd iterations of each restart.
	MaxIter int
	// Tol stops a restart when the relative inertia change |old−new|/old is at most Tol.
	Tol float64
	// Seed seeds the PCG generator; the same seed gives the same Result.
	Seed uint64
}

// Result is a K-means clustering.
type Result struct {
	// Assign[i] is the cluster of point i: the index of a nearest center in Centers.
	Assign []int
	// Centers holds K centers of the same dimension as the points.
	Centers [][]float64
	// Inertia is the sum of squared Euclidean distances of the points to their centers.
	Inertia float64
	// Iterations is the number of Lloyd iterations of the returned restart.
	Iterations int
}

// KMeans clusters the rows of x into opt.K groups minimising the sum of squared Euclidean
// distances (inertia). Each restart seeds centers with k-means++ and runs Lloyd iterations
// until the assignment no longer changes, the relative inertia change drops to opt.Tol, or
// opt.MaxIter iterations have run.
//
// The restarts draw, one after another, from a single generator, so the first restart of a
// run with Restarts = R is the whole of the run with Restarts = 1 and the same seed: more
// restarts never give a higher inertia.
//
// A cluster that becomes empty is re-seeded with the point farthest from its current center
// (taken from a cluster with at least two points, lowest index on ties), so the clusters are
// non-empty on return unless MaxIter was reached during such a repair. Ties in the nearest
// center keep a point in its current cluster, otherwise go to the lowest center index; this
// makes results deterministic and stops duplicate points from oscillating between clusters.
//
// KMeans returns an error, and never panics, for: no points, K < 1, K > len(x), zero-length or
// ragged rows, NaN or ±Inf entries, negative Restarts or MaxIter, negative or NaN Tol, and
// data so large that squared distances overflow float64.
func KMeans(x [][]float64, opt KMeansOptions) (Result, error) {
	if err := validateKMeans(x, opt); err != nil {
		return Result{}, err
	}
	restarts, maxIter, tol := opt.Restarts, opt.MaxIter, opt.Tol
	if restarts == 0 {
		restarts = DefaultRestarts
	}
	if maxIter == 0 {
		maxIter = DefaultMaxIter
	}
	if tol == 0 {
		tol = DefaultTol
	}

	rng := rand.New(rand.NewPCG(opt.Seed, pcgStream))
	var best Result
	for r := range restarts {
		res, err := lloyd(x, opt.K, maxIter, tol, rng)
		if err != nil {
			return Result{}, fmt.Errorf("cluster: kmeans restart %d: %w", r, err)
		}
		// Strict < keeps the earliest restart on ties, for determinism.
		if r == 0 || res.Inertia < best.Inertia {
			best = res
		}
	}
	return best, nil
}

func validateKMeans(x [][]float64, opt KMeansOptions) error {
	n := len(x)
	switch {
	case n == 0:
		return fmt.Errorf("cluster: kmeans needs at least one point")
	case opt.K < 1:
		return fmt.Errorf("cluster: kmeans K = %d, want ≥ 1", opt.K)
	case opt.K > n:
		return fmt.Errorf("cluster: kmeans K = %d exceeds the number of points %d", opt.K, n)
	case opt.Restarts < 0:
		return fmt.Errorf("cluster: kmeans Restarts = %d is negative", opt.Restarts)
	case opt.MaxIter < 0:
		return fmt.Errorf("cluster: kmeans MaxIter = %d is negative", opt.MaxIter)
	case opt.Tol < 0 || math.IsNaN(opt.Tol):
		return fmt.Errorf("cluster: kmeans Tol = %v, want ≥ 0", opt.Tol)
	}
	d := len(x[0])
	if d == 0 {
		return fmt.Errorf("cluster: kmeans points have zero dimensions")
	}
	for i, row := range x {
		if len(row) != d {
			return fmt.Errorf("cluster: kmeans point %d has %d dimensions, point 0 has %d", i, len(row), d)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("cluster: kmeans point %d coordinate %d is %v", i, j, v)
			}
		}
	}
	return nil
}

// lloyd runs one k-means++-seeded restart.
func lloyd(x [][]float64, k, maxIter int, tol float64, rng *rand.Rand) (Result, error) {
	n := len(x)
	centers := seedCenters(x, k, rng)
	assign := make([]int, n)
	for i := range assign {
		assign[i] = -1
	}
	dist := make([]float64, n)
	counts := make([]int, k)

	_, inertia := assignPoints(x, centers, assign, dist)
	if math.IsInf(inertia, 0) || math.IsNaN(inertia) {
		return Result{}, fmt.Errorf("squared distances overflow float64; rescale the data")
	}
	iter := 0
	for iter < maxIter {
		iter++
		countMembers(assign, counts)
		fillEmpty(assign, dist, counts)
		updateCenters(x, assign, counts, centers)
		changed, next := assignPoints(x, centers, assign, dist)
		prev := inertia
		inertia = next
		if !changed {
			break
		}
		// The tolerance only ends a restart whose clusters are all occupied, so an empty
		// cluster always gets repaired when iterations remain.
		if math.Abs(prev-next) <= tol*prev && !hasEmpty(assign, counts) {
			break
		}
	}
	return Result{Assign: assign, Centers: centers, Inertia: inertia, Iterations: iter}, nil
}

// seedCenters picks k initial centers by k-means++: the first uniformly, each next one with
// probability proportional to its squared distance to the nearest chosen center.
func seedCenters(x [][]float64, k int, rng *rand.Rand) [][]float64 {
	n := len(x)
	centers := make([][]float64, 0, k)
	centers = append(centers, clone(x[rng.IntN(n)]))
	d2 := make([]float64, n)
	for i, p := range x {
		d2[i] = sqDist(p, centers[0])
	}
	for len(centers) < k {
		total := 0.0
		for _, d := range d2 {
			total += d
		}
		var next int
		if total > 0 {
			r := rng.Float64() * total
			next = -1
			cum := 0.0
			last := 0
			for i, d := range d2 {
				if d == 0 {
					continue // Already a center; never pick it again.
				}
				cum += d
				last = i
				if r < cum {
					next = i
					break
				}
			}
			if next < 0 {
				next = last // Rounding left r ≥ the final cumulative sum.
			}
		} else {
			// Every point coincides with a center (duplicates): any choice is as good.
			next = rng.IntN(n)
		}
		c := clone(x[next])
		centers = append(centers, c)
		for i, p := range x {
			if d := sqDist(p, c); d < d2[i] {
				d2[i] = d
			}
		}
	}
	return centers
}

// assignPoints moves each point to its nearest center, keeping the current cluster on ties
// (or the lowest index when the point has none yet, assign[i] < 0). It stores the squared
// distances in dist and reports whether any assignment changed, and the inertia.
func assignPoints(x, centers [][]float64, assign []int, dist []float64) (bool, float64) {
	changed := false
	inertia := 0.0
	for i, p := range x {
		best, bestD := -1, math.Inf(1)
		for j, c := range centers {
			if d := sqDist(p, c); d < bestD || best < 0 {
				best, bestD = j, d
			}
		}
		if cur := assign[i]; cur >= 0 && cur != best && sqDist(p, centers[cur]) == bestD {
			best = cur
		}
		if best != assign[i] {
			changed = true
			assign[i] = best
		}
		dist[i] = bestD
		inertia += bestD
	}
	return changed, inertia
}

func countMembers(assign, counts []int) {
	clear(counts)
	for _, a := range assign {
		counts[a]++
	}
}

func hasEmpty(assign, counts []int) bool {
	countMembers(assign, counts)
	for _, c := range counts {
		if c == 0 {
			return true
		}
	}
	return false
}

// fillEmpty gives every empty cluster the point farthest from its center among clusters with
// at least two members (lowest index on ties). Since K ≤ n, such a point exists whenever a
// cluster is empty, and taking it never empties another cluster.
func fillEmpty(assign []int, dist []float64, counts []int) {
	for j, c := range counts {
		if c > 0 {
			continue
		}
		far := -1
		for i, a := range assign {
			if counts[a] > 1 && (far < 0 || dist[i] > dist[far]) {
				far = i
			}
		}
		counts[assign[far]]--
		assign[far] = j
		counts[j] = 1
		dist[far] = 0
	}
}

// updateCenters sets each non-empty cluster's center to the mean of its members. Points are
// divided by the count before summing so that large finite coordinates cannot overflow.
func updateCenters(x [][]float64, assign, counts []int, centers [][]float64) {
	for j, c := range centers {
		if counts[j] > 0 {
			clear(c)
		}
	}
	for i, p := range x {
		a := assign[i]
		inv := 1 / float64(counts[a])
		c := centers[a]
		for t, v := range p {
			c[t] += v * inv
		}
	}
}

func sqDist(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		d := v - b[i]
		s += d * d
	}
	return s
}

func clone(p []float64) []float64 {
	return append([]float64(nil), p...)
}
