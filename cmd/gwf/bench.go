package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/graphs/collection"
	"github.com/gwf-graphs/gwf/graphs/collection/dataflags"
	"github.com/gwf-graphs/gwf/graphs/datasets"
	"github.com/gwf-graphs/gwf/internal/simd"
	"github.com/gwf-graphs/gwf/layers"
	"github.com/gwf-graphs/gwf/training"
)

type benchFlags struct {
	datasets    []string
	solver      string
	features    string
	standardize bool
	graphs      int
	minTime     time.Duration
	kernels     bool
	curve       bool
	curveMax    int
	tol         float64
	workers     int
	json        bool
}

func newBenchCmd(a *app) *cobra.Command {
	f := &benchFlags{}
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Time the GWD/GWB kernels, the loss and training epochs on this machine",
		Long: `bench measures, with the paper's settings (PPA γ = 0.01, M = 50, 5 sweeps; K = 30
warm-started atoms, L = 2):

  gemm      the machine's dense matrix product rate on one core (256×256): the solvers' own
            kernel (internal/simd) and, for comparison, gonum's pure-Go Dgemm
  gwd       one GWD between two Barabási–Albert graphs (2 edges per new node) of N = 20, 40,
            100, 200 nodes, then between two dense weighted graphs (like barycenters) of the
            same sizes: time, allocations, and its floating-point work as the solver does it
            (sparse products by their non-zeros, 4·N² per Sinkhorn sweep; exps not counted)
            as a rate and as the time it would take at the GEMM rate
  gwb       one barycenter (K = 30 atoms of 35 nodes, N = 20, L = 2) with the final GWD
  loss      the same plus the envelope loss and its gradients
  curve     with --curve: one GWD between two BA graphs of N = 20, 50, 100, 200, 500 nodes
            with PPA (the paper's settings) and with CG (exact, run to convergence), and
            CG's mean number of iterations
  epoch     one training epoch on each --dataset (all graphs, or the first --count of a seeded
            shuffle, extrapolated to the whole dataset), on --workers goroutines

Peak memory is the process's peak resident set so far (it only grows; bench one dataset per
run for a per-dataset figure).`,
		Example: `  gwf bench
  gwf bench --dataset AIDS --dataset PROTEINS --json
  gwf bench --dataset PROTEINS_full --count 200
  gwf bench --kernels=false --dataset IMDB-BINARY --solver badmm
  gwf bench --kernels=false --curve`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBench(cmd, a, f)
		},
	}
	fs := cmd.Flags()
	fs.StringArrayVar(&f.datasets, "dataset", nil, "bundled dataset to time an epoch on (repeatable; none: kernels only)")
	fs.StringVar(&f.solver, "solver", "ppa", "GWD solver for the epochs: ppa (γ = 0.01), badmm (γ = 1) or cg")
	fs.StringVar(&f.features, "features", "none", "node features for the epochs: none, labels or attributes (PROTEINS_full's, for its FGW setting)")
	fs.BoolVar(&f.standardize, "standardize", false, "standardize the node features (see 'gwf fit --help')")
	fs.IntVar(&f.graphs, "count", 0, "time the epoch on this many graphs (0: all) and extrapolate")
	renamedFlag(fs, "count", "graphs") // --graphs is a folder in the data commands
	fs.DurationVar(&f.minTime, "min-time", time.Second, "run each kernel benchmark at least this long")
	fs.BoolVar(&f.kernels, "kernels", true, "time the kernels (--kernels=false: only the epochs)")
	fs.BoolVar(&f.curve, "curve", false, "time PPA and CG for N = 20 to --curve-max")
	fs.IntVar(&f.curveMax, "curve-max", 500, "largest N of --curve")
	fs.Float64Var(&f.tol, "tol", 0, "epochs: the solver's converged mode with this tolerance (see 'gwf gw --help'; 0: the paper's settings)")
	fs.IntVar(&f.workers, "workers", 0, "goroutines for the epochs (0: one per CPU)")
	fs.BoolVar(&f.json, "json", false, "print the report as JSON")
	return cmd
}

