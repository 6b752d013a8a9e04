// Command cgtolerance measures what CG's stopping tolerance costs and saves on the pairs of a TU
// dataset's first N graphs (no labels read): for each relative tolerance, the iterations a pair
// and the excess of the objective where the iterations would have stopped over the one at POT's
// 1e-9 (fgwsvm.DefaultTolerance was chosen with it; docs/results/classification.md):
//
//	go run ./docs/results/classification/cgtolerance --tu ../shared/data/tu-extra/ENZYMES --n 50
package main

import (
	"context"
	"flag"
	"fmt"
	"math"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
)

func main() {
	dir := flag.String("tu", "../shared/data/tu-extra/ENZYMES", "TU dataset folder")
	sp := flag.Bool("sp", false, "shortest paths instead of the adjacency")
	n := flag.Int("n", 50, "the first N graphs")
	w := flag.Float64("w", 0.05, "feature weight (one-hot node labels)")
	flag.Parse()
	ds, err := graphs.ReadTUPath(*dir, graphs.TUOptions{Features: graphs.FeaturesLabels})
	if err != nil {
		panic(err)
	}
	gs := ds.Graphs[:*n]
	if *sp {
		if gs, err = graphs.ShortestPath.Apply(gs); err != nil {
			panic(err)
		}
	}
	cg := layers.DefaultCG()
	cg.Anchors, cg.MaxIter, cg.Weight = 0, 200, *w
	tols := []float64{1e-9, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3}
	iters := make([]float64, len(tols))
	relerr := make([]float64, len(tols))
	maxerr := make([]float64, len(tols))
	pairs := 0
	var st layers.State
	for i := range gs {
		for j := i + 1; j < len(gs); j++ {
			a, b := gs[i], gs[j]
			st.Trace = make([]float64, 0, 256)
			if err := layers.Solve(context.Background(), cg, &st, layers.Space{C: a.Dense(), Mu: a.Mu, F: a.F}, layers.Space{C: b.Dense(), Mu: b.Mu, F: b.F}); err != nil {
				panic(err)
			}
			tr := st.Trace
			final := tr[len(tr)-1]
			pairs++
			for t, tol := range tols {
				k := len(tr) - 1
				for m := 1; m < len(tr); m++ {
					ch := math.Abs(tr[m] - tr[m-1])
					if ch <= 1e-9 || ch <= tol*math.Abs(tr[m]) {
						k = m
						break
					}
				}
				iters[t] += float64(k + 1)
				e := math.Abs(tr[k]-final) / math.Max(final, 1e-12)
				relerr[t] += e
				maxerr[t] = math.Max(maxerr[t], e)
			}
		}
	}
	for t, tol := range tols {
		fmt.Printf("tol %g: iterations/pair %.1f, mean rel. objective excess %.2e, max %.2e\n", tol, iters[t]/float64(pairs), relerr[t]/float64(pairs), maxerr[t])
	}
}
