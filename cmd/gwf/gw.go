package main

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gwf-graphs/gwf/graphs"
	"github.com/gwf-graphs/gwf/layers"
)

// gwFlags are the flags of "gwf gw".
type gwFlags struct {
	solver        string
	gamma         float64
	layers        int
	inner         int
	featureWeight float64
	tol           float64
	maxSweeps     int
	round         bool
	json          bool
	format        string
	directed      bool
	ids           string
	maxNodes      int
	maxMemory     float64
}

// gwResult is the --json output of "gwf gw".
type gwResult struct {
	Objective float64     `json:"objective"`
	Transport [][]float64 `json:"transport"`
	// MarginalError is max |row sum − μ_A|, |column sum − μ_B| of the transport.
	MarginalError float64  `json:"marginal_error"`
	Solver        string   `json:"solver"`
	Gamma         *float64 `json:"gamma"` // null for cg
	Layers        int      `json:"layers"`
	// Iterations is the number of layers run: Layers, or fewer when CG converged.
	Iterations int     `json:"iterations"`
	Inner      *int    `json:"inner"` // null for badmm and cg
	Tol        float64 `json:"tol"`
	// SweepCapHits counts the layers whose converged-mode sweeps stopped at --max-sweeps.
	SweepCapHits  int     `json:"sweep_cap_hits"`
	Rounded       bool    `json:"rounded"`
	FeatureWeight float64 `json:"feature_weight"`
	// Seconds is the solve's wall time (reading the graphs excluded).
	Seconds    float64 `json:"seconds"`
	Rows       string  `json:"rows"`
	Cols       string  `json:"cols"`
	NodesA     int     `json:"nodes_a"`
	NodesB     int     `json:"nodes_b"`
	FeatureDim int     `json:"feature_dim"`
}

func newGWCmd(a *app) *cobra.Command {
	var f gwFlags
	p, b, cg := layers.DefaultPPA(), layers.DefaultBADMM(), layers.DefaultCG()
	cmd := &cobra.Command{
		Use:   "gw A B",
		Short: "Gromov-Wasserstein discrepancy between two graphs",
		Long: `gw reads two graphs and computes their (fused) Gromov-Wasserstein discrepancy: the transport
T between their nodes and the objective <L(T), T>, with an unrolled GWD module of the paper
(ppa, badmm) or with conditional gradient (cg: Frank-Wolfe with exact optimal transport, as
POT's gromov_wasserstein).

Graphs are JSON files (the default for names ending in .json) or edge lists (any other name, or
--format edgelist): "u v [weight]" lines, node ids 0-based unless --ids says otherwise. Node
features are used when both graphs have them (fused GW, weighted by --feature-weight); giving
features to only one graph is an error.

Defaults are the paper's: PPA with γ = 0.01, M = 50 layers, 5 Sinkhorn sweeps per layer; with
--solver badmm, γ = 1 unless --gamma is given. At these settings the transport's columns do
not sum to μ_B exactly (the output reports the marginal error). --tol runs PPA's Sinkhorn
sweeps until the error is below it (BADMM: sweeps on its final transport), at most
--max-sweeps per layer, and then rounds T onto the feasible set (turn off with --round=false);
--round alone rounds the paper's result. cg runs until the objective changes by less than
1e-9 (--tol sets the relative threshold), at most --layers iterations.

The plain output is the objective, the marginal error and the sizes; --json adds the transport
matrix (rows: the nodes of A, columns: the nodes of B).`,
		Example: `  gwf gw a.json b.json
  gwf gw a.json b.json --json > result.json
  gwf gw a.txt b.txt --format edgelist --directed --solver badmm
  gwf gw a.edges b.edges --ids one
  gwf gw a.json b.json --gamma 0.05 --layers 100
  gwf gw a.json b.json --solver cg --json
  gwf gw a.json b.json --tol 1e-9`,
		Args: exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGW(cmd, a, &f, args[0], args[1])
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.solver, "solver", p.Name(), "GWD solver: ppa (proximal point), badmm (Bregman ADMM) or cg (conditional gradient, exact OT)")
	fs.Float64Var(&f.gamma, "gamma", p.Gamma, fmt.Sprintf("solver weight γ (default %g with ppa, %g with badmm)", p.Gamma, b.Gamma))
	fs.Lookup("gamma").DefValue = "0" // hides "(default 0.01)": it depends on --solver, as the usage says
	fs.IntVar(&f.layers, "layers", p.Layers, fmt.Sprintf("number of layers M (cg: most iterations, default %d)", cg.MaxIter))
	fs.IntVar(&f.inner, "inner", p.Inner, "Sinkhorn sweeps per PPA layer (ppa only)")
	fs.Float64Var(&f.featureWeight, "feature-weight", p.Weight, "weight of the node-feature cost (when both graphs have features)")
	fs.Float64Var(&f.tol, "tol", 0, "converged mode (ppa, badmm): Sinkhorn sweeps until the marginal error is below this; cg: relative objective change at which to stop")
	fs.IntVar(&f.maxSweeps, "max-sweeps", layers.DefaultMaxSweeps, "with --tol: most sweeps per layer (the output counts the layers that hit it)")
	fs.BoolVar(&f.round, "round", false, "project the final transport onto the feasible set (default true with --tol, for ppa and badmm)")
	fs.BoolVar(&f.json, "json", false, "print a JSON object with the objective and the transport")
	fs.StringVar(&f.format, "format", "", `input format: json (gwf's JSON or networkx node-link JSON), graphml, gml or edgelist (default: by the extension, else edgelist)`)
	fs.BoolVar(&f.directed, "directed", false, "edge lists: read edges as directed (default: symmetric)")
	fs.StringVar(&f.ids, "ids", "zero", "edge lists: node ids are zero (0..N−1: node i is row i), one (1..N) or names (any tokens: ordered by number when all are integers, else by first appearance)")
	fs.IntVar(&f.maxNodes, "max-nodes", graphs.DefaultLimits.MaxNodes, "refuse graphs with more nodes than this")
	fs.Float64Var(&f.maxMemory, "max-memory", float64(graphs.DefaultLimits.MaxDenseBytes)/(1<<30), "refuse graphs whose dense matrices need more GiB than this")
	return cmd
}

