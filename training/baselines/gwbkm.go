package baselines

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/layers/pairwise"
)

// GWBKMOptions configure GWBKMeans.
type GWBKMOptions struct {
	Options
	// Iterations bounds the assign/update rounds (default 10); it stops earlier when no graph
	// changes cluster.
	Iterations int
}

// GWBKMeans clusters data into k groups with GW barycenters as centers. The initial centers
// are k distinct random graphs (seeded); every round assigns each graph to the center of least
// GW discrepancy and recomputes each center as the barycenter (equal weights, Algorithm 3) of
// its members, started from the current center. A cluster left empty keeps its center.
func GWBKMeans(ctx context.Context, data []*graphs.Graph, k int, opt GWBKMOptions) ([]int, Stats, error) {
	start := time.Now()
	if k < 1 || k > len(data) {
		return nil, Stats{}, fmt.Errorf("gwb-km: %d clusters for %d graphs", k, len(data))
	}
	iters, layersL := opt.Iterations, opt.config().GWBLayers
	if iters <= 0 {
		iters = 10
	}
	if layersL < 1 {
		return nil, Stats{}, fmt.Errorf("gwb-km: %d barycenter layers, need at least 1", layersL)
	}
	s, err := opt.solver()
	if err != nil {
		return nil, Stats{}, err
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x6b6d))
	centers := make([]layers.Space, k)
	for c, i := range rng.Perm(len(data))[:k] {
		centers[c] = space(data[i])
	}
	assign := make([]int, len(data))
	for i := range assign {
		assign[i] = -1
	}
	dist := make([]float64, len(data)*k)
	var stats Stats
	for it := 0; it < iters; it++ {
		// Assignment: every graph against every center.
		err := pairwise.Each(ctx, len(data)*k, opt.pairwise(), func(st *layers.State, t int) error {
			i, c := t/k, t%k
			if err := layers.Solve(ctx, s, st, space(data[i]), centers[c]); err != nil {
				return fmt.Errorf("gwb-km: gwd of graph %q and center %d: %w", data[i].Name, c, err)
			}
			dist[t] = st.Objective()
			return nil
		})
		if err != nil {
			return nil, stats, err
		}
		stats.GWDs += len(data) * k
		changed := 0
		for i := range data {
			best := 0
			for c := 1; c < k; c++ {
				if dist[i*k+c] < dist[i*k+best] {
					best = c
				}
			}
			if assign[i] != best {
				assign[i] = best
				changed++
			}
		}
		if changed == 0 {
			break
		}
		// Update: each center becomes the barycenter of its members.
		newCenters := make([]layers.Space, k)
		quiet := opt.Options
		quiet.Observe = nil
		err = pairwise.Each(ctx, k, quiet.pairwise(), func(_ *layers.State, c int) error {
			var atoms []layers.Atom
			for i, a := range assign {
				if a == c {
					atoms = append(atoms, layers.Atom{U: data[i].Dense(), Mu: data[i].Mu, H: data[i].F})
				}
			}
			if len(atoms) == 0 {
				newCenters[c] = centers[c]
				return nil
			}
			lambda := make([]float64, len(atoms))
			for j := range lambda {
				lambda[j] = 1 / float64(len(atoms))
			}
			var st layers.GWBState
			if err := (layers.GWB{Solver: s, Layers: layersL}).Compute(ctx, &st, atoms, lambda, centers[c]); err != nil {
				return fmt.Errorf("gwb-km: barycenter of cluster %d: %w", c, err)
			}
			b := layers.Space{C: denseCopy(st.Barycenter()), Mu: centers[c].Mu}
			if f := st.Features(); f != nil {
				b.F = denseCopy(f)
			}
			if !finiteSpace(b) {
				return fmt.Errorf("gwb-km: barycenter of cluster %d is not finite", c)
			}
			newCenters[c] = b
			return nil
		})
		if err != nil {
			return nil, stats, err
		}
		stats.GWDs += layersL * len(data)
		centers = newCenters
	}
	stats.Seconds = time.Since(start).Seconds()
	return assign, stats, nil
}

func denseCopy(m *mat.Dense) *mat.Dense { return mat.DenseCopyOf(m) }

func finiteSpace(s layers.Space) bool {
	for _, m := range []*mat.Dense{s.C, s.F} {
		if m == nil {
			continue
		}
		for _, v := range m.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}