// benchReport is what bench prints.
type benchReport struct {
	Machine     string        `json:"machine"`
	CPUs        int           `json:"cpus"`
	Kernels     string        `json:"kernels"`
	GEMMGflops  float64       `json:"gemm_gflops"`
	GonumGflops float64       `json:"gonum_gemm_gflops"`
	Timings     []kernelBench `json:"kernel_timings"`
	Epochs      []epochBench  `json:"epochs,omitempty"`
	PeakRSSMiB  float64       `json:"peak_rss_mib"`
	GoVersion   string        `json:"go_version"`
	Description string        `json:"settings"`
}

type kernelBench struct {
	Name        string  `json:"name"`
	Millis      float64 `json:"ms"`
	AllocsPerOp float64 `json:"allocs_per_op"`
	// Floating-point work and what it means at the measured GEMM rate (GWD only).
	MFlop float64 `json:"mflop,omitempty"`
	// Iterations is CG's mean number of iterations per solve (curve only).
	Iterations float64 `json:"iterations,omitempty"`
	Gflops     float64 `json:"gflops,omitempty"`
	AtGEMMRate float64 `json:"ms_at_gemm_rate,omitempty"`
}

type epochBench struct {
	Dataset         string  `json:"dataset"`
	Solver          string  `json:"solver"`
	Tol             float64 `json:"tol,omitempty"`
	Features        string  `json:"features"`
	Graphs          int     `json:"graphs"`
	Timed           int     `json:"timed_graphs"`
	GraphsPerSec    float64 `json:"graphs_per_sec"`
	SecondsPerEpoch float64 `json:"seconds_per_epoch"`
	PeakRSSMiB      float64 `json:"peak_rss_mib"`
}

func runBench(cmd *cobra.Command, a *app, f *benchFlags) error {
	switch {
	case f.graphs < 0:
		return usagef("--count = %d must not be negative", f.graphs)
	case f.minTime <= 0:
		return usagef("--min-time must be positive")
	case f.workers < 0:
		return usagef("--workers = %d must not be negative", f.workers)
	}
	if _, err := layers.DefaultSolverOptions(f.solver); err != nil {
		return usagef("--solver: %w", err)
	}
	if !(f.tol >= 0 && f.tol < 1) {
		return usagef("--tol = %v must be in [0, 1)", f.tol)
	}
	if _, err := graphs.ParseFeatureKind(f.features); err != nil {
		return usagef("--features: %w", err)
	}
	for _, d := range f.datasets {
		if !dataflags.IsBundled(d) {
			return usagef("unknown dataset %q (bundled: %s)", d, strings.Join(datasets.Names(), ", "))
		}
	}
	ctx := cmd.Context()
	rep := benchReport{
		Machine: runtime.GOOS + "/" + runtime.GOARCH, CPUs: runtime.NumCPU(), Kernels: simd.Kernels(),
		GoVersion:   runtime.Version(),
		Description: "PPA γ=0.01 M=50 inner=5 (epochs: --solver); K=30 warm-started atoms, L=2, batch 32, lr 0.05",
	}
	if f.kernels {
		if err := benchKernels(a, f, &rep); err != nil {
			return err
		}
	}
	if f.curve {
		for _, n := range []int{20, 50, 100, 200, 500} {
			if n > f.curveMax {
				break
			}
			for _, solver := range []string{"ppa", "cg"} {
				k, err := benchCurve(n, solver, f.minTime)
				if err != nil {
					return err
				}
				a.log.Infof("%s: %.3f ms", k.Name, k.Millis)
				rep.Timings = append(rep.Timings, k)
			}
		}
	}
	for _, d := range f.datasets {
		e, err := benchEpoch(ctx, a, d, f)
		if err != nil {
			return err
		}
		rep.Epochs = append(rep.Epochs, e)
	}
	rep.PeakRSSMiB = peakRSSMiB()
	if f.json {
		return writeJSON(cmd.OutOrStdout(), rep)
	}
	return rep.writeTable(cmd.OutOrStdout())
}

