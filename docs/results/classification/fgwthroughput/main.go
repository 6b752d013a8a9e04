// Command fgwthroughput times gwf's exact FGW (layers.CG) on the pairs of the first N graphs of
// a TU dataset, on one thread: shortest paths, one-hot node labels, feature weight 1, one start
// (the product coupling, as POT's). It writes each pair's objective and iterations for
// fgw_throughput.py, which times POT on the same pairs and compares:
//
//	go run ./docs/results/classification/fgwthroughput --tu ../shared/data/tu/MUTAG --n 60 --out gwf.csv
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
)

func main() {
	dir := flag.String("tu", "", "")
	n := flag.Int("n", 60, "")
	out := flag.String("out", "gwf.csv", "")
	flag.Parse()
	runtime.GOMAXPROCS(1)
	ds, err := graphs.ReadTUPath(*dir, graphs.TUOptions{Features: graphs.FeaturesLabels})
	if err != nil {
		panic(err)
	}
	gs, err := graphs.ShortestPath.Apply(ds.Graphs[:*n])
	if err != nil {
		panic(err)
	}
	cg := layers.DefaultCG()
	cg.Anchors, cg.OrderStart, cg.Weight = 0, false, 1
	type pair struct{ i, j int }
	var pairs []pair
	for i := 0; i < *n; i++ {
		for j := i + 1; j < *n; j++ {
			pairs = append(pairs, pair{i, j})
		}
	}
	obj := make([]float64, len(pairs))
	iters := make([]int, len(pairs))
	var flops float64
	start := time.Now()
	for p, pr := range pairs {
		a, b := gs[pr.i], gs[pr.j]
		r, err := layers.Discrepancy(cg, layers.Space{C: a.Dense(), Mu: a.Mu, F: a.F}, layers.Space{C: b.Dense(), Mu: b.Mu, F: b.F})
		if err != nil {
			panic(err)
		}
		obj[p], iters[p] = r.Objective, r.Layers
		ns, nt := float64(len(a.Mu)), float64(len(b.Mu))
		// per iteration: the gradient Cs·T·Ctᵀ (2 products) and the line search's Cs·ΔT·Ctᵀ (2 more)
		flops += float64(r.Layers) * 2 * 2 * (ns*ns*nt + ns*nt*nt)
	}
	sec := time.Since(start).Seconds()
	f, err := os.Create(*out)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	fmt.Fprintln(f, "i,j,objective,iterations")
	tot := 0
	for p, pr := range pairs {
		fmt.Fprintf(f, "%d,%d,%.12g,%d\n", pr.i, pr.j, obj[p], iters[p])
		tot += iters[p]
	}
	fmt.Printf("gwf: %d pairs in %.3f s: %.0f pairs/s; %.1f iterations a pair; %.3g flop in the products, %.2f GFLOP/s\n", len(pairs), sec, float64(len(pairs))/sec, float64(tot)/float64(len(pairs)), flops, flops/sec/1e9)
}
