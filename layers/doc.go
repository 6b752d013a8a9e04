// Package layers holds the computational modules of Gromov-Wasserstein factorization
// (Xu, "Gromov-Wasserstein Factorization Models for Graph Clustering", AAAI 2020):
//
//   - the (fused) GW cost L(T) = Cst − 2·Cs·T·Ctᵀ + w·D, with Cst from eq. (5);
//   - two unrolled GWD modules sharing the Solver interface: PPA (Algorithm 1) and BADMM
//     (Algorithm 2); each is M explicit layers (Init, then Step per layer) over a reusable State,
//     with an optional per-layer trace of the objective, and a converged mode (Tol) whose
//     transports meet both marginals; CG, conditional gradient with exact OT steps
//     (sub-package emd), behind the same interface; NewSolver builds any of them by name (a
//     SolverName), and every result reports its marginal error. A State holds the problem
//     and one workspace per solver, so one State serves any of them without allocating;
//   - the GWB module (Algorithm 3): L layers of K GWDs and the barycenter update, returning
//     B⁽ᴸ⁾, F_b⁽ᴸ⁾ and the atom transports;
//   - Forward: GWB from the observed graph plus the final GWD (Algorithm 4, lines 5–7);
//   - the envelope-theorem loss of eq. (approx) with its analytic gradients
//     (ForwardState.Envelope), the one place where the chain λ = softmax(z), U = ReLU(V) →
//     loss → gradients is written (SoftmaxBackward and ReLUBackward finish it).
//
// The package imports no autodiff library: computing a GWD needs no Gorgonia. The Gorgonia
// building blocks (GWD and GWB as nodes with detached transports, the GWF loss of a batch as
// one node) are in the sub-package gwops, which calls these kernels inside its ops.
//
// # Numerics
//
// Everything is float64. The exponentials of both solvers are shifted per row or column so
// they never overflow; when a marginal sum would still underflow (γ down to 1e-4, edge weights up
// to 1e3), that layer is recomputed in the log domain. Where nothing underflows the results are
// those of the plain updates. PPA's rows match μs exactly after every layer (its columns only
// approximately: see DefaultPPA); BADMM's rows match μs exactly. Transport and barycenter
// entries below the smallest normal float64 are flushed to zero: they carry no weight, and x86
// multiplies subnormal numbers about a hundred times more slowly.
//
// # Speed
//
// GWD and GWB run thousands of times per training epoch: with a reused State, GWBState or
// ForwardState they allocate nothing per call (TestNoAllocationInSteadyState), and they never
// build a Gorgonia graph. The dense products, the exps and the Sinkhorn passes run on the
// vectorised kernels of gwf/internal/simd (AVX2/FMA or AVX-512 assembly, Go elsewhere); dense
// matrices are multiplied as such, sparse observed graphs and atoms in compressed-row form.
// An observed graph may come stored sparse (Space.A, a csr.Matrix): a State writes it out dense
// in its own buffer for the one problem it solves, so a corpus is never held dense. A
// barycenter built from atoms much smaller than the graph is multiplied in its factored form
// Σ_k λ_k·W_k·U_k·W_kᵀ (PPA and BADMM).
// Parallelism is left to the caller (one State per goroutine; RunBatch runs a batch of graphs
// largest first on a pool of workers, within a memory budget).
package layers
