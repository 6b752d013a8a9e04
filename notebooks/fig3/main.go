// Command fig3 reproduces Figure 3 of the paper: the GW discrepancy layer by layer of the PPA
// and BADMM modules on pairs of Barabási–Albert graphs, directed and undirected (A + Aᵀ of the
// directed ones), as mean ± std over the pairs. It writes fig3-undirected.png,
// fig3-directed.png, fig3.csv and report.md to --output-dir.
//
//	go run ./notebooks/fig3 --output-dir results/fig3              # the paper's size: 100 pairs, 100 nodes
//	go run ./notebooks/fig3 --output-dir /tmp/fig3 --pairs 4 --nodes 20 --layers 10   # a quick look
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"

	"gonum.org/v1/gonum/stat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/notebooks/internal/nb"
	"github.com/gwf-graphs/gwf/training/plot"
)

// options of one run.
type options struct {
	pairs, nodes, edges, layers int
	seed                        uint64
	out                         string
}

func main() {
	var o options
	fs := nb.NewFlagSet("fig3")
	fs.IntVar(&o.pairs, "pairs", 100, "graph pairs per setting")
	fs.IntVar(&o.nodes, "nodes", 100, "nodes per graph")
	fs.IntVar(&o.edges, "edges", 2, "edges added with each new node (Barabási–Albert m)")
	fs.IntVar(&o.layers, "layers", 100, "solver layers to trace")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the graphs")
	nb.OutputDir(fs, &o.out, "results/fig3")
	fs.Parse(os.Args[1:])
	if err := run(context.Background(), o, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fig3:", err)
		os.Exit(1)
	}
}

// curve is the mean and std of the objective per layer over the pairs.
type curve struct {
	setting, solver string
	mean, std       []float64
}