// options turns the flags into solver options: the named solver's defaults, overridden by
// the flags given. Its errors are usage errors.
func (f *gwFlags) options(cmd *cobra.Command) (layers.SolverOptions, error) {
	fs := cmd.Flags()
	o, err := layers.DefaultSolverOptions(f.solver)
	if err != nil {
		return o, usagef("--solver: %w", err)
	}
	if changed(fs, "gamma") {
		o.Gamma = f.gamma
	}
	if changed(fs, "layers") {
		o.Layers = f.layers
	}
	if changed(fs, "inner") {
		o.Inner = f.inner
	}
	o.FeatureWeight, o.Tol, o.MaxSweeps = f.featureWeight, f.tol, f.maxSweeps
	o.Round = f.round || (f.tol > 0 && !changed(fs, "round"))
	if f.solver == "cg" {
		o.Round = false // every CG iterate is feasible
	}
	return o, nil
}

// build checks the flags and returns the solver's options and the solver; its errors are
// usage errors.
func (f *gwFlags) build(cmd *cobra.Command) (layers.SolverOptions, layers.Solver, error) {
	o, err := f.options(cmd)
	if err != nil {
		return o, nil, err
	}
	s, err := layers.NewSolver(o)
	if err != nil {
		return o, nil, usageError{err}
	}
	switch strings.ToLower(f.format) {
	case "", "json", "graphml", "gml", "edgelist":
	default:
		return o, nil, usagef("--format: unknown format %q (want json, graphml, gml or edgelist)", f.format)
	}
	if _, ok := edgeIDs(f.ids); !ok {
		return o, nil, usagef("--ids: unknown kind %q (want zero, one or names)", f.ids)
	}
	if !(f.maxMemory > 0) || f.maxMemory > 1<<20 {
		return o, nil, usagef("--max-memory = %v GiB must be positive (and at most 2^20)", f.maxMemory)
	}
	if f.maxNodes < 1 {
		return o, nil, usagef("--max-nodes = %d must be at least 1", f.maxNodes)
	}
	return o, s, nil
}