// benchKernels times the GEMM rate and the kernels into rep.
func benchKernels(a *app, f *benchFlags, rep *benchReport) error {
	rep.GEMMGflops, rep.GonumGflops = gemmRates(f.minTime)
	a.log.Infof("gemm: %.2f GFLOP/s (one core, %s), gonum %.2f", rep.GEMMGflops, rep.Kernels, rep.GonumGflops)
	for _, dense := range []bool{false, true} {
		for _, n := range []int{20, 40, 100, 200} {
			k, err := benchGWD(n, dense, f.minTime, rep.GEMMGflops)
			if err != nil {
				return err
			}
			a.log.Infof("%s: %.3f ms", k.Name, k.Millis)
			rep.Timings = append(rep.Timings, k)
		}
	}
	for _, withLoss := range []bool{false, true} {
		k, err := benchGWB(withLoss, f.minTime)
		if err != nil {
			return err
		}
		a.log.Infof("%s: %.3f ms", k.Name, k.Millis)
		rep.Timings = append(rep.Timings, k)
	}
	return nil
}

// repeat runs fn until minTime has passed (at least twice, the first call untimed: it sizes
// the workspaces) and returns the mean time and allocations per call.
func repeat(minTime time.Duration, fn func() error) (time.Duration, float64, error) {
	if err := fn(); err != nil {
		return 0, 0, err
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	n := 0
	for n < 2 || time.Since(start) < minTime {
		if err := fn(); err != nil {
			return 0, 0, err
		}
		n++
	}
	el := time.Since(start)
	runtime.ReadMemStats(&after)
	return el / time.Duration(n), float64(after.Mallocs-before.Mallocs) / float64(n), nil
}

// gemmRates measures one core's dense product rate in GFLOP/s with the solvers' kernel and
// with gonum's Dgemm.
func gemmRates(minTime time.Duration) (own, gonum float64) {
	const n = 256
	rng := rand.New(rand.NewPCG(1, 2))
	mk := func() blas64.General {
		g := blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
		for i := range g.Data {
			g.Data[i] = rng.Float64()
		}
		return g
	}
	x, y, z := mk(), mk(), mk()
	// One core: gonum's Dgemm would otherwise split the product across goroutines.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	dOwn, _, _ := repeat(minTime/2, func() error {
		simd.Mul(n, n, n, x.Data, n, y.Data, n, z.Data, n)
		return nil
	})
	dGonum, _, _ := repeat(minTime/2, func() error {
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, x, y, 0, z)
		return nil
	})
	return 2 * n * n * n / dOwn.Seconds() / 1e9, 2 * n * n * n / dGonum.Seconds() / 1e9
}

// benchSpace is a Barabási–Albert graph (m = 2) with uniform mu.
func benchSpace(n int, rng *rand.Rand) (layers.Space, error) {
	g, err := graphs.BarabasiAlbert(n, 2, rng)
	if err != nil {
		return layers.Space{}, err
	}
	return layers.Space{C: g.Dense(), Mu: g.Mu}, nil
}

// denseSpace is a symmetric matrix of uniform [0, 1) weights (a barycenter-like dense
// structure) with uniform mu.
func denseSpace(n int, rng *rand.Rand) layers.Space {
	c := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			v := rng.Float64()
			c.Set(i, j, v)
			c.Set(j, i, v)
		}
	}
	mu := make([]float64, n)
	for i := range mu {
		mu[i] = 1 / float64(n)
	}
	return layers.Space{C: c, Mu: mu}
}

// benchGWD times one PPA GWD between two BA graphs or, with dense, two dense weighted graphs.
func benchGWD(n int, dense bool, minTime time.Duration, gemm float64) (kernelBench, error) {
	rng := rand.New(rand.NewPCG(3, uint64(n)))
	var src, dst layers.Space
	if dense {
		src, dst = denseSpace(n, rng), denseSpace(n, rng)
	} else {
		var err error
		if src, err = benchSpace(n, rng); err != nil {
			return kernelBench{}, err
		}
		if dst, err = benchSpace(n, rng); err != nil {
			return kernelBench{}, err
		}
	}
	p := layers.DefaultPPA()
	var solver layers.Solver = p // boxed once, not per call
	var st layers.State
	d, allocs, err := repeat(minTime, func() error { return layers.Solve(solver, &st, src, dst) })
	if err != nil {
		return kernelBench{}, err
	}
	flop := gwdFlop(p, src, dst)
	name := fmt.Sprintf("gwd ppa N=%d", n)
	if dense {
		name = fmt.Sprintf("gwd ppa dense N=%d", n)
	}
	return kernelBench{
		Name: name, Millis: ms(d), AllocsPerOp: allocs,
		MFlop: flop / 1e6, Gflops: flop / d.Seconds() / 1e9, AtGEMMRate: flop / (gemm * 1e9) * 1e3,
	}, nil
}

