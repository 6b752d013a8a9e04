package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/internal/simd"
	"github.com/gwf-graphs/gwf/layers"
)

// GWDSizes are the node counts of the GWD kernels that Kernels times.
func GWDSizes() []int { return []int{20, 40, 100, 200} }

// CurveSizes are the node counts 'gwf bench --curve' times Curve at.
func CurveSizes() []int { return []int{20, 50, 100, 200, 500} }

// Kernels measures the GEMM rates into rep and times the GWD kernels (GWDSizes, sparse then
// dense) and the barycenter with and without the loss, each run at least minTime, appending
// them to rep.Timings and passing each to done (if set) as it is measured.
func Kernels(rep *Report, minTime time.Duration, done func(Kernel)) error {
	rep.GEMMGflops, rep.GonumGflops = GEMMRates(minTime)
	add := func(k Kernel) {
		rep.Timings = append(rep.Timings, k)
		if done != nil {
			done(k)
		}
	}
	for _, dense := range []bool{false, true} {
		for _, n := range GWDSizes() {
			k, err := GWD(n, dense, minTime, rep.GEMMGflops)
			if err != nil {
				return err
			}
			add(k)
		}
	}
	for _, withLoss := range []bool{false, true} {
		k, err := GWB(withLoss, minTime)
		if err != nil {
			return err
		}
		add(k)
	}
	return nil
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

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

// GEMMRates measures one core's dense product rate in GFLOP/s with the solvers' kernel and
// with gonum's Dgemm.
func GEMMRates(minTime time.Duration) (own, gonum float64) {
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

// baSpace is a Barabási–Albert graph (m = 2) with uniform mu.
func baSpace(n int, rng *rand.Rand) (layers.Space, error) {
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

// GWD times one PPA GWD between two BA graphs or, with dense, two dense weighted graphs, run
// at least minTime; gemm, a GEMM rate in GFLOP/s (GEMMRates), gives the time its work would
// take at that rate (none where gemm is 0).
func GWD(n int, dense bool, minTime time.Duration, gemm float64) (Kernel, error) {
	rng := rand.New(rand.NewPCG(3, uint64(n)))
	var src, dst layers.Space
	if dense {
		src, dst = denseSpace(n, rng), denseSpace(n, rng)
	} else {
		var err error
		if src, err = baSpace(n, rng); err != nil {
			return Kernel{}, err
		}
		if dst, err = baSpace(n, rng); err != nil {
			return Kernel{}, err
		}
	}
	p := layers.DefaultPPA()
	var solver layers.Solver = p // boxed once, not per call
	var st layers.State
	d, allocs, err := repeat(minTime, func() error { return layers.Solve(context.Background(), solver, &st, src, dst) })
	if err != nil {
		return Kernel{}, err
	}
	flop := gwdFlop(p, src, dst)
	name := fmt.Sprintf("gwd ppa N=%d", n)
	if dense {
		name = fmt.Sprintf("gwd ppa dense N=%d", n)
	}
	k := Kernel{Name: name, Millis: millis(d), AllocsPerOp: allocs, MFlop: flop / 1e6, Gflops: flop / d.Seconds() / 1e9}
	if gemm > 0 {
		k.AtGEMMRate = flop / (gemm * 1e9) * 1e3
	}
	return k, nil
}

// Curves times Curve with PPA and CG at the CurveSizes up to maxN, appending them to
// rep.Timings and passing each to done (if set) as it is measured.
func Curves(rep *Report, maxN int, minTime time.Duration, done func(Kernel)) error {
	for _, n := range CurveSizes() {
		if n > maxN {
			return nil
		}
		for _, solver := range []layers.SolverName{layers.SolverPPA, layers.SolverCG} {
			k, err := Curve(n, solver, minTime)
			if err != nil {
				return err
			}
			rep.Timings = append(rep.Timings, k)
			if done != nil {
				done(k)
			}
		}
	}
	return nil
}

// Curve times one GWD with the named solver at its defaults between two BA graphs of n
// nodes.
func Curve(n int, name layers.SolverName, minTime time.Duration) (Kernel, error) {
	rng := rand.New(rand.NewPCG(5, uint64(n)))
	src, err := baSpace(n, rng)
	if err != nil {
		return Kernel{}, err
	}
	dst, err := baSpace(n, rng)
	if err != nil {
		return Kernel{}, err
	}
	o, err := layers.DefaultSolverOptions(name)
	if err != nil {
		return Kernel{}, err
	}
	solver, err := layers.NewSolver(o)
	if err != nil {
		return Kernel{}, err
	}
	var st layers.State
	calls, layersRun := 0, 0
	d, allocs, err := repeat(minTime, func() error {
		calls++
		layersRun += st.Layer
		return layers.Solve(context.Background(), solver, &st, src, dst)
	})
	if err != nil {
		return Kernel{}, err
	}
	k := Kernel{Name: fmt.Sprintf("curve %s N=%d", name, n), Millis: millis(d), AllocsPerOp: allocs}
	if name == layers.SolverCG && calls > 1 {
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

// GWB times one barycenter of K = 30 atoms of 35 nodes for a graph of 20 nodes (L = 2) with
// the final GWD and, withLoss, the envelope loss and its gradients.
func GWB(withLoss bool, minTime time.Duration) (Kernel, error) {
	rng := rand.New(rand.NewPCG(4, 5))
	atoms := make([]layers.Atom, 30)
	for k := range atoms {
		s, err := baSpace(35, rng)
		if err != nil {
			return Kernel{}, err
		}
		atoms[k] = layers.Atom{U: s.C, Mu: s.Mu}
	}
	lambda := make([]float64, len(atoms))
	for k := range lambda {
		lambda[k] = 1 / float64(len(atoms))
	}
	obs, err := baSpace(20, rng)
	if err != nil {
		return Kernel{}, err
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
		if err := fwd.Run(context.Background(), &st, atoms, lambda, obs); err != nil {
			return err
		}
		if withLoss {
			st.Envelope(context.Background(), atoms, lambda, obs, 1, gU, nil, gLambda)
		}
		return nil
	})
	if err != nil {
		return Kernel{}, err
	}
	return Kernel{Name: name, Millis: millis(d), AllocsPerOp: allocs}, nil
}