func runGW(cmd *cobra.Command, a *app, f *gwFlags, pathA, pathB string) error {
	o, s, err := f.build(cmd)
	if err != nil {
		return err
	}
	ga, err := f.read(pathA, "A")
	if err != nil {
		return err
	}
	gb, err := f.read(pathB, "B")
	if err != nil {
		return err
	}
	switch {
	case (ga.F == nil) != (gb.F == nil):
		with, without := pathA, pathB
		if ga.F == nil {
			with, without = pathB, pathA
		}
		return fmt.Errorf("%s has node features but %s has none: give both graphs features (fused GW) or neither", with, without)
	case ga.Dim() != gb.Dim():
		return fmt.Errorf("node feature dimensions differ: %d in %s, %d in %s", ga.Dim(), pathA, gb.Dim(), pathB)
	}
	if o.Name != "ppa" && changed(cmd.Flags(), "inner") {
		a.log.Warnf("--inner has no effect with --solver %s", o.Name)
	}
	if o.Name == "cg" && changed(cmd.Flags(), "gamma") {
		a.log.Warn("--gamma has no effect with --solver cg")
	}
	if f.directed && strings.EqualFold(f.format, "json") {
		a.log.Warn("--directed has no effect on JSON graphs (their adjacency is used as given)")
	}
	start := time.Now()
	r, err := layers.Discrepancy(s, layers.Space{A: ga.A, Mu: ga.Mu, F: ga.F}, layers.Space{A: gb.A, Mu: gb.Mu, F: gb.F})
	if err != nil {
		return fmt.Errorf("gw: %w", err)
	}
	elapsed := time.Since(start)
	obj := r.Objective
	if math.IsNaN(obj) || math.IsInf(obj, 0) {
		return fmt.Errorf("gw: %w: the objective is %v", layers.ErrNumerical, obj)
	}
	if r.SweepCapHits > 0 {
		a.log.Warnf("%d layer(s) stopped at --max-sweeps %d before reaching --tol %g", r.SweepCapHits, o.MaxSweeps, o.Tol)
	}
	out := cmd.OutOrStdout()
	res := gwResult{
		Objective: obj, Transport: rowsOf(r.Transport), MarginalError: r.MarginalError, Solver: o.Name,
		Layers: o.Layers, Iterations: r.Layers, Tol: o.Tol, SweepCapHits: r.SweepCapHits, Rounded: o.Round,
		FeatureWeight: o.FeatureWeight, Seconds: elapsed.Seconds(), Rows: "nodes of A", Cols: "nodes of B",
		NodesA: ga.N(), NodesB: gb.N(), FeatureDim: ga.Dim(),
	}
	if o.Name != "cg" {
		res.Gamma = &o.Gamma
	}
	if o.Name == "ppa" && o.Tol == 0 {
		res.Inner = &o.Inner
	}
	if f.json {
		if err := writeJSON(out, res); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
		return nil
	}
	var settings string
	switch {
	case res.Gamma == nil:
		settings = fmt.Sprintf("%s, %d iterations", res.Solver, res.Iterations)
	default:
		settings = fmt.Sprintf("%s, γ = %g, M = %d", res.Solver, *res.Gamma, res.Layers)
	}
	if res.Inner != nil {
		settings += fmt.Sprintf(", %d sweeps", *res.Inner)
	}
	if o.Tol > 0 && o.Name != "cg" {
		settings += fmt.Sprintf(", tol %g", o.Tol)
	}
	if res.Rounded {
		settings += ", rounded"
	}
	feat := "no node features"
	if res.FeatureDim > 0 {
		feat = fmt.Sprintf("%d-dimensional node features, weight %g", res.FeatureDim, res.FeatureWeight)
	}
	if _, err := fmt.Fprintf(out, "objective: %.6g\nmarginal error: %.3g\nA: %d nodes, B: %d nodes, %s (%s)\n", obj, res.MarginalError, res.NodesA, res.NodesB, feat, settings); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// read loads graph which ("A" or "B") in the format of --format (or guessed from the name).
// The readers' errors name the file.
func (f *gwFlags) read(path, which string) (*graphs.Graph, error) {
	lim := graphs.Limits{MaxNodes: f.maxNodes, MaxDenseBytes: graphs.BytesOfGiB(f.maxMemory)}
	format := strings.ToLower(f.format)
	if format == "" {
		format = "edgelist"
		switch ext := strings.ToLower(filepath.Ext(path)); ext {
		case ".json", ".graphml", ".gml":
			format = ext[1:]
		}
	}
	var g *graphs.Graph
	var err error
	// Numeric node attributes are the features, as the JSON form's "features" are.
	attrs := graphs.NodeLinkOptions{Attributes: true, Limits: lim}
	switch format {
	case "json":
		if strings.EqualFold(filepath.Ext(path), ".json") { // gwf's form or node-link, by their fields
			g, err = graphs.ReadGraphFile(path, graphs.FolderOptions{Limits: lim, Features: graphs.FeaturesAttributes})
		} else {
			g, err = graphs.ReadJSONFile(path, lim)
		}
	case "graphml":
		g, err = graphs.ReadGraphMLFile(path, attrs)
	case "gml":
		g, err = graphs.ReadGMLFile(path, attrs)
	default:
		ids, _ := edgeIDs(f.ids) // checked by build
		g, err = graphs.ReadEdgeListFile(path, graphs.EdgeListOptions{IDs: ids, Directed: f.directed, Limits: lim})
		if errors.Is(err, graphs.ErrNoNodeZero) {
			err = fmt.Errorf("%w\n(with gwf gw: --ids one, or --ids names)", err)
		}
	}
	if err == nil {
		err = g.Validate()
	}
	if err != nil {
		return nil, fmt.Errorf("graph %s: %w", which, err)
	}
	return g, nil
}

// edgeIDs parses --ids.
func edgeIDs(s string) (graphs.EdgeIDs, bool) {
	switch strings.ToLower(s) {
	case "zero":
		return graphs.ZeroBased, true
	case "one":
		return graphs.OneBased, true
	case "names":
		return graphs.NodeNames, true
	}
	return 0, false
}

// rowsOf copies a matrix into rows.
func rowsOf(m mat.Matrix) [][]float64 {
	r, c := m.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = make([]float64, c)
		for j := range out[i] {
			out[i][j] = m.At(i, j)
		}
	}
	return out
}