// benchCurve times one GWD with the named solver at its defaults between two BA graphs of n
// nodes.
func benchCurve(n int, name string, minTime time.Duration) (kernelBench, error) {
	rng := rand.New(rand.NewPCG(5, uint64(n)))
	src, err := benchSpace(n, rng)
	if err != nil {
		return kernelBench{}, err
	}
	dst, err := benchSpace(n, rng)
	if err != nil {
		return kernelBench{}, err
	}
	o, err := layers.DefaultSolverOptions(name)
	if err != nil {
		return kernelBench{}, err
	}
	solver, err := layers.NewSolver(o)
	if err != nil {
		return kernelBench{}, err
	}
	var st layers.State
	calls, layersRun := 0, 0
	d, allocs, err := repeat(minTime, func() error {
		calls++
		layersRun += st.Layer
		return layers.Solve(solver, &st, src, dst)
	})
	if err != nil {
		return kernelBench{}, err
	}
	k := kernelBench{Name: fmt.Sprintf("curve %s N=%d", name, n), Millis: ms(d), AllocsPerOp: allocs}
	if name == "cg" && calls > 1 {
		k.Iterations = float64(layersRun+st.Layer) / float64(calls) // st.Layer: the last call's
	}
	return k, nil
}

// gwdFlop is the floating-point work of one PPA GWD as the solver does it: per layer the cost
// products Cs·T·Ctᵀ (a sparse structure matrix costs 2 flops per non-zero and column, a dense
// one 2·n per entry of the result) and 4·ns·nt per Sinkhorn sweep; the exps are not counted.
func gwdFlop(p layers.PPA, src, dst layers.Space) float64 {
	ns, nt := float64(src.N()), float64(dst.N())
	product := func(c *mat.Dense, cols float64) float64 {
		n, _ := c.Dims()
		nnz := float64(mat.Sum(nonZero(c)))
		if nnz > 0.1*float64(n*n) { // dense: the products go to GEMM (layers' threshold)
			nnz = float64(n * n)
		}
		return 2 * nnz * cols
	}
	perLayer := product(src.C, nt) + product(dst.C, ns) + float64(4*p.Inner)*ns*nt
	return float64(p.Layers) * perLayer
}

// nonZero is the 0/1 pattern of c.
func nonZero(c *mat.Dense) *mat.Dense {
	var out mat.Dense
	out.Apply(func(_, _ int, v float64) float64 {
		if v != 0 {
			return 1
		}
		return 0
	}, c)
	return &out
}

func benchGWB(withLoss bool, minTime time.Duration) (kernelBench, error) {
	rng := rand.New(rand.NewPCG(4, 5))
	atoms := make([]layers.Atom, 30)
	for k := range atoms {
		s, err := benchSpace(35, rng)
		if err != nil {
			return kernelBench{}, err
		}
		atoms[k] = layers.Atom{U: s.C, Mu: s.Mu}
	}
	lambda := make([]float64, len(atoms))
	for k := range lambda {
		lambda[k] = 1 / float64(len(atoms))
	}
	obs, err := benchSpace(20, rng)
	if err != nil {
		return kernelBench{}, err
	}
	fwd := layers.Forward{GWB: layers.GWB{Solver: layers.DefaultPPA(), Layers: 2}}
	var st layers.ForwardState
	gU := make([]*mat.Dense, len(atoms))
	for k, a := range atoms {
		r, c := a.U.Dims()
		gU[k] = mat.NewDense(r, c, nil)
	}
	gLambda := make([]float64, len(atoms))
	name := "gwb K=30×35 N=20 L=2 + final gwd"
	if withLoss {
		name = "loss+gradients (the same + envelope)"
	}
	d, allocs, err := repeat(minTime, func() error {
		if err := fwd.Run(&st, atoms, lambda, obs); err != nil {
			return err
		}
		if withLoss {
			st.Envelope(atoms, lambda, obs, 1, gU, nil, gLambda)
		}
		return nil
	})
	if err != nil {
		return kernelBench{}, err
	}
	return kernelBench{Name: name, Millis: ms(d), AllocsPerOp: allocs}, nil
}

