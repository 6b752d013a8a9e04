package nbkit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"

	"gonum.org/v1/gonum/stat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/training/plot"
)

// Fig3Config are the sizes of Figure 3.
type Fig3Config struct {
	Pairs  int    // graph pairs per setting
	Nodes  int    // nodes per graph
	Edges  int    // edges added with each new node (Barabási–Albert m)
	Layers int    // solver layers traced
	Seed   uint64 // seed of the graphs
}

// Fig3Paper is the paper's size: 100 pairs of 100-node graphs, 100 layers.
func Fig3Paper() Fig3Config {
	return Fig3Config{Pairs: 100, Nodes: 100, Edges: 2, Layers: 100, Seed: 1}
}

// curve is the mean and std of the objective per layer over the pairs.
type curve struct {
	setting, solver string
	mean, std       []float64
}

// Fig3 reproduces Figure 3 of the paper: the GW discrepancy layer by layer of the PPA and
// BADMM modules on pairs of Barabási–Albert graphs, directed and undirected (A + Aᵀ of the
// directed ones), as mean ± std over the pairs. It shows a figure and a table per setting
// (fig3-undirected.png, fig3-directed.png) and keeps the curves in fig3.csv.
func Fig3(ctx context.Context, c Fig3Config, out Output) error {
	if c.Pairs < 2 || c.Nodes < c.Edges+2 || c.Edges < 1 || c.Layers < 1 {
		return errors.New("need pairs ≥ 2, edges ≥ 1, nodes ≥ edges+2 and layers ≥ 1")
	}
	directed, undirected, err := pairsOf(c)
	if err != nil {
		return err
	}
	var solvers []layers.Solver
	for _, name := range []layers.SolverName{layers.SolverPPA, layers.SolverBADMM} {
		so, err := layers.DefaultSolverOptions(name)
		if err != nil {
			return err
		}
		so.Layers = c.Layers
		s, err := layers.NewSolver(so)
		if err != nil {
			return err
		}
		solvers = append(solvers, s)
	}
	out.Markdown("%d pairs of Barabási–Albert graphs of %d nodes (%d edges per new node); directed graphs orient each new edge, the undirected ones are A + Aᵀ. PPA: γ = 0.01, 5 Sinkhorn sweeps per layer; BADMM: γ = 1 (`layers.DefaultSolverOptions`). Uniform node distributions. Mean ± std of ⟨L(T), T⟩ over the pairs after each layer (`layers.Solve` with `State.Trace` set).", c.Pairs, c.Nodes, c.Edges)
	var curves []curve
	for _, set := range []struct {
		name  string
		pairs [][2]*graphs.Graph
	}{{"undirected", undirected}, {"directed", directed}} {
		var cs []curve
		for _, s := range solvers {
			out.Logf("fig3: %s graphs, %s: %d pairs", set.name, s.Name(), len(set.pairs))
			traces, err := traceAll(ctx, s, set.pairs)
			if err != nil {
				return fmt.Errorf("%s, %s: %w", set.name, s.Name(), err)
			}
			cs = append(cs, summarise(set.name, s.Name(), traces))
		}
		if err := showSetting(out, set.name, cs); err != nil {
			return err
		}
		curves = append(curves, cs...)
	}
	var csv strings.Builder
	csv.WriteString("setting,solver,layer,mean,std\n")
	for _, c := range curves {
		for m := range c.mean {
			fmt.Fprintf(&csv, "%s,%s,%d,%.10g,%.10g\n", c.setting, c.solver, m+1, c.mean[m], c.std[m])
		}
	}
	return out.File("fig3.csv", []byte(csv.String()))
}

// pairsOf draws the directed pairs and their symmetrised copies.
func pairsOf(c Fig3Config) (directed, undirected [][2]*graphs.Graph, err error) {
	rng := rand.New(rand.NewPCG(c.Seed, 3))
	for range c.Pairs {
		var pair, sym [2]*graphs.Graph
		for j := range pair {
			if pair[j], err = graphs.DirectedBarabasiAlbert(c.Nodes, c.Edges, rng); err != nil {
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
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var st layers.State
			for i := range next {
				st.Trace = make([]float64, 0, s.Depth())
				a, b := pairs[i][0], pairs[i][1]
				errs[i] = layers.Solve(ctx, s, &st, layers.Space{A: a.A, Mu: a.Mu}, layers.Space{A: b.A, Mu: b.Mu})
				traces[i] = st.Trace
			}
		})
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

// showSetting shows one setting's curves (mean ± std) and tabulates them at a few layers.
func showSetting(out Output, setting string, curves []curve) error {
	marks := []int{1, 5, 10, 20, 50, 100, 200}
	var series []plot.Series
	header := []string{"solver"}
	var rows [][]string
	for _, c := range curves {
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
		rows = append(rows, append(row, fmt.Sprint(settle(c.mean, 0.01))))
	}
	out.Markdown("## %s graphs", setting)
	if err := out.Figure("fig3-"+setting+".png", func(w io.Writer) error {
		return plot.Lines(w, setting+" graphs", "layer", "GW discrepancy", false, series)
	}); err != nil {
		return err
	}
	out.Table(header, rows)
	return nil
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