func run(ctx context.Context, o options, log io.Writer) error {
	if o.pairs < 2 || o.nodes < o.edges+2 || o.edges < 1 || o.layers < 1 {
		return errors.New("need --pairs ≥ 2, --edges ≥ 1, --nodes ≥ edges+2 and --layers ≥ 1")
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	directed, undirected, err := pairsOf(o)
	if err != nil {
		return err
	}
	var solvers []layers.Solver
	for _, name := range []layers.SolverName{layers.SolverPPA, layers.SolverBADMM} {
		so, err := layers.DefaultSolverOptions(name)
		if err != nil {
			return err
		}
		so.Layers = o.layers
		s, err := layers.NewSolver(so)
		if err != nil {
			return err
		}
		solvers = append(solvers, s)
	}
	var curves []curve
	for _, set := range []struct {
		name  string
		pairs [][2]*graphs.Graph
	}{{"undirected", undirected}, {"directed", directed}} {
		for _, s := range solvers {
			fmt.Fprintf(log, "fig3: %s graphs, %s: %d pairs\n", set.name, s.Name(), len(set.pairs))
			traces, err := traceAll(ctx, s, set.pairs)
			if err != nil {
				return fmt.Errorf("%s, %s: %w", set.name, s.Name(), err)
			}
			curves = append(curves, summarise(set.name, s.Name(), traces))
		}
	}
	return write(o, curves)
}

// pairsOf draws the directed pairs and their symmetrised copies.
func pairsOf(o options) (directed, undirected [][2]*graphs.Graph, err error) {
	rng := rand.New(rand.NewPCG(o.seed, 3))
	for p := 0; p < o.pairs; p++ {
		var pair, sym [2]*graphs.Graph
		for j := range pair {
			if pair[j], err = graphs.DirectedBarabasiAlbert(o.nodes, o.edges, rng); err != nil {
				return nil, nil, err
			}
			sym[j] = graphs.Symmetrized(pair[j])
		}
		directed = append(directed, pair)
		undirected = append(undirected, sym)
	}
	return directed, undirected, nil
}

// traceAll solves every pair (on all cores) and returns the per-layer objectives.
func traceAll(ctx context.Context, s layers.Solver, pairs [][2]*graphs.Graph) ([][]float64, error) {
	traces := make([][]float64, len(pairs))
	errs := make([]error, len(pairs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var st layers.State
			for i := range next {
				st.Trace = make([]float64, 0, s.Depth())
				a, b := pairs[i][0], pairs[i][1]
				errs[i] = layers.Solve(s, &st, layers.Space{A: a.A, Mu: a.Mu}, layers.Space{A: b.A, Mu: b.Mu})
				traces[i] = st.Trace
			}
		}()
	}
	for i := range pairs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return traces, errors.Join(errs...)
}

func summarise(setting, solver string, traces [][]float64) curve {
	c := curve{setting: setting, solver: solver}
	col := make([]float64, len(traces))
	for m := range traces[0] {
		for i, t := range traces {
			col[i] = t[m]
		}
		mean, std := stat.MeanStdDev(col, nil)
		c.mean = append(c.mean, mean)
		c.std = append(c.std, std)
	}
	return c
}

// write saves the plots, the CSV and the report.
func write(o options, curves []curve) error {
	var csv strings.Builder
	csv.WriteString("setting,solver,layer,mean,std\n")
	for _, c := range curves {
		for m := range c.mean {
			fmt.Fprintf(&csv, "%s,%s,%d,%.10g,%.10g\n", c.setting, c.solver, m+1, c.mean[m], c.std[m])
		}
	}
	if err := nb.WriteFile(o.out+"/fig3.csv", []byte(csv.String())); err != nil {
		return err
	}
	rep := nb.NewReport("Figure 3: PPA vs BADMM, GW discrepancy per layer",
		fmt.Sprintf("go run ./notebooks/fig3 --output-dir %s --pairs %d --nodes %d --edges %d --layers %d --seed %d", o.out, o.pairs, o.nodes, o.edges, o.layers, o.seed))
	rep.Printf("%d pairs of Barabási–Albert graphs of %d nodes (%d edges per new node); directed graphs orient each new edge, the undirected ones are A + Aᵀ. PPA: γ = 0.01, 5 Sinkhorn sweeps per layer; BADMM: γ = 1. Uniform node distributions. Mean ± std of <L(T),T> over the pairs after each layer.\n\n", o.pairs, o.nodes, o.edges)
	marks := []int{1, 5, 10, 20, 50, 100, 200}
	for _, setting := range []string{"undirected", "directed"} {
		var series []plot.Series
		header := []string{"solver"}
		var rows [][]string
		for _, c := range curves {
			if c.setting != setting {
				continue
			}
			x := make([]float64, len(c.mean))
			for m := range x {
				x[m] = float64(m + 1)
			}
			series = append(series, plot.Series{Name: strings.ToUpper(c.solver), X: x, Y: c.mean, Err: c.std})
			row := []string{strings.ToUpper(c.solver)}
			header = header[:1]
			for _, m := range marks {
				if m <= len(c.mean) {
					header = append(header, fmt.Sprintf("layer %d", m))
					row = append(row, fmt.Sprintf("%.4g ± %.2g", c.mean[m-1], c.std[m-1]))
				}
			}
			header = append(header, "layers to within 1% of the last")
			row = append(row, fmt.Sprint(settle(c.mean, 0.01)))
			rows = append(rows, row)
		}
		png := fmt.Sprintf("fig3-%s.png", setting)
		if err := nb.SavePNG(o.out+"/"+png, func(w io.Writer) error {
			return plot.Lines(w, setting+" graphs", "layer", "GW discrepancy", false, series)
		}); err != nil {
			return err
		}
		rep.Printf("## %s graphs\n\n![%s](%s)\n\n", setting, setting, png)
		rep.Table(header, rows)
	}
	return rep.Save(o.out)
}

// settle is the first layer from which the mean stays within tol (relative) of its final value.
func settle(mean []float64, tol float64) int {
	last := mean[len(mean)-1]
	at := len(mean)
	for m := len(mean) - 1; m >= 0; m-- {
		if math.Abs(mean[m]-last) > tol*math.Abs(last) {
			break
		}
		at = m + 1
	}
	return at
}