// benchEpoch times one training epoch with the paper's settings.
func benchEpoch(ctx context.Context, a *app, name string, f *benchFlags) (epochBench, error) {
	df := dataFlags{dataflags.Flags{Dataset: name, Features: f.features, Standardize: f.standardize, MaxNodes: graphs.DefaultLimits.MaxNodes, MaxMemory: float64(graphs.DefaultLimits.MaxDenseBytes) / (1 << 30)}}
	ds, err := df.load()
	if err != nil {
		return epochBench{}, err
	}
	total := len(ds.Graphs)
	if pick := (collection.Spec{Subset: f.graphs, SubsetSeed: 1}).Pick(total); len(pick) < total {
		sub := make([]*graphs.Graph, len(pick))
		for k, i := range pick {
			sub[k] = ds.Graphs[i]
		}
		ds.Graphs = sub
	}
	cfg := training.DefaultConfig().WithSolverDefaults(f.solver)
	cfg.Epochs, cfg.Tol = 1, f.tol
	if err := cfg.Validate(); err != nil {
		return epochBench{}, usageError{err}
	}
	m, err := training.NewModel(ds.Graphs, cfg)
	if err != nil {
		return epochBench{}, err
	}
	p := newProgress(a.log, "bench epoch", map[string]any{"dataset": name})
	start := time.Now()
	if err := training.Fit(ctx, m, ds.Graphs, training.Options{Workers: f.workers, Progress: p.callback(a.silent)}); err != nil {
		return epochBench{}, fmt.Errorf("%s: %w", name, err)
	}
	el := time.Since(start).Seconds()
	rate := float64(len(ds.Graphs)) / el
	e := epochBench{Dataset: ds.Name, Solver: cfg.Solver, Tol: cfg.Tol, Features: f.features, Graphs: total, Timed: len(ds.Graphs), GraphsPerSec: rate,
		SecondsPerEpoch: float64(total) / rate, PeakRSSMiB: peakRSSMiB()}
	a.log.Infof("%s: %.1f graphs/s, %.1f s per epoch", e.Dataset, e.GraphsPerSec, e.SecondsPerEpoch)
	return e, nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// peakRSSMiB is the process's peak resident set size (Linux reports it in KiB).
func peakRSSMiB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024
}

func (rep *benchReport) writeTable(w io.Writer) error {
	fmt.Fprintf(w, "machine: %s, %d CPUs, kernels %s, %s\n", rep.Machine, rep.CPUs, rep.Kernels, rep.GoVersion)
	fmt.Fprintf(w, "settings: %s\n", rep.Description)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if len(rep.Timings) > 0 {
		if rep.GEMMGflops > 0 {
			fmt.Fprintf(w, "GEMM: %.2f GFLOP/s per core (gonum's Dgemm: %.2f)\n", rep.GEMMGflops, rep.GonumGflops)
		}
		fmt.Fprintln(w)
		fmt.Fprintln(tw, "kernel\tms\tallocs/op\tMFLOP\tGFLOP/s\tms at GEMM rate\t")
		for _, k := range rep.Timings {
			switch {
			case k.Iterations > 0:
				fmt.Fprintf(tw, "%s (%.0f iterations)\t%.3f\t%.1f\t\t\t\t\n", k.Name, k.Iterations, k.Millis, k.AllocsPerOp)
			case k.MFlop > 0:
				fmt.Fprintf(tw, "%s\t%.3f\t%.1f\t%.1f\t%.2f\t%.3f\t\n", k.Name, k.Millis, k.AllocsPerOp, k.MFlop, k.Gflops, k.AtGEMMRate)
			default:
				fmt.Fprintf(tw, "%s\t%.3f\t%.1f\t\t\t\t\n", k.Name, k.Millis, k.AllocsPerOp)
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(rep.Epochs) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(tw, "dataset\tsolver\tfeatures\tgraphs\ttimed\tgraphs/s\ts/epoch\tpeak RSS MiB\t")
		for _, e := range rep.Epochs {
			solver := e.Solver
			if e.Tol > 0 {
				solver += fmt.Sprintf(" tol %g", e.Tol)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.1f\t%.1f\t%.0f\t\n", e.Dataset, solver, e.Features, e.Graphs, e.Timed, e.GraphsPerSec, e.SecondsPerEpoch, e.PeakRSSMiB)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "\npeak RSS: %.0f MiB\n", rep.PeakRSSMiB)
	return err
}
